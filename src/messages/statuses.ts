import { emitStatusChanges, type StatusChange } from '../outgoing/webhook.events.js';
import type { Caller, Deps } from '../shared/context.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { MessageEvents } from './message.service.js';
import { messageRepository } from './message.repository.js';

/** Status order: a webhook that arrives late never moves a message back (read stays read). */
const STATUS_RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

export interface StatusUpdate {
  wamid: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  errors: { code: number; title: string; details?: string | undefined }[];
}

/** Delivery statuses (Meta's status webhooks, the simulator's receipts) applied to outbound messages. */
export function createStatusService(
  deps: Deps,
  /** Wakes the workers a committed transaction queued work for (webhook deliveries of the changes). */
  wakeFor: (work: QueuedWork) => void,
  events: MessageEvents,
) {
  const { db, clock } = deps;
  const now = () => toStoredTimestamp(clock.now());

  return {
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
  };
}

function errorOf(error: StatusUpdate['errors'][number]) {
  return { code: error.code, title: error.title, details: error.details ?? null };
}

export type StatusService = ReturnType<typeof createStatusService>;
