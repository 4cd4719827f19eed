import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  GetMessageBody,
  MessageSchema,
  SendTemplateBody,
  SendTextBody,
  SimulateInboundBody,
} from './message.schema.js';
import type { InboundService } from './inbound.js';
import type { MessageService } from './message.service.js';

const tags = ['Messages'];
const message = Type.Ref(MessageSchema);

/** The message actions of spec §4: both queue the message in the outbox and return it. */
export function registerMessageRoutes(app: Api, messages: MessageService, inbound: InboundService): void {
  app.addSchema(MessageSchema);

  app.post(
    '/api/v1/actions/send-text-message',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'sendTextMessage',
        tags,
        summary: 'Send free-form text (inside the 24-hour customer service window)',
        description:
          "Allowed only within 24 hours of the contact's latest inbound message; outside it the answer is 422 `customer_service_window_closed` with `window_closed_at`. The message is stored as `queued` before anything is sent; its status then follows the delivery (sent, delivered, read, or failed with Meta's error).",
        body: SendTextBody,
        response: { 200: message, ...actionErrors(404) },
      },
    },
    async (request) => messages.sendText(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/send-template-message',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'sendTemplateMessage',
        tags,
        summary: 'Send an approved template message (always allowed)',
        description:
          'Sends the translation named by `language` (default: the one get-template shows), which must be APPROVED. `variables` fill the body placeholders in order (or keyed by number); a media header needs `header_media_url`; URL buttons with a placeholder need `button_variables`. An unknown phone becomes a new contact.',
        body: SendTemplateBody,
        response: { 200: message, ...actionErrors(404) },
      },
    },
    async (request) => messages.sendTemplate(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/get-message',
    {
      config: { access: 'read' },
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
      config: { access: 'write' },
      schema: {
        operationId: 'simulateInboundMessage',
        tags,
        summary: 'Simulator: a contact writes in',
        description:
          'Only while the workspace uses the built-in simulator channel (409 otherwise). Stored exactly like a message from WhatsApp: it opens the 24-hour window and appears in new-message-received; an unknown phone becomes a contact.',
        body: SimulateInboundBody,
        response: { 200: message, ...actionErrors() },
      },
    },
    async (request) =>
      inbound.simulateInbound(principalOf(request), { from: request.body.phone, text: request.body.text }),
  );
}
