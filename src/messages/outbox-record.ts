import type { FastifyBaseLogger } from 'fastify';
import { emitStatusChanges, type StatusChange } from '../outgoing/webhook.events.js';
import type { Deps } from '../shared/context.js';
import { queuedIn, type LeasedMessage, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { messageRepository, type OutboxChange } from './message.repository.js';
import type { MessageEvents } from './message.service.js';

/** Statuses that overtook their sends: kept by the status path (statuses.ts), applied once the sends are recorded. */
export interface EarlyStatuses {
  sendsRecorded(wamids: string[]): Promise<void>;
}

/** Outcomes written in one statement at most. */
const BATCH = 200;

/** What delivering one message changes on its row, and what to do once that is stored. */
export interface Outcome {
  change: OutboxChange;
  /** A settled message's new status, announced to webhook subscribers with the change. */
  statusChange?: StatusChange;
  /** The channel said the contact's customer service window is closed. */
  closesWindowOf?: { workspaceId: string; contactId: string };
}

/** A delivered message and what to record for it. */
export interface Recorded {
  message: LeasedMessage;
  outcome: Outcome;
}

/**
 * Where the outbox's send outcomes are written: each message's row, the webhook deliveries of its
 * status change and the contact's closed window in one transaction, then the dashboard told and the
 * statuses that overtook the sends applied. Outcomes are recorded together: whatever finished while
 * the last batch was written goes in the next.
 */
export function createOutcomeRecorder(
  deps: Deps,
  earlyStatuses: () => EarlyStatuses,
  events: MessageEvents,
  /** Wakes the workers a committed transaction queued work for (the webhook deliveries of status changes). */
  wakeFor: (work: QueuedWork) => void,
  log: () => FastifyBaseLogger | undefined,
) {
  const { db, dialect, clock } = deps;

  /**
   * Records a chunk's outcomes in one statement (one commit, not one per message), with the webhook
   * deliveries of their status changes (one more statement, which finds no subscriber for most workspaces).
   */
  async function record(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const queued = await db.transaction().execute(async (trx) => {
      await messageRepository(trx).applyOutboxChanges(
        dialect,
        outcomes.map((outcome) => outcome.change),
      );
      await emitStatusChanges(
        trx,
        deps,
        outcomes.flatMap((outcome) => outcome.statusChange ?? []),
      );
      await closeWindows(
        trx,
        outcomes.flatMap((outcome) => outcome.closesWindowOf ?? []),
      );
      return queuedIn(trx);
    });
    wakeFor(queued);
  }

  /** Marks the contacts' windows closed as the channel said (before their 24 hours seemed up). */
  async function closeWindows(trx: Deps['db'], contacts: { workspaceId: string; contactId: string }[]) {
    const at = toStoredTimestamp(clock.now());
    for (const { workspaceId, contactId } of contacts) {
      await trx
        .updateTable('contacts')
        .set({ window_closed_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', contactId)
        .execute();
    }
  }

  /** Statuses that overtook these recorded sends are applied now (one look per round, not per chunk). */
  async function applyEarlyStatuses(outcomes: Outcome[]): Promise<void> {
    const wamids = outcomes.flatMap((outcome) => outcome.change.provider_message_id ?? []);
    if (wamids.length === 0) return;
    await earlyStatuses()
      .sendsRecorded(wamids)
      .catch((error: unknown) => log()?.error({ err: error }, 'applying early statuses failed'));
  }

  return groupCommit(
    async (entries) => {
      await record(entries.map((entry) => entry.outcome));
      await announce(entries.map((entry) => entry.message));
      await applyEarlyStatuses(entries.map((entry) => entry.outcome));
    },
    // Their lease brings the messages back; an outcome Meta gave is then asked again (as after a crash).
    (error) => log()?.error({ err: error }, 'recording send outcomes failed'),
  );

  /** Tells listeners (the dashboard) which messages' rows the outbox just changed, per workspace. */
  async function announce(messages: LeasedMessage[]): Promise<void> {
    const byWorkspace = new Map<string, LeasedMessage[]>();
    for (const message of messages) {
      const group = byWorkspace.get(message.workspace_id);
      if (group) group.push(message);
      else byWorkspace.set(message.workspace_id, [message]);
    }
    for (const [workspaceId, changed] of byWorkspace) {
      await events.publish(
        workspaceId,
        changed.map((message) => ({ type: 'status', contact_id: message.contact_id, message_id: message.id })),
      );
    }
  }
}

/**
 * Group commit: entries added while a batch is being written go into the next one, so a busy
 * outbox writes few statements and a quiet one writes each outcome at once. `add` resolves once its
 * entry was written (or the write failed and was logged by `write`'s caller: the lease covers it).
 */
function groupCommit(write: (entries: Recorded[]) => Promise<void>, onError: (error: unknown) => void) {
  let pending: { entry: Recorded; done: () => void }[] = [];
  let writing: Promise<void> | null = null;

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.slice(0, BATCH);
      pending = pending.slice(BATCH);
      await write(batch.map((item) => item.entry)).catch(onError);
      for (const item of batch) item.done();
    }
  }

  return {
    add(entry: Recorded): Promise<void> {
      return new Promise((done) => {
        pending.push({ entry, done });
        // One tick's outcomes (sends that finished together) start the batch together.
        writing ??= new Promise<void>((start) => setImmediate(start)).then(drain).finally(() => (writing = null));
      });
    },
    get busy(): boolean {
      return writing !== null;
    },
    async idle(): Promise<void> {
      while (writing) await writing;
    },
  };
}
