import type { ContactRow } from '../contacts/contact.repository.js';
import type { ContactService } from '../contacts/contact.service.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { templateRepository } from '../templates/template.repository.js';
import { presentMessage } from './message.presenter.js';
import { messageRepository } from './message.repository.js';
import { mediaUploadRepository } from './media-upload.repository.js';
import type {
  Message,
  SendContactsInput,
  SendInteractiveInput,
  SendLocationInput,
  SendMediaInput,
  SendReactionInput,
  SendTemplateInput,
  SendTextInput,
} from './message.schema.js';
import { textContent, type MediaType, type OutboundContent } from './outbound/content.js';
import { checkMimeType } from './outbound/media-limits.js';
import type { Outbound } from './outbound/outbound.js';
import { contactsContent, interactiveContent, locationContent, mediaContent } from './outbound/rich.js';
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
  async function queue(caller: Caller, contact: ContactRow, content: OutboundContent): Promise<Message> {
    const [message, queued] = await db.transaction().execute(async (trx) => {
      const prepared = await outbound.queueNow(trx, contact, content);
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

  /**
   * One of the contact's messages, by Parley id, that WhatsApp knows (it has a wamid): what a reply
   * quotes or a reaction is on. Another contact's message answers like an unknown one.
   */
  async function messageOnWhatsapp(caller: Caller, contact: ContactRow, field: string, messageId: string) {
    const row = await messageRepository(db).findById(caller.workspaceId, messageId);
    if (!row || row.contact_id !== contact.id) throw errors.notFound('message', field);
    if (!row.provider_message_id) throw errors.messageNotOnWhatsapp(field);
    return { id: row.id, wamid: row.provider_message_id };
  }

  /** Checks the request's reply_to_message_id and queues the content as a reply to it (or as it is). */
  async function send(
    caller: Caller,
    contact: ContactRow,
    content: OutboundContent,
    replyTo: string | undefined,
  ): Promise<Message> {
    if (replyTo === undefined) return queue(caller, contact, content);
    const quoted = await messageOnWhatsapp(caller, contact, 'reply_to_message_id', replyTo);
    const context = { message_id: quoted.wamid };
    return queue(caller, contact, {
      ...content,
      content: { ...content.content, context },
      reply_to_message_id: quoted.id,
    } as OutboundContent);
  }

  /** A media_id must name a file this workspace uploaded, of a type the kind of media takes. */
  async function checkUpload(caller: Caller, type: MediaType, mediaId: string | undefined): Promise<void> {
    if (mediaId === undefined) return;
    const upload = await mediaUploadRepository(db).find(caller.workspaceId, mediaId);
    if (!upload) throw errors.notFound('uploaded media', 'media_id');
    checkMimeType('media_id', type, upload.mime_type);
  }

  return {
    /** send-text-message: only inside the 24-hour window that the contact's last inbound message opened. */
    async sendText(caller: Caller, input: SendTextInput): Promise<Message> {
      const contact = await contacts.recipient(caller, input);
      return send(caller, contact, textContent(input.message, input.preview_url ?? false), input.reply_to_message_id);
    },

    /** send-template-message: always allowed for an approved translation; an unknown phone becomes a contact. */
    async sendTemplate(caller: Caller, input: SendTemplateInput): Promise<Message> {
      const templates = templateRepository(db);
      const template = await templates.findById(caller.workspaceId, input.template_id);
      if (!template) throw errors.notFound('template', 'template_id');
      const content = templateContent(template, await templates.translations([template.id]), input);
      const contact = await contacts.recipientOrNew(caller, input);
      return send(caller, contact, { type: 'template', content }, input.reply_to_message_id);
    },

    /** send-media-message: a file uploaded with upload-media, or an https link WhatsApp fetches. */
    async sendMedia(caller: Caller, input: SendMediaInput): Promise<Message> {
      const type = input.type as MediaType;
      const content = mediaContent(input, type);
      await checkUpload(caller, type, input.media_id);
      const contact = await contacts.recipient(caller, input);
      return send(caller, contact, content, input.reply_to_message_id);
    },

    /** send-interactive-message: reply buttons, a list or a call-to-action URL button. */
    async sendInteractive(caller: Caller, input: SendInteractiveInput): Promise<Message> {
      const content = interactiveContent(input);
      return send(caller, await contacts.recipient(caller, input), content, input.reply_to_message_id);
    },

    async sendLocation(caller: Caller, input: SendLocationInput): Promise<Message> {
      const content = locationContent(input);
      return send(caller, await contacts.recipient(caller, input), content, input.reply_to_message_id);
    },

    async sendContacts(caller: Caller, input: SendContactsInput): Promise<Message> {
      const content = contactsContent(input);
      return send(caller, await contacts.recipient(caller, input), content, input.reply_to_message_id);
    },

    /** send-reaction: an emoji on one of the contact's messages ("" removes it); the contact is the message's. */
    async sendReaction(caller: Caller, input: SendReactionInput): Promise<Message> {
      const target = await messageRepository(db).findById(caller.workspaceId, input.message_id);
      if (!target) throw errors.notFound('message', 'message_id');
      const named = input.contact_id || input.phone ? await contacts.recipient(caller, input) : null;
      const contact = named ?? (await contacts.recipient(caller, { contact_id: target.contact_id }));
      const reacted = await messageOnWhatsapp(caller, contact, 'message_id', target.id);
      return queue(caller, contact, {
        type: 'reaction',
        content: { message_id: reacted.wamid, emoji: input.emoji },
        reply_to_message_id: reacted.id,
      });
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
