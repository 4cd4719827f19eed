import { type ContactRow } from '../contacts/contact.repository.js';
import type { ContactService } from '../contacts/contact.service.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { emitStatusChanges, type StatusChange } from '../outgoing/webhook.events.js';
import { noteQueued, queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { templateRepository } from '../templates/template.repository.js';
import { presentMessage } from './message.presenter.js';
import { messageRepository } from './message.repository.js';
import { type Message, type SendTemplateInput, type SendTextInput } from './message.schema.js';
import { templateContent } from './template-message.js';

/** The customer service window: free-form text is allowed for 24 h after the contact's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Status order: a webhook that arrives late never moves a message back (read stays read). */
const STATUS_RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

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

/** Sending messages (through the outbox) and applying their delivery statuses. */
export function createMessageService(
  deps: Deps,
  contacts: ContactService,
  outbox: OutboxQueue,
  /** Wakes the workers a committed transaction queued work for. */
  wakeFor: (work: QueuedWork) => void,
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
