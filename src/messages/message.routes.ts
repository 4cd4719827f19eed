import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import type { Caller } from '../shared/context.js';
import { answerSend, HELD_ANSWER, HELD_SENDS } from './approvals/held-send.routes.js';
import { HeldSendSchema } from './approvals/held-send.schema.js';
import {
  GetMessageBody,
  MessageSchema,
  SendContactsBody,
  SendInteractiveBody,
  SendLocationBody,
  SendMediaBody,
  SendReactionBody,
  SendTemplateBody,
  SendTextBody,
  SimulateInboundBody,
} from './message.schema.js';
import type { InboundService } from './inbound.js';
import type { MessageService, SendAnswer } from './message.service.js';
import { MarkAsReadBody, ReadReceiptSchema, type ReadReceiptService } from './read-receipt.js';

const tags = ['Messages'];
const message = Type.Ref(MessageSchema);

/** What every free-form send's description ends with: the rules it follows and what it answers. */
const FREE_FORM =
  "Like send-text-message, allowed only within 24 hours of the contact's latest inbound message (else 422 `customer_service_window_closed`). `reply_to_message_id` quotes one of the contact's messages that reached WhatsApp (Meta's `context`; 422 `message_not_on_whatsapp` otherwise). The message is stored as `queued` and returned; its status follows the delivery.";

/** The message actions of spec §4 and the rich kinds: each queues the message in the outbox and returns it. */
export function registerMessageRoutes(
  app: Api,
  messages: MessageService,
  inbound: InboundService,
  receipts: ReadReceiptService,
): void {
  app.addSchema(MessageSchema);
  app.addSchema(ReadReceiptSchema);
  app.addSchema(HeldSendSchema);

  app.post(
    '/api/v1/actions/mark-as-read',
    {
      config: { access: 'write', permission: 'conversations' },
      schema: {
        operationId: 'markAsRead',
        tags,
        summary: 'Tell the contact their message was read, optionally with a typing indicator',
        description:
          '`message_id` names a message the contact sent (a message Parley sent is a 400; one without a WhatsApp id a 422 `message_not_on_whatsapp`). WhatsApp shows it and every earlier message read (blue ticks); with `typing_indicator` the contact also sees that a reply is being typed, until it is sent or for 25 seconds. Meta refusing is a 409. The inbox does the same when a team member opens the conversation (its typing indicator is a workspace setting).',
        body: MarkAsReadBody,
        response: { 200: Type.Ref(ReadReceiptSchema), ...actionErrors(404) },
      },
    },
    async (request) => receipts.markAsRead(principalOf(request), request.body),
  );

  /** A send action of the rich kinds: its route, documentation and error responses, alike for all. */
  const sendRoute = <B extends TSchema>(
    { action, ...schema }: { action: string; operationId: string; summary: string; description: string; body: B },
    send: (caller: Caller, input: Static<B>) => Promise<SendAnswer>,
  ) =>
    app.post(
      `/api/v1/actions/${action}`,
      {
        config: { access: 'write', permission: 'conversations' },
        schema: {
          ...schema,
          description: `${schema.description} ${HELD_SENDS}`,
          tags,
          response: { 200: message, ...HELD_ANSWER, ...actionErrors(404) },
        },
      },
      async (request, reply) => answerSend(reply, await send(principalOf(request), request.body as Static<B>)),
    );

  sendRoute(
    {
      action: 'send-media-message',
      operationId: 'sendMediaMessage',
      summary: 'Send an image, video, audio, document or sticker',
      description: `The file is one uploaded with upload-media (\`media_id\`) or a public https \`media_url\` WhatsApp fetches (a private or loopback address is refused). An uploaded file's type must be one WhatsApp takes for that kind of media (422 \`media_not_accepted\`). A caption is shown under images, videos and documents; a file name under documents. ${FREE_FORM}`,
      body: SendMediaBody,
    },
    (caller, input) => messages.sendMedia(caller, input),
  );

  sendRoute(
    {
      action: 'send-interactive-message',
      operationId: 'sendInteractiveMessage',
      summary: 'Send reply buttons, a list or a call-to-action URL button',
      description: `\`button\`: 1–3 \`buttons\` (unique ids and titles); \`list\`: a \`button\` label and \`sections\` with at most 10 rows in all; \`cta_url\`: \`display_text\` and an https \`url\`. A customer's tap arrives as an inbound interactive message with the button's or row's id. ${FREE_FORM}`,
      body: SendInteractiveBody,
    },
    (caller, input) => messages.sendInteractive(caller, input),
  );

  sendRoute(
    {
      action: 'send-location',
      operationId: 'sendLocation',
      summary: 'Send a location pin',
      description: FREE_FORM,
      body: SendLocationBody,
    },
    (caller, input) => messages.sendLocation(caller, input),
  );

  sendRoute(
    {
      action: 'send-contacts',
      operationId: 'sendContacts',
      summary: 'Send contact cards',
      description: `\`contacts\` are Meta's contact objects: a \`name\` with \`formatted_name\`, then \`phones\`, \`emails\`, \`urls\`, \`org\`, \`addresses\`, \`birthday\`. A phone with a \`wa_id\` gets a Message button. ${FREE_FORM}`,
      body: SendContactsBody,
    },
    (caller, input) => messages.sendContacts(caller, input),
  );

  sendRoute(
    {
      action: 'send-reaction',
      operationId: 'sendReaction',
      summary: "React with an emoji to one of the contact's messages",
      description:
        '`message_id` names a message (sent or received) that reached WhatsApp; an empty `emoji` removes the reaction. Allowed only within the 24-hour customer service window, like any free-form message.',
      body: SendReactionBody,
    },
    (caller, input) => messages.sendReaction(caller, input),
  );

  app.post(
    '/api/v1/actions/send-text-message',
    {
      config: { access: 'write', permission: 'conversations' },
      schema: {
        operationId: 'sendTextMessage',
        tags,
        summary: 'Send free-form text (inside the 24-hour customer service window)',
        description: `Allowed only within 24 hours of the contact's latest inbound message; outside it the answer is 422 \`customer_service_window_closed\` with \`window_closed_at\`. The message is stored as \`queued\` before anything is sent; its status then follows the delivery (sent, delivered, read, or failed with Meta's error). ${HELD_SENDS}`,
        body: SendTextBody,
        response: { 200: message, ...HELD_ANSWER, ...actionErrors(404) },
      },
    },
    async (request, reply) => answerSend(reply, await messages.sendText(principalOf(request), request.body)),
  );

  app.post(
    '/api/v1/actions/send-template-message',
    {
      config: { access: 'write', permission: 'conversations' },
      schema: {
        operationId: 'sendTemplateMessage',
        tags,
        summary: 'Send an approved template message (always allowed)',
        description: `Sends the translation named by \`language\` (default: the one get-template shows), which must be APPROVED. \`variables\` fill the body placeholders in order (or keyed by number); a media header needs \`header_media_url\`; URL buttons with a placeholder need \`button_variables\`. Variables may use {{contact.name}}, {{contact.first_name}}, {{contact.phone}}, {{contact.email}} and {{attributes.KEY}}, filled for the recipient as campaigns and sequences fill them (\`{{contact.first_name | "there"}}\` gives a fallback; a placeholder left without a value is a 400). An unknown phone becomes a new contact. ${HELD_SENDS}`,
        body: SendTemplateBody,
        response: { 200: message, ...HELD_ANSWER, ...actionErrors(404) },
      },
    },
    async (request, reply) => answerSend(reply, await messages.sendTemplate(principalOf(request), request.body)),
  );

  app.post(
    '/api/v1/actions/get-message',
    {
      config: { access: 'read', permission: 'conversations' },
      schema: {
        operationId: 'getMessage',
        tags,
        summary: 'Fetch one message: its delivery status, provider id and error',
        body: GetMessageBody,
        response: { 200: message, ...actionErrors(404) },
      },
    },
    async (request) => messages.get(principalOf(request), request.body.message_id),
  );

  app.post(
    '/api/v1/actions/simulate-inbound-message',
    {
      config: { access: 'write', permission: 'conversations' },
      schema: {
        operationId: 'simulateInboundMessage',
        tags,
        summary: 'Simulator: a contact writes in',
        description:
          "Only while the workspace uses the built-in simulator channel (409 otherwise). Stored exactly like a message from WhatsApp: it opens the 24-hour window and appears in new-message-received; an unknown phone becomes a contact. Give exactly one of `text`, `button_reply` (a tapped reply button), `list_reply` (a chosen list row), `media` (a sample image, document or audio file Parley ships, with an optional `caption` for images and documents), `location` or `contact_card`: each is stored as Meta's webhook message of that type (taps as `interactive`, so flows branch on the button id; files are downloaded into the media store like Meta's).",
        body: SimulateInboundBody,
        response: { 200: message, ...actionErrors() },
      },
    },
    async (request) => {
      const { phone, ...message } = request.body;
      return inbound.simulateInbound(principalOf(request), { from: phone, ...message });
    },
  );
}
