import type { ContactRow } from '../contacts/contact.repository.js';
import type { ContactService } from '../contacts/contact.service.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { templateRepository } from '../templates/template.repository.js';
import { presentMessage } from './message.presenter.js';
import { messageRepository } from './message.repository.js';
import type { Message, SendTemplateInput, SendTextInput } from './message.schema.js';
import { textContent, type OutboundContent } from './outbound/content.js';
import type { Outbound } from './outbound/outbound.js';
import { isRefusal, type Refusal } from './outbound/rules.js';
import { templateContent } from './outbound/template.js';

/** Hears of messages once committed (new ones, and status changes): the dashboard's live updates. */
export interface MessageEvents {
  publish(workspaceId: string, events: { type: 'message' | 'status'; contact_id: string; message_id: string }[]): void;
}

const noMessageEvents: MessageEvents = { publish: () => undefined };

/** The API's send actions (through the one outbound path) and reading a message back. */
export function createMessageService(
  deps: Deps,
  contacts: ContactService,
  outbound: Outbound,
  /** Wakes the workers a committed transaction queued work for. */
  wakeFor: (work: QueuedWork) => void,
  events: MessageEvents = noMessageEvents,
) {
  const { db } = deps;

  /** Queues the message (the sending rules allow it, or the refusal is the API's problem), then wakes the outbox. */
  async function queue(
    caller: Caller,
    contact: ContactRow,
    content: OutboundContent,
    channelId: string | null,
  ): Promise<Message> {
    const [message, queued] = await db.transaction().execute(async (trx) => {
      const prepared = await outbound.queueNow(trx, contact, content, channelId);
      if (isRefusal(prepared)) throw problemOf(prepared);
      return [prepared, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    events.publish(caller.workspaceId, [{ type: 'message', contact_id: contact.id, message_id: message.id }]);
    return presentMessage({
      ...message,
      direction: 'outbound',
      attempts: 0,
      feed_record: null,
      contact_phone: contact.phone,
    });
  }

  return {
    /** send-text-message: only inside the 24-hour window that the contact's last inbound message opened. */
    async sendText(caller: Caller, input: SendTextInput): Promise<Message> {
      const channelId = await outbound.channelNamed(caller.workspaceId, input.from_phone_number_id);
      const contact = await contacts.recipient(caller, input);
      return queue(caller, contact, textContent(input.message, input.preview_url ?? false), channelId);
    },

    /** send-template-message: always allowed for an approved translation; an unknown phone becomes a contact. */
    async sendTemplate(caller: Caller, input: SendTemplateInput): Promise<Message> {
      const templates = templateRepository(db);
      const template = await templates.findById(caller.workspaceId, input.template_id);
      if (!template) throw errors.notFound('template', 'template_id');
      const content = templateContent(template, await templates.translations([template.id]), input);
      const channelId = await outbound.channelNamed(caller.workspaceId, input.from_phone_number_id);
      const contact = await contacts.recipientOrNew(caller, input);
      return queue(caller, contact, { type: 'template', content }, channelId);
    },

    async get(caller: Caller, messageId: string): Promise<Message> {
      const row = await messageRepository(db).findById(caller.workspaceId, messageId);
      if (!row) throw errors.notFound('message');
      return presentMessage(row);
    },
  };
}

/** A refused send as the API answers it. */
function problemOf(refusal: Refusal) {
  return refusal.refused === 'opted_out' ? errors.optedOut() : errors.windowClosed(refusal.windowClosedAt);
}

export type MessageService = ReturnType<typeof createMessageService>;
