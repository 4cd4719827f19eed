import type { ChannelService } from '../channels/channel.service.js';
import { parseName, parsePhone } from '../contacts/contact.input.js';
import { contactRepository, newContactRow, type ContactRow } from '../contacts/contact.repository.js';
import type { ContactService } from '../contacts/contact.service.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors, validOrNull } from '../shared/errors.js';
import { noteQueued, queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from '../templates/template.repository.js';
import { presentMessage } from './message.presenter.js';
import { messageRepository } from './message.repository.js';
import { TEXT_MAX_LENGTH, type Message, type SendTemplateInput, type SendTextInput } from './message.schema.js';
import { templateContent } from './template-message.js';

/** The customer service window: free-form text is allowed for 24 h after the contact's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface InboundMessage {
  from: string;
  profileName: string | null;
  wamid: string;
  timestamp: Date;
  type: string;
  content: Record<string, unknown>;
}

/** How services queue a message to send right after their commit (the outbox's queueNow). */
export interface OutboxQueue {
  queueNow(trx: Deps['db'], message: OutboundMessage, phone: string): Promise<void>;
}

/** Hears of messages once committed (new ones, and status changes): the dashboard's live updates. */
export interface MessageEvents {
  publish(workspaceId: string, events: { type: 'message' | 'status'; contact_id: string; message_id: string }[]): void;
}

const noMessageEvents: MessageEvents = { publish: () => undefined };

/** Sending (through the outbox) and receiving messages. */
export function createMessageService(
  deps: Deps,
  contacts: ContactService,
  channels: ChannelService,
  outbox: OutboxQueue,
  /** Wakes the workers a committed transaction queued work for. */
  wakeFor: (work: QueuedWork) => void,
  inboundListener: () => InboundListener,
  events: MessageEvents = noMessageEvents,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** Commits the message to the outbox (and the contact's last_message_at), then wakes the outbox. */
  async function queue(caller: Caller, contact: ContactRow, type: string, content: object): Promise<Message> {
    const message = outboundMessage(newId(), caller.workspaceId, contact.id, type, content, now());
    const queued = await db.transaction().execute(async (trx) => {
      await outbox.queueNow(trx, message, contact.phone);
      return queuedIn(trx);
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
   * Stores inbound messages (senders' phones already in E.164) in one transaction, with their senders'
   * windows and what the automation engines do about them; returns the ids it stored (not duplicates).
   */
  async function receive(caller: Caller, inbounds: { inbound: InboundMessage; id: string }[]): Promise<Set<string>> {
    if (inbounds.length === 0) return new Set();
    const [stored, queued] = await db.transaction().execute(async (trx) => {
      const senders = await openSendersWindows(trx, deps, caller.workspaceId, inbounds);
      const entries = inbounds.map((entry) => ({ ...entry, sender: senders.get(entry.inbound.from)! }));
      const ids = await messageRepository(trx).insertInbound(entries.map((entry) => inboundRow(caller, entry, now())));
      const fresh = entries.filter((entry) => ids.has(entry.id));
      await inboundListener().received(trx, caller.workspaceId, fresh.map(received));
      return [fresh, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    events.publish(
      caller.workspaceId,
      stored.map((entry) => ({ type: 'message', contact_id: entry.sender.id, message_id: entry.id })),
    );
    return new Set(stored.map((entry) => entry.id));
  }

  return {
    /** send-text-message: only inside the 24-hour window that the contact's last inbound message opened. */
    async sendText(caller: Caller, input: SendTextInput): Promise<Message> {
      const contact = await contacts.recipient(caller, input);
      if (contact.opted_out_at) throw errors.optedOut();
      const lastInbound = contact.last_inbound_at ? Date.parse(contact.last_inbound_at) : null;
      if (lastInbound === null || clock.now().getTime() >= lastInbound + WINDOW_MS) {
        throw errors.windowClosed(lastInbound === null ? null : new Date(lastInbound + WINDOW_MS).toISOString());
      }
      return queue(caller, contact, 'text', { body: input.message, preview_url: input.preview_url ?? false });
    },

    /** send-template-message: always allowed for an approved translation; an unknown phone becomes a contact. */
    async sendTemplate(caller: Caller, input: SendTemplateInput): Promise<Message> {
      const templates = templateRepository(db);
      const template = await templates.findById(caller.workspaceId, input.template_id.toLowerCase());
      if (!template) throw errors.notFound('template', 'template_id');
      const content = templateContent(template, await templates.translations([template.id]), input);
      const contact = await contacts.recipientOrNew(caller, input);
      if (contact.opted_out_at) throw errors.optedOut();
      return queue(caller, contact, 'template', content);
    },

    /**
     * Stores inbound messages from webhooks in one transaction: each once (Meta retries deliveries;
     * the wamid decides), unknown senders created with their profile name, each sender's 24-hour
     * window opened. A sender number that is not a phone number is rejected. One outcome per message.
     */
    async receiveAll(caller: Caller, inbounds: InboundMessage[]): Promise<ReceiveOutcome[]> {
      const accepted = inbounds.map((inbound) => {
        const phone = validOrNull(() => parsePhone(inbound.from)); // not a phone number: refused
        return phone === null ? null : { inbound: { ...inbound, from: phone }, id: newId() };
      });
      const inserted = await receive(
        caller,
        accepted.filter((entry) => entry !== null),
      );
      return accepted.map((entry) => (!entry ? 'rejected' : inserted.has(entry.id) ? 'stored' : 'duplicate'));
    },

    /** The simulator's stand-in for a customer writing in (CLI, API): stored like a webhook's message. */
    async simulateInbound(caller: Caller, input: { from: string; text: string }): Promise<Message> {
      if ((await channels.get(caller)).provider !== 'simulator') {
        throw errors.conflict('This workspace sends through WhatsApp Cloud; inbound messages come from Meta');
      }
      if (!input.text.trim() || input.text.length > TEXT_MAX_LENGTH) {
        throw errors.validation('text', `must be 1 to ${TEXT_MAX_LENGTH} characters`);
      }
      const inbound = {
        from: parsePhone(input.from, 'from'),
        profileName: null,
        wamid: `wamid.SIMULATED.${newId()}`,
        timestamp: clock.now(),
        type: 'text',
        content: { body: input.text },
      };
      const id = newId();
      await receive(caller, [{ inbound, id }]);
      return this.get(caller, id);
    },

    async get(caller: Caller, messageId: string): Promise<Message> {
      const row = await messageRepository(db).findById(caller.workspaceId, messageId);
      if (!row) throw errors.notFound('message');
      return presentMessage(row);
    },
  };
}

/** An inbound message as the automation engines see it, in the transaction that stored it. */
export interface ReceivedMessage {
  id: string;
  contactId: string;
  /** The sender's row as the storing transaction left it (window open). */
  contact: ContactRow;
  type: string;
  content: Record<string, unknown>;
}

/**
 * Hears of stored inbound messages (a reply ends or advances a sequence, answers a flow), in their
 * transaction; what it queues there is noted (queued-work.ts) and woken after the commit.
 */
export interface InboundListener {
  received(trx: Deps['db'], workspaceId: string, messages: ReceivedMessage[]): Promise<void>;
}

function received(entry: { inbound: InboundMessage; sender: ContactRow; id: string }): ReceivedMessage {
  return {
    id: entry.id,
    contactId: entry.sender.id,
    contact: entry.sender,
    type: entry.inbound.type,
    content: entry.inbound.content,
  };
}

/** What became of an inbound message: stored, already stored (a retried delivery), or refused. */
export type ReceiveOutcome = 'stored' | 'duplicate' | 'rejected';

/**
 * Opens each sender's window at their newest message and returns the senders' rows by phone. A
 * phone that is no contact's yet becomes one (named by its WhatsApp profile). The window moves for
 * duplicates too: their original already moved it at least as far, so that changes nothing.
 */
async function openSendersWindows(
  trx: Deps['db'],
  { dialect, newId, clock }: Pick<Deps, 'dialect' | 'newId' | 'clock'>,
  workspaceId: string,
  inbounds: { inbound: InboundMessage }[],
): Promise<Map<string, ContactRow>> {
  const newest = new Map<string, string>();
  for (const { inbound } of inbounds) {
    const sent = toStoredTimestamp(inbound.timestamp);
    const known = newest.get(inbound.from);
    if (known === undefined || known < sent) newest.set(inbound.from, sent);
  }
  const contacts = contactRepository(trx);
  const senders = new Map((await contacts.openWindows(dialect, workspaceId, newest)).map((row) => [row.phone, row]));
  const unknown = new Map([...newest].filter(([phone]) => !senders.has(phone)));
  if (unknown.size > 0) {
    const names = new Map(inbounds.map(({ inbound }) => [inbound.from, inbound.profileName]));
    await contacts.insertAllIfAbsent(
      [...unknown.keys()].map((phone) =>
        newContactRow({
          id: newId(),
          workspaceId,
          phone,
          name: parseName(names.get(phone) ?? ''),
          email: null,
          customAttributes: '{}',
          at: toStoredTimestamp(clock.now()),
        }),
      ),
    );
    for (const row of await contacts.openWindows(dialect, workspaceId, unknown)) senders.set(row.phone, row);
  }
  return senders;
}

function inboundRow(caller: Caller, entry: { inbound: InboundMessage; sender: ContactRow; id: string }, now: string) {
  const { inbound, sender, id } = entry;
  return {
    sender,
    message: {
      id,
      workspace_id: caller.workspaceId,
      contact_id: sender.id,
      type: inbound.type,
      content: JSON.stringify(inbound.content),
      status: 'received',
      provider_message_id: inbound.wamid,
      error: null,
      next_attempt_at: null,
      created_at: toStoredTimestamp(inbound.timestamp),
      updated_at: now,
    },
  };
}

/** A new outbound message row, due at once. */
export function outboundMessage(
  id: string,
  workspaceId: string,
  contactId: string,
  type: string,
  content: object,
  at: string,
  campaignId: string | null = null,
) {
  return {
    id,
    workspace_id: workspaceId,
    contact_id: contactId,
    type,
    content: JSON.stringify(content),
    status: 'queued',
    provider_message_id: null,
    error: null,
    next_attempt_at: at,
    campaign_id: campaignId,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Puts a message in the outbox inside the caller's transaction (a sequence step or flow node commits
 * with the message it sends) and moves the contact's last_message_at. The caller wakes the outbox.
 */
export type OutboundMessage = ReturnType<typeof outboundMessage>;

/** Rows per multi-row insert (13 bound values each, well under both engines' parameter limits). */
const INSERT_ROWS = 500;

/**
 * Queues messages for the outbox in the caller's transaction, in multi-row statements, and moves
 * their contacts' last_message_at (one statement per workspace and time, usually one in all).
 */
export async function queueOutbound(
  trx: Deps['db'],
  messages: (OutboundMessage & { attempts?: number })[],
): Promise<void> {
  if (messages.length > 0) noteQueued(trx, 'messages');
  for (let i = 0; i < messages.length; i += INSERT_ROWS) {
    await messageRepository(trx).insertOutbound(messages.slice(i, i + INSERT_ROWS));
  }
  const byMoment = new Map<string, OutboundMessage[]>();
  for (const message of messages) {
    const key = `${message.workspace_id} ${message.created_at}`;
    const group = byMoment.get(key);
    if (group) group.push(message);
    else byMoment.set(key, [message]);
  }
  for (const group of byMoment.values()) {
    const { workspace_id, created_at } = group[0]!;
    for (let i = 0; i < group.length; i += INSERT_ROWS) {
      await trx
        .updateTable('contacts')
        .set({ last_message_at: created_at })
        .where('workspace_id', '=', workspace_id)
        .where(
          'id',
          'in',
          group.slice(i, i + INSERT_ROWS).map((message) => message.contact_id),
        )
        .execute();
    }
  }
}

export type MessageService = ReturnType<typeof createMessageService>;
