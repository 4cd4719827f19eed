import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  listingResponse,
  pageQuery,
  pageRequest,
  pageSchema,
  sendListing,
  type PageQuery,
} from '../http/pagination.js';
import { readErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { Page, PageRequest } from '../shared/cursor.js';
import type { Principal } from '../access/principal.js';
import type { Permission } from '../access/roles.js';
import {
  CampaignRecordSchema,
  FlowFilter,
  FlowRecordSchema,
  MessageFilter,
  MessageRecordSchema,
  SequenceFilter,
  SequenceRecordSchema,
  TRIGGER_LIMIT,
  WhatsappFlowAnswerRecordSchema,
  WhatsappFlowFilter,
} from './trigger.schema.js';
import type { TriggerService } from './trigger.service.js';

const POLLING = `Returns at most ${TRIGGER_LIMIT} records, newest first (created_at, then id, descending). Polling rule: remember the newest id seen; next time, process records from the top until that id, then store the first id of the new batch. Poll at most once per workspace interval (default 30 s); faster polls get 429 with Retry-After. With \`paginate=cursor\`, older records are reachable page by page in the same order; a request carrying a \`cursor\` is not a poll (it counts against the token's requests per minute instead of the interval).`;

type Listing = unknown[] | Page<unknown> | string;

/**
 * The trigger feeds, at /api/v1/triggers/<name> and at the legacy /api/zapier/triggers/<name>
 * that older pollers still call.
 */
export function registerTriggerRoutes(app: Api, triggers: TriggerService): void {
  for (const record of [
    MessageRecordSchema,
    CampaignRecordSchema,
    FlowRecordSchema,
    SequenceRecordSchema,
    WhatsappFlowAnswerRecordSchema,
  ]) {
    app.addSchema(record);
  }

  const feed = <Q extends TObject>(
    name: string,
    spec: {
      summary: string;
      querystring: Q;
      record: TSchema & { $id?: string };
      operationId: string;
      /** A feed carries the content of its area: received messages are conversations, and so on. */
      permission: Permission;
    },
    list: (caller: Principal, query: Q['static']) => Promise<Listing>,
    page: (caller: Principal, query: Q['static'], request: PageRequest) => Promise<Listing>,
  ) => {
    const schemas = {
      list: Type.Array(Type.Ref(spec.record), { maxItems: TRIGGER_LIMIT }),
      page: pageSchema(Type.Ref(spec.record), `${spec.record.$id}Page`),
    };
    app.addSchema(schemas.page);
    const querystring = Type.Object({ ...spec.querystring.properties, ...pageQuery(TRIGGER_LIMIT) });
    for (const [prefix, legacy] of [
      ['/api/v1/triggers/', false],
      ['/api/zapier/triggers/', true],
    ] as const) {
      app.get(
        `${prefix}${name}`,
        {
          config: { access: 'read', permission: spec.permission, poll: name },
          schema: {
            operationId: legacy ? `${spec.operationId}Legacy` : spec.operationId,
            tags: ['Triggers'],
            summary: legacy ? `${spec.summary} (legacy path)` : spec.summary,
            description: legacy ? `Same as GET /v1/triggers/${name}; kept for older pollers.` : POLLING,
            ...(legacy && { deprecated: true }),
            querystring,
            response: { 200: listingResponse(schemas.list, schemas.page), ...readErrors() },
          },
        },
        async (request: FastifyRequest, reply: FastifyReply) => {
          const query = request.query as Q['static'] & PageQuery; // validated against `querystring`
          const paging = pageRequest(query, TRIGGER_LIMIT);
          const caller = principalOf(request);
          const listing = paging ? await page(caller, query, paging) : await list(caller, query);
          return sendListing(reply, listing, schemas);
        },
      );
    }
  };

  feed(
    'new-message-received',
    {
      summary: 'New inbound messages',
      querystring: MessageFilter,
      record: MessageRecordSchema,
      operationId: 'newMessageReceived',
      permission: 'conversations',
    },
    // The records are stored as JSON text; the list (or page) of them is sent as it is.
    (caller, query) => triggers.messagesReceived(caller, query.message_type),
    (caller, query, paging) => triggers.messagesReceivedPage(caller, query.message_type, paging),
  );
  feed(
    'new-campaign-sent',
    {
      summary: 'Campaigns that finished sending',
      querystring: Type.Object({}),
      record: CampaignRecordSchema,
      operationId: 'newCampaignSent',
      permission: 'campaigns',
    },
    (caller) => triggers.campaignsSent(caller),
    (caller, _query, paging) => triggers.campaignsSentPage(caller, paging),
  );
  feed(
    'new-flow-triggered',
    {
      summary: 'Flow runs started',
      querystring: FlowFilter,
      record: FlowRecordSchema,
      operationId: 'newFlowTriggered',
      permission: 'automation',
    },
    (caller, query) => triggers.flowsTriggered(caller, query.flow_id),
    (caller, query, paging) => triggers.flowsTriggeredPage(caller, query.flow_id, paging),
  );
  feed(
    'new-sequence-triggered',
    {
      summary: 'Sequence enrolments',
      querystring: SequenceFilter,
      record: SequenceRecordSchema,
      operationId: 'newSequenceTriggered',
      permission: 'automation',
    },
    (caller, query) => triggers.sequencesTriggered(caller, query.sequence_id),
    (caller, query, paging) => triggers.sequencesTriggeredPage(caller, query.sequence_id, paging),
  );
  feed(
    'new-whatsapp-flow-answer',
    {
      summary: "WhatsApp Flows (Meta's forms) customers completed",
      querystring: WhatsappFlowFilter,
      record: WhatsappFlowAnswerRecordSchema,
      operationId: 'newWhatsappFlowAnswer',
      // The answers are what customers told about themselves: contact data.
      permission: 'contacts',
    },
    (caller, query) => triggers.whatsappFlowAnswers(caller, query.whatsapp_flow_id),
    (caller, query, paging) => triggers.whatsappFlowAnswersPage(caller, query.whatsapp_flow_id, paging),
  );
}
