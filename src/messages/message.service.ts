import { sql } from 'kysely';
import type { ChannelService } from '../channels/channel.service.js';
import type { Dialect } from '../db/connection.js';
import { jsonRows } from '../db/sql.js';
import { parsePhone } from '../contacts/contact.input.js';
import type { ContactRow } from '../contacts/contact.repository.js';
import type { ContactService } from '../contacts/contact.service.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { emitStatusChanges, type StatusChange } from '../outgoing/webhook.events.js';
import { noteQueued, queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from '../templates/template.repository.js';
import { presentMessage } from './message.presenter.js';
import type { MessageSender } from './message.record.js';
import { messageRepository } from './message.repository.js';
import { TEXT_MAX_LENGTH, type Message, type SendTemplateInput, type SendTextInput } from './message.schema.js';
import { templateContent } from './template-message.js';

/** The customer service window: free-form text is allowed for 24 h after the contact's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Status order: a webhook that arrives late never moves a message back (read stays read). */
const STATUS_RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

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

export interface StatusUpdate {
  wamid: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  errors: { code: number; title: string; details?: string | undefined }[];
}

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
  const { db, dialect, clock, newId } = deps;
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
      const senders = await contacts.sendersOf(
        caller,
        inbounds.map((inbound) => ({ phone: inbound.from, name: inbound.profileName })),
      );
      const accepted = inbounds.map((inbound) => {
        const sender = senders.get(inbound.from);
        return sender ? { inbound, sender, id: newId() } : null;
      });
      const storable = accepted.filter((entry) => entry !== null);
      const [inserted, queued] = await db.transaction().execute(async (trx) => {
        const ids = await storeInbound(trx, dialect, caller, storable, now());
        await inboundListener().received(
          trx,
          caller.workspaceId,
          storable.filter((entry) => ids.has(entry.id)).map(received),
        );
        return [ids, queuedIn(trx)] as const;
      });
      wakeFor(queued);
      events.publish(
        caller.workspaceId,
        storable
          .filter((entry) => inserted.has(entry.id))
          .map((entry) => ({ type: 'message', contact_id: entry.sender.id, message_id: entry.id })),
      );
      return accepted.map((entry) => (!entry ? 'rejected' : inserted.has(entry.id) ? 'stored' : 'duplicate'));
    },

    /**
     * Applies delivery statuses from Meta in one transaction, in order; a status older than the
     * message's current one is ignored (read stays read). Says for each whether it changed a message.
     */
    async applyStatuses(caller: Caller, updates: StatusUpdate[]): Promise<boolean[]> {
      const changed: { type: 'status'; contact_id: string; message_id: string }[] = [];
      const statusChanges: StatusChange[] = [];
      const [result, queued] = await db.transaction().execute(async (trx) => {
        const messages = messageRepository(trx);
        const known = new Map(
          (await messages.findOutboundByWamids(caller.workspaceId, [...new Set(updates.map((u) => u.wamid))])).map(
            (message) => [message.provider_message_id, message],
          ),
        );
        const applied: boolean[] = [];
        for (const update of updates) {
          const message = known.get(update.wamid);
          const advances = !!message && (STATUS_RANK[update.status] ?? 0) > (STATUS_RANK[message.status] ?? 0);
          if (message && advances) {
            const error = update.errors[0];
            await messages.setStatus(message.id, update.status, now(), error ? errorOf(error) : null);
            message.status = update.status;
            changed.push({ type: 'status', contact_id: message.contact_id, message_id: message.id });
            statusChanges.push({ workspaceId: caller.workspaceId, id: message.id, status: update.status });
          }
          applied.push(advances);
        }
        await emitStatusChanges(trx, deps, statusChanges);
        return [applied, queuedIn(trx)] as const;
      });
      wakeFor(queued);
      events.publish(caller.workspaceId, changed);
      return result;
    },

    /** The simulator's stand-in for a customer writing in (CLI, API): stored like a webhook's message. */
    async simulateInbound(caller: Caller, input: { from: string; text: string }): Promise<Message> {
      if ((await channels.get(caller)).provider !== 'simulator') {
        throw errors.conflict('This workspace sends through WhatsApp Cloud; inbound messages come from Meta');
      }
      if (!input.text.trim() || input.text.length > TEXT_MAX_LENGTH) {
        throw errors.validation('text', `must be 1 to ${TEXT_MAX_LENGTH} characters`);
      }
      const sender = await contacts.recipientOrNew(caller, { phone: parsePhone(input.from, 'from') });
      const inbound = {
        from: sender.phone,
        profileName: null,
        wamid: `wamid.SIMULATED.${newId()}`,
        timestamp: clock.now(),
        type: 'text',
        content: { body: input.text },
      };
      const id = newId();
      const queued = await db.transaction().execute(async (trx) => {
        await storeInbound(trx, dialect, caller, [{ inbound, sender, id }], now());
        await inboundListener().received(trx, caller.workspaceId, [received({ inbound, sender, id })]);
        return queuedIn(trx);
      });
      wakeFor(queued);
      events.publish(caller.workspaceId, [{ type: 'message', contact_id: sender.id, message_id: id }]);
      return this.get(caller, id);
    },

    async get(caller: Caller, messageId: string): Promise<Message> {
      const row = await messageRepository(db).findById(caller.workspaceId, messageId);
      if (!row) throw errors.notFound('message');
      return presentMessage(row);
    },
  };
}

function errorOf(error: StatusUpdate['errors'][number]) {
  return { code: error.code, title: error.title, details: error.details ?? null };
}

/** An inbound message as the automation engines see it, in the transaction that stored it. */
export interface ReceivedMessage {
  id: string;
  contactId: string;
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

function received(entry: { inbound: InboundMessage; sender: MessageSender; id: string }): ReceivedMessage {
  return { id: entry.id, contactId: entry.sender.id, type: entry.inbound.type, content: entry.inbound.content };
}

/** What became of an inbound message: stored, already stored (a retried delivery), or refused. */
export type ReceiveOutcome = 'stored' | 'duplicate' | 'rejected';

/**
 * Inserts inbound messages whose wamid is not stored yet and opens each sender's window at their
 * newest inserted message; returns the ids it inserted.
 */
async function storeInbound(
  trx: Deps['db'],
  dialect: Dialect,
  caller: Caller,
  accepted: { inbound: InboundMessage; sender: MessageSender; id: string }[],
  now: string,
): Promise<Set<string>> {
  const rows = accepted.map(({ inbound, sender, id }) => ({
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
  }));
  const inserted = await messageRepository(trx).insertInbound(rows);
  const newestBySender = new Map<string, string>();
  for (const { message } of rows) {
    if (!inserted.has(message.id)) continue;
    const newest = newestBySender.get(message.contact_id);
    if (newest === undefined || newest < message.created_at) newestBySender.set(message.contact_id, message.created_at);
  }
  await openWindows(trx, dialect, caller.workspaceId, newestBySender);
  return inserted;
}

/**
 * Moves each sender's last_inbound_at and last_message_at forward to their newest message, in one
 * statement (never back: webhooks arrive out of order).
 */
async function openWindows(db: Deps['db'], dialect: Dialect, workspaceId: string, newest: Map<string, string>) {
  if (newest.size === 0) return;
  // The workspace travels in the rows, not as a constant, so SQLite's planner drives the join from them.
  const senders = [...newest].map(([id, at]) => ({ id, workspace_id: workspaceId, at }));
  const forward = (column: 'last_inbound_at' | 'last_message_at') =>
    sql`CASE WHEN ${sql.ref(`c.${column}`)} IS NULL OR ${sql.ref(`c.${column}`)} < v.at THEN v.at ELSE ${sql.ref(`c.${column}`)} END`;
  await sql`UPDATE contacts AS c
    SET last_inbound_at = ${forward('last_inbound_at')}, last_message_at = ${forward('last_message_at')}
    FROM ${jsonRows(dialect, senders, { id: 'uuid', workspace_id: 'uuid', at: 'timestamptz' })}
    WHERE c.id = v.id AND c.workspace_id = v.workspace_id
      AND (c.last_inbound_at IS NULL OR c.last_inbound_at < v.at OR c.last_message_at IS NULL OR c.last_message_at < v.at)`.execute(
    db,
  );
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
