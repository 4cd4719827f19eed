import type { ContactRow, ContactService } from '../contacts/index.js';
import { SESSION_TOKEN_PREFIX, type Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { templateRepository } from '../templates/index.js';
import { conversationSpans } from './conversation-spans.js';
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
import { textContent, type MediaType, type OutboundContent } from '../content/message-content.js';
import { checkMimeType } from './outbound/media-limits.js';
import type { GroupRecipient, Outbound } from './outbound/outbound.js';
import type { Sender } from './outbound/queue.js';
import { contactsContent, interactiveContent, locationContent, mediaContent } from './outbound/rich.js';
import { isRefusal, refusalFor, type Refusal } from './outbound/rules.js';
import { templateContent } from './outbound/template.js';
import { fillVariables, type TemplateVariables } from './outbound/template-variables.js';
import { messageProblems } from './message.problems.js';
import { createHeldSends, type FlowSendDraft } from './approvals/held-sends.js';
import type { HeldSend } from './approvals/held-send.schema.js';
import { flowSendRepository, type PreparedFlowSend } from './flow-sends.js';

/** A group message's content as its send actions take it (their bodies without the contact). */
export type GroupContentInput =
  | ({ kind: 'text' } & Omit<SendTextInput, keyof ContactFields>)
  | ({ kind: 'media' } & Omit<SendMediaInput, keyof ContactFields>)
  | ({ kind: 'template' } & Omit<SendTemplateInput, keyof ContactFields>);

type ContactFields = SendOptions & { contact_id?: unknown; phone?: unknown };

/** Work a send keeps with its message, in the transaction that queues it (the message and contact it went to). */
type Alongside = (trx: Deps['db'], sent: { messageId: string; contactId: string }) => Promise<void>;

/** What every send request may add: a message to quote, the number to send from, and why (for an approver). */
interface SendOptions {
  reply_to_message_id?: string | undefined;
  from_phone_number_id?: string | undefined;
  reasoning?: string | undefined;
}

/** What a send answers: the message it queued, or (an approval-mode token's) the send held for a person. */
export type SendAnswer = Message | HeldSend;

/** Hears of messages once committed (new ones, and status changes): the dashboard's live updates. */
export interface MessageEvents {
  publish(workspaceId: string, events: MessageEvent[]): Promise<void>;
}

/** A message of a contact's conversation, or of a WhatsApp group's (whose page hears `group`). */
export type MessageEvent =
  | { type: 'message' | 'status'; contact_id: string; message_id: string; direction?: 'inbound' }
  /** A send held for approval was made or decided (`message_id` names the held send). */
  | { type: 'approval'; contact_id: string; message_id: string }
  | { type: 'group'; group_id: string; message_id?: string };

const noMessageEvents: MessageEvents = { publish: () => Promise.resolve() };

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
  const held = createHeldSends(deps, events, wakeFor, contacts);

  /** Keeps a WhatsApp Flow's send record with the message it goes out as, in the transaction that queues it. */
  const recordingFlowSend =
    (draft: FlowSendDraft): Alongside =>
    (trx, sent) =>
      flowSendRepository(trx).record({
        ...draft,
        message_id: sent.messageId,
        contact_id: sent.contactId,
        created_at: toStoredTimestamp(deps.clock.now()),
      });

  /** Queues the message (the sending rules allow it, or the refusal is the API's problem), then wakes the outbox. */
  async function queue(
    caller: Caller,
    contact: ContactRow,
    content: OutboundContent,
    channelId: string | null,
    alongside?: Alongside,
  ): Promise<Message> {
    const [message, queued] = await db.transaction().execute(async (trx) => {
      const sender = senderOf(caller);
      const prepared = await outbound.queueNow(trx, contact, content, sender, channelId);
      if (isRefusal(prepared)) throw problemOf(prepared);
      await alongside?.(trx, { messageId: prepared.id, contactId: contact.id });
      const responderId = sender.type === 'user' ? sender.id : null;
      await conversationSpans(trx).responded(caller.workspaceId, contact.id, prepared.created_at, responderId);
      return [prepared, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    await events.publish(caller.workspaceId, [{ type: 'message', contact_id: contact.id, message_id: message.id }]);
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

  /**
   * Queues `content` for the contact `findContact` names: the number to send from is checked first (so a
   * request naming an unknown one creates no contact), then the quoted message, if any. An approval-mode
   * token's send is held for a person instead, once the sending rules allow it now.
   */
  async function send(
    caller: Caller,
    request: SendOptions,
    findContact: () => Promise<ContactRow>,
    contentFor: OutboundContent | ((contact: ContactRow) => OutboundContent),
    flowSend: FlowSendDraft | null = null,
  ): Promise<SendAnswer> {
    const channelId = await outbound.channelNamed(caller.workspaceId, request.from_phone_number_id);
    const contact = await findContact();
    let content = typeof contentFor === 'function' ? contentFor(contact) : contentFor;
    if (request.reply_to_message_id !== undefined) {
      const quoted = await messageOnWhatsapp(caller, contact, 'reply_to_message_id', request.reply_to_message_id);
      const context = { message_id: quoted.wamid };
      content = {
        ...content,
        content: { ...content.content, context },
        reply_to_message_id: quoted.id,
      } as OutboundContent;
    }
    return queueOrHold(caller, { contact, content, channelId, flowSend, reasoning: request.reasoning });
  }

  /** The message queued now, or for an approval-mode token held: the same rules refuse either alike. */
  async function queueOrHold(caller: Caller, send: Parameters<typeof held.hold>[1]): Promise<SendAnswer> {
    const { contact, content, channelId, flowSend } = send;
    if (!caller.approval) {
      return queue(caller, contact, content, channelId, flowSend ? recordingFlowSend(flowSend) : undefined);
    }
    const refusal = refusalFor(contact, content, deps.clock.now());
    if (refusal) throw problemOf(refusal);
    return held.hold({ ...caller, approval: caller.approval }, send);
  }

  /**
   * A send's variables with their per-recipient placeholders filled for the contact (the rule campaigns
   * and sequences use); a placeholder that leaves a variable empty is named, with the way out.
   */
  function variablesFor(contact: ContactRow, variables: TemplateVariables): TemplateVariables {
    const filled = fillVariables(variables, { contact, context: {} });
    for (const [key, value] of Object.entries(filled)) {
      if (value.trim() !== '' || (variables as Record<string, string>)[key]!.trim() === '') continue;
      const id = Array.isArray(variables) ? String(Number(key) + 1) : key;
      throw errors.invalid(
        messageProblems.problem('variables', 'no_value_for_contact', {
          variable: id,
          example: '{{contact.first_name | "there"}}',
        }),
      );
    }
    return filled;
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
    async sendText(caller: Caller, input: SendTextInput): Promise<SendAnswer> {
      const content = textContent(input.message, input.preview_url ?? false);
      return send(caller, input, () => contacts.recipient(caller, input), content);
    },

    /** send-template-message: always allowed for an approved translation; an unknown phone becomes a contact. */
    async sendTemplate(caller: Caller, input: SendTemplateInput): Promise<SendAnswer> {
      const templates = templateRepository(db);
      const template = await templates.findById(caller.workspaceId, input.template_id);
      if (!template) throw errors.notFound('template', 'template_id');
      const translations = await templates.translations([template.id]);
      templateContent(template, translations, input); // checked before an unknown number becomes a contact
      return send(
        caller,
        input,
        () => contacts.recipientOrNew(caller, input),
        (contact) => {
          const variables = input.variables && variablesFor(contact, input.variables);
          return { type: 'template', content: templateContent(template, translations, { ...input, variables }) };
        },
      );
    },

    /** send-media-message: a file uploaded with upload-media, or an https link WhatsApp fetches. */
    async sendMedia(caller: Caller, input: SendMediaInput): Promise<SendAnswer> {
      const type = input.type as MediaType;
      const content = mediaContent(input, type);
      await checkUpload(caller, type, input.media_id);
      return send(caller, input, () => contacts.recipient(caller, input), content);
    },

    /** send-interactive-message: reply buttons, a list or a call-to-action URL button. */
    async sendInteractive(caller: Caller, input: SendInteractiveInput): Promise<SendAnswer> {
      return send(caller, input, () => contacts.recipient(caller, input), interactiveContent(input));
    },

    /**
     * Sends a WhatsApp Flow another domain prepared to a contact inside the customer service window, as
     * send-interactive-message does; the send's record (its flow_token) is kept with the message, in the
     * transaction that queues it (when a held send is approved, in that one).
     */
    async sendFlow(
      caller: Caller,
      input: SendOptions & { contact_id?: string; phone?: string },
      prepared: PreparedFlowSend,
    ): Promise<SendAnswer> {
      return send(caller, input, () => contacts.recipient(caller, input), prepared.content, prepared.send);
    },

    async sendLocation(caller: Caller, input: SendLocationInput): Promise<SendAnswer> {
      return send(caller, input, () => contacts.recipient(caller, input), locationContent(input));
    },

    async sendContacts(caller: Caller, input: SendContactsInput): Promise<SendAnswer> {
      return send(caller, input, () => contacts.recipient(caller, input), contactsContent(input));
    },

    /** send-reaction: an emoji on one of the contact's messages ("" removes it); the contact is the message's. */
    async sendReaction(caller: Caller, input: SendReactionInput): Promise<SendAnswer> {
      const channelId = await outbound.channelNamed(caller.workspaceId, input.from_phone_number_id);
      const target = await messageRepository(db).findById(caller.workspaceId, input.message_id);
      if (!target) throw errors.notFound('message', 'message_id');
      const named = input.contact_id || input.phone ? await contacts.recipient(caller, input) : null;
      const contact = named ?? (await contacts.recipient(caller, { contact_id: target.contact_id }));
      const reacted = await messageOnWhatsapp(caller, contact, 'message_id', target.id);
      const reaction = { message_id: reacted.wamid, emoji: input.emoji };
      const content: OutboundContent = { type: 'reaction', content: reaction, reply_to_message_id: reacted.id };
      return queueOrHold(caller, { contact, content, channelId, flowSend: null, reasoning: input.reasoning });
    },

    /**
     * Queues a message to a WhatsApp group through the one outbound path (the group's number, Meta's
     * group recipient), then wakes the outbox; answers the queued row.
     */
    async sendToGroup(caller: Caller, group: GroupRecipient, content: OutboundContent) {
      // A group's message is not held: one thread of approvals per contact is what the inbox shows.
      if (caller.approval) {
        throw errors.insufficientScope(
          "This token's sends wait for approval, and a group message cannot wait: use a token that sends directly",
        );
      }
      const [row, queued] = await db.transaction().execute(async (trx) => {
        const row = await outbound.queueToGroup(trx, group, content, senderOf(caller));
        return [row, queuedIn(trx)] as const;
      });
      wakeFor(queued);
      await events.publish(caller.workspaceId, [{ type: 'group', group_id: group.id, message_id: row.id }]);
      return row;
    },

    /**
     * What a message to a group carries, checked as a send to a contact is: text, a file, or an approved
     * template. A template's variables are taken as given: a group has no contact whose fields fill placeholders.
     */
    async groupContent(caller: Caller, input: GroupContentInput): Promise<OutboundContent> {
      if (input.kind === 'text') return textContent(input.message, input.preview_url ?? false);
      if (input.kind === 'media') {
        const type = input.type as MediaType;
        const content = mediaContent(input, type);
        await checkUpload(caller, type, input.media_id);
        return content;
      }
      const templates = templateRepository(db);
      const template = await templates.findById(caller.workspaceId, input.template_id);
      if (!template) throw errors.notFound('template', 'template_id');
      const translations = await templates.translations([template.id]);
      return { type: 'template', content: templateContent(template, translations, input) };
    },

    /** A held send approved by a member (with their own text for a text, if given): the message it queued. */
    approveHeld: (by: { workspaceId: string; userId: string }, id: string, editedText: string | undefined) =>
      held.approve(by, id, editedText, queue),

    /** Held sends: rejected, read, listed per conversation, expired by their job. */
    heldSends: {
      reject: (by: { workspaceId: string; userId: string }, id: string, note: string | undefined) =>
        held.reject(by, id, note),
      get: (caller: Caller, id: string) => held.get(caller, id),
      awaiting: (workspaceId: string, contactId: string) => held.awaiting(workspaceId, contactId),
      expiryHandler: held.expiryHandler,
    },

    async get(caller: Caller, messageId: string): Promise<Message> {
      const row = await messageRepository(db).findById(caller.workspaceId, messageId);
      if (!row) throw errors.notFound('message');
      return presentMessage(row);
    },
  };
}

/** Who sent an action's message: the dashboard member of a session, else the API token. */
function senderOf(caller: Caller): Sender {
  if (caller.userId && caller.tokenId?.startsWith(SESSION_TOKEN_PREFIX)) return { type: 'user', id: caller.userId };
  return { type: 'api', id: caller.tokenId ?? null };
}

/** A refused send as the API answers it. */
function problemOf(refusal: Refusal) {
  return refusal.refused === 'opted_out' ? errors.optedOut() : errors.windowClosed(refusal.windowClosedAt);
}

export type MessageService = ReturnType<typeof createMessageService>;
