import { Type } from '@sinclair/typebox';
import { actionFamily } from '../http/action-family.js';
import type { Api } from '../http/types.js';
import { answerSend, HELD_ANSWER, HELD_SENDS, MessageSchema, type SendAnswer } from '../messages/index.js';
import {
  CreateWhatsappFlowBody,
  DeletedWhatsappFlow,
  FlowValidationErrorSchema,
  ListWhatsappFlowsBody,
  SendWhatsappFlowBody,
  SetWhatsappFlowAttributesBody,
  UpdateWhatsappFlowJsonBody,
  WhatsappFlowAlertSchema,
  WhatsappFlowIdBody,
  WhatsappFlowSchema,
} from './whatsapp-flow.schema.js';
import type { WhatsappFlowAlerts } from './whatsapp-flow.alerts.js';
import type { WhatsappFlowService } from './whatsapp-flow.service.js';

const whatsappFlow = Type.Ref(WhatsappFlowSchema);
const ABOUT =
  "WhatsApp Flows are Meta's forms, made and kept in the WhatsApp Business Account of the workspace's default number through Meta's Flows API; a workspace on the simulator gets 409. Meta's refusals (a name already taken, publishing a Flow with errors, deleting one that is not a draft) are a 409 in Meta's words.";

/** The WhatsApp Flows actions: list and read them (every role), make and change them (templates' permission). */
export function registerWhatsappFlowRoutes(app: Api, flows: WhatsappFlowService, alerts: WhatsappFlowAlerts): void {
  const sending = actionFamily(app, {
    tags: ['Messages'],
    permission: 'conversations',
    about: 'Sending is conversation work, as every send action.',
  });
  app.addSchema(FlowValidationErrorSchema);
  app.addSchema(WhatsappFlowSchema);
  app.addSchema(WhatsappFlowAlertSchema);
  const tags = ['WhatsApp Flows'];
  // Reading is open, as templates' is: every sender picks a published Flow to send.
  const read = actionFamily(app, { tags, permission: null, about: ABOUT });
  // Making them is template work: they are what a template's FLOW button opens.
  const manage = actionFamily(app, { tags, permission: 'templates', about: ABOUT });

  read(
    'list-whatsapp-flows',
    {
      operationId: 'listWhatsappFlows',
      summary: "List the WhatsApp Business Account's Flows (Meta's forms) Parley knows",
      description: 'By name. sync-whatsapp-flows reads those made elsewhere (in WhatsApp Manager).',
      body: ListWhatsappFlowsBody,
      response: Type.Array(whatsappFlow),
      errors: [],
    },
    'read',
    (caller, body) => flows.list(caller, body),
  );
  read(
    'get-whatsapp-flow',
    {
      operationId: 'getWhatsappFlow',
      summary: 'Get a WhatsApp Flow as Meta describes it now',
      description:
        "Asks Meta: its status, Meta's validation errors of its Flow JSON and a fresh preview link (`preview_url`, Meta's `preview.preview_url`).",
      body: WhatsappFlowIdBody,
      response: whatsappFlow,
      errors: [404],
    },
    'read',
    (caller, body) => flows.get(caller, body.whatsapp_flow_id),
  );
  read(
    'list-whatsapp-flow-alerts',
    {
      operationId: 'listWhatsappFlowAlerts',
      summary: "What Meta's Flows webhooks said of a WhatsApp Flow, newest first",
      description:
        "Meta's `flows` webhook field: status changes (also applied to the Flow's `status`), the error rate, latency and availability alerts about its data endpoint, and a Flow JSON version about to expire. The 50 newest.",
      body: WhatsappFlowIdBody,
      response: Type.Array(Type.Ref(WhatsappFlowAlertSchema)),
      errors: [404],
    },
    'read',
    (caller, body) => alerts.list(caller, body.whatsapp_flow_id),
  );
  manage(
    'sync-whatsapp-flows',
    {
      operationId: 'syncWhatsappFlows',
      summary: 'Read every Flow of the WhatsApp Business Account from Meta',
      description:
        'Flows made elsewhere are added (without their Flow JSON), changed ones updated, deleted ones forgotten.',
      body: Type.Object({}),
      response: Type.Array(whatsappFlow),
      errors: [],
    },
    'write',
    (caller) => flows.sync(caller),
  );
  manage(
    'create-whatsapp-flow',
    {
      operationId: 'createWhatsappFlow',
      summary: 'Create a WhatsApp Flow (a DRAFT) at Meta',
      description: 'Its screens come next, with update-whatsapp-flow-json (or from a copy: `clone_whatsapp_flow_id`).',
      body: CreateWhatsappFlowBody,
      response: whatsappFlow,
      errors: [404],
    },
    'write',
    (caller, body) => flows.create(caller, body),
  );
  manage(
    'update-whatsapp-flow-json',
    {
      operationId: 'updateWhatsappFlowJson',
      summary: "Upload a WhatsApp Flow's Flow JSON (its screens) to Meta",
      description:
        "Meta's asset upload. Meta keeps the document even with errors (the Flow stays a draft that cannot be published): then the answer is a 400 whose `errors` name each by line, column and JSON path, and whose `validation_errors` are Meta's, as given. A Flow no longer a draft is a 409.",
      body: UpdateWhatsappFlowJsonBody,
      response: whatsappFlow,
      errors: [404],
    },
    'write',
    (caller, body) => flows.updateJson(caller, body),
  );
  const change = (name: string, operationId: string, summary: string, description: string, run: typeof flows.publish) =>
    manage(
      name,
      { operationId, summary, description, body: WhatsappFlowIdBody, response: whatsappFlow, errors: [404] },
      'write',
      (caller, body) => run(caller, body.whatsapp_flow_id),
    );
  change(
    'publish-whatsapp-flow',
    'publishWhatsappFlow',
    'Publish a WhatsApp Flow: it can be sent to customers',
    'Only a draft without validation errors; its Flow JSON no longer changes.',
    (caller, id) => flows.publish(caller, id),
  );
  change(
    'deprecate-whatsapp-flow',
    'deprecateWhatsappFlow',
    'Deprecate a published WhatsApp Flow: it is sent no more',
    'Customers who have it may still fill it in.',
    (caller, id) => flows.deprecate(caller, id),
  );
  manage(
    'set-whatsapp-flow-attributes',
    {
      operationId: 'setWhatsappFlowAttributes',
      summary: "Choose which of a WhatsApp Flow's answer fields fill which contact attributes",
      description:
        'The whole mapping, `{ "field name": "attribute key" }` (`{}`: none), applied to each answer as it arrives, in the transaction that keeps it. The fields are those of `answer_fields` when Parley has the Flow JSON (another is a 400).',
      body: SetWhatsappFlowAttributesBody,
      response: whatsappFlow,
      errors: [404],
    },
    'write',
    (caller, body) => flows.setAnswerAttributes(caller, body),
  );
  manage(
    'delete-whatsapp-flow',
    {
      operationId: 'deleteWhatsappFlow',
      summary: 'Delete a draft WhatsApp Flow',
      description: 'At Meta and in Parley; Meta deletes only drafts (a published Flow is deprecated instead).',
      body: WhatsappFlowIdBody,
      response: DeletedWhatsappFlow,
      errors: [404],
    },
    'write',
    (caller, body) => flows.delete(caller, body.whatsapp_flow_id),
  );
  sending(
    'send-whatsapp-flow',
    {
      operationId: 'sendWhatsappFlow',
      summary: 'Send a WhatsApp Flow (Meta’s form) to a contact',
      description: `Meta's interactive \`flow\` message: the text, and a button (\`cta\`) that opens the published Flow on \`screen\` with \`data\` (\`navigate\`), or as its data endpoint says (\`data_exchange\`). Queued through the outbox like every message, inside the 24-hour customer service window (422 outside it). Parley makes the send's \`flow_token\` (in \`content.interactive.action.parameters\`) and keeps it with the message: the customer's answer names the send by it. 409 for a Flow not published. ${HELD_SENDS}`,
      body: SendWhatsappFlowBody,
      response: Type.Ref(MessageSchema),
      errors: [404],
      held: { response: HELD_ANSWER, answer: (reply, answer) => answerSend(reply, answer as SendAnswer) },
    },
    'write',
    (caller, body) => flows.send(caller, body),
  );
}
