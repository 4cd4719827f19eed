import { isDeepStrictEqual } from 'node:util';
import { emitStatusChanges, type StatusChange } from './status-events.js';
import type { Caller } from '../shared/context.js';
import type { Dialect } from '../db/connection.js';
import type { Deps } from '../db/deps.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { DeliveryStatus, StatusDelivery } from '../channels/index.js';
import { earlyStatusRepository } from './early-status.repository.js';
import type { MessageEvent, MessageEvents } from './message.service.js';
import { messageRepository, type StatusChangeRow } from './message.repository.js';

/** Status order: a webhook that arrives late never moves a message back (read stays read). */
const STATUS_RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

/** How long a status for an unknown wamid waits for its send to be recorded (it may be another app's). */
const EARLY_STATUS_KEPT_MS = 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StatusUpdate {
  wamid: string;
  /** Null: a status Parley does not track (Meta's `played`), whose pricing and conversation are still kept. */
  status: DeliveryStatus | null;
  errors: { code: number; title: string; details?: string | undefined }[];
  /** Pricing, conversation and callback data (Meta's webhooks; the simulator's receipts have none). */
  delivery?: StatusDelivery;
}

type Target = Awaited<ReturnType<ReturnType<typeof messageRepository>['findOutboundBy']>>[number];

/** Delivery statuses (Meta's status webhooks, the simulator's receipts) applied to outbound messages. */
export function createStatusService(
  deps: Deps,
  /** Wakes the workers a committed transaction queued work for (webhook deliveries of the changes). */
  wakeFor: (work: QueuedWork) => void,
  events: MessageEvents,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** Applies the updates in one transaction; those naming no message are kept (early) when `keepEarly`. */
  async function apply(caller: Caller, updates: StatusUpdate[], keepEarly: boolean) {
    const changed: MessageEvent[] = [];
    const statusChanges: StatusChange[] = [];
    const [result, queued] = await db.transaction().execute(async (trx) => {
      const targets = await findTargets(trx, deps.dialect, caller.workspaceId, updates);
      const applied: boolean[] = [];
      const early: StatusUpdate[] = [];
      // One write per message for the whole delivery: its changes in order, the later over the earlier.
      const writes = new Map<string, StatusChangeRow>();
      for (const update of updates) {
        const message = targets(update);
        if (!message) early.push(update);
        const change = message && changeFor(message, update);
        if (message && change) {
          writes.set(message.id, { ...writes.get(message.id), ...change });
          Object.assign(message, change);
          if (change.status) {
            changed.push(
              message.contact_id
                ? { type: 'status', contact_id: message.contact_id, message_id: message.id }
                : { type: 'group', group_id: message.group_id!, message_id: message.id },
            );
            statusChanges.push({
              workspaceId: caller.workspaceId,
              id: message.id,
              status: change.status,
              inGroup: message.contact_id === null,
            });
          }
        }
        applied.push(!!change?.status);
      }
      await messageRepository(trx).applyStatusChanges(deps.dialect, writes, now());
      if (keepEarly) await keep(trx, caller.workspaceId, early);
      await emitStatusChanges(trx, deps, statusChanges);
      return [{ applied, early }, queuedIn(trx)] as const;
    });
    wakeFor(queued);
    await events.publish(caller.workspaceId, changed);
    return result;
  }

  async function keep(trx: Deps['db'], workspaceId: string, early: StatusUpdate[]): Promise<void> {
    if (early.length === 0) return;
    const statuses = earlyStatusRepository(trx);
    await statuses.prune(toStoredTimestamp(new Date(clock.now().getTime() - EARLY_STATUS_KEPT_MS)));
    await statuses.keep(
      early.map((update) => ({
        id: newId(),
        workspace_id: workspaceId,
        wamid: update.wamid,
        status_update: JSON.stringify(update),
        received_at: now(),
      })),
    );
  }

  /** Applies the kept statuses whose sends are now recorded (each taken once, in arrival order). */
  async function applyRecorded(wamids: string[]): Promise<void> {
    const taken = await earlyStatusRepository(db).takeRecorded(wamids);
    const byWorkspace = new Map<string, StatusUpdate[]>();
    for (const row of taken) {
      const updates = byWorkspace.get(row.workspace_id) ?? [];
      updates.push(JSON.parse(row.status_update) as StatusUpdate);
      byWorkspace.set(row.workspace_id, updates);
    }
    for (const [workspaceId, updates] of byWorkspace) await apply({ workspaceId }, updates, false);
  }

  return {
    /**
     * Applies delivery statuses from Meta in one transaction, in order; a status older than the
     * message's current one is ignored (read stays read), while its pricing and conversation are kept.
     * A status names its message by wamid or, when the outbox never recorded the send, by Parley's id
     * in biz_opaque_callback_data (reconciled: the wamid is stored and the send never retried). A
     * status naming neither is kept until the send is recorded. Says for each whether it changed a status.
     */
    async applyStatuses(caller: Caller, updates: StatusUpdate[]): Promise<boolean[]> {
      const { applied, early } = await apply(caller, updates, true);
      // Checked after the commit, as the outbox checks after its own: one of the two sees the other.
      if (early.length > 0) await applyRecorded(early.map((update) => update.wamid));
      return applied;
    },

    /** The outbox recorded these sends: statuses that arrived before them are applied now. */
    sendsRecorded: (wamids: string[]): Promise<void> => applyRecorded(wamids),
  };
}

/** Finds each update's message: by wamid, else by the Parley id Meta echoes in biz_opaque_callback_data. */
async function findTargets(trx: Deps['db'], dialect: Dialect, workspaceId: string, updates: StatusUpdate[]) {
  const messages = messageRepository(trx);
  const wamids = [...new Set(updates.map((update) => update.wamid))];
  const byWamid = new Map(
    (await messages.findOutboundBy(dialect, workspaceId, 'provider_message_id', wamids)).map((m) => [
      m.provider_message_id,
      m,
    ]),
  );
  const ids = [...new Set(updates.filter((update) => !byWamid.has(update.wamid)).map(callbackId))].filter(
    (id): id is string => id !== null,
  );
  const byId = new Map((await messages.findOutboundBy(dialect, workspaceId, 'id', ids)).map((m) => [m.id, m]));
  return (update: StatusUpdate): Target | undefined => {
    const id = callbackId(update);
    return byWamid.get(update.wamid) ?? (id === null ? undefined : byId.get(id));
  };
}

/** Parley writes its message id (a UUID) in biz_opaque_callback_data; anything else is someone else's. */
function callbackId(update: StatusUpdate): string | null {
  const data = update.delivery?.biz_opaque_callback_data;
  return data && UUID.test(data) ? data.toLowerCase() : null;
}

/** What an update changes on its message; null when nothing (an older status with nothing new). */
function changeFor(message: Target, update: StatusUpdate): StatusChangeRow | null {
  const change: StatusChangeRow = {};
  if (update.status !== null && STATUS_RANK[update.status]! > (STATUS_RANK[message.status] ?? 0)) {
    change.status = update.status;
    const error = update.errors[0];
    if (error) change.error = { code: error.code, title: error.title, details: error.details ?? null };
  }
  if (message.provider_message_id === null) {
    change.provider_message_id = update.wamid;
    change.next_attempt_at = null;
  }
  const delivery = mergedDelivery(message.delivery, update.delivery);
  if (delivery !== message.delivery) change.delivery = delivery ?? undefined;
  return Object.keys(change).length > 0 ? change : null;
}

/** The stored delivery facts with the update's non-empty ones laid over them (a later status may omit some). */
function mergedDelivery(stored: string | null, update: StatusDelivery | undefined): string | null {
  if (!update) return stored;
  const before = stored ? (JSON.parse(stored) as StatusDelivery) : null;
  const merged: StatusDelivery = {
    pricing: update.pricing ?? before?.pricing ?? null,
    conversation: update.conversation
      ? {
          ...update.conversation,
          expires_at: update.conversation.expires_at ?? before?.conversation?.expires_at ?? null,
        }
      : (before?.conversation ?? null),
    biz_opaque_callback_data: update.biz_opaque_callback_data ?? before?.biz_opaque_callback_data ?? null,
  };
  return isDeepStrictEqual(before, merged) ? stored : JSON.stringify(merged);
}

export type StatusService = ReturnType<typeof createStatusService>;
