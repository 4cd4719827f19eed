import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { emitStatusChanges, type StatusChange } from './status-events.js';
import { isStorageFull } from '../db/outage.js';
import { contactRepository } from '../contacts/index.js';
import { backoffMs } from '../shared/backoff.js';
import type { Deps } from '../db/deps.js';
import { groupCommit } from '../shared/group-commit.js';
import { queuedIn, type LeasedMessage, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { messageRepository, type OutboxChange } from './message.repository.js';
import type { MessageEvent, MessageEvents } from './message.service.js';

/** Outcomes the database could not take are written again after this, doubling up to the maximum (stopping waits for it). */
const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 5_000;

/** Statuses that overtook their sends: kept by the status path (statuses.ts), applied once the sends are recorded. */
export interface EarlyStatuses {
  sendsRecorded(wamids: string[]): Promise<void>;
}

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
 * statuses that overtook the sends applied. Outcomes are group-committed (src/shared/group-commit.ts):
 * whatever finished while the last batch was written goes in the next. While the database is away,
 * outcomes are kept and written again once it answers (see recordSurely).
 */
export function createOutcomeRecorder(
  deps: Deps,
  earlyStatuses: () => EarlyStatuses,
  events: MessageEvents,
  /** Wakes the workers a committed transaction queued work for (the webhook deliveries of status changes). */
  wakeFor: (work: QueuedWork) => void,
  log: () => FastifyBaseLogger | undefined,
  /** False once the outbox stops: an outcome the database cannot take is then given up. */
  keepTrying: () => boolean,
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
      await contactRepository(trx).closeWindow(workspaceId, contactId, at);
    }
  }

  /** Statuses that overtook these recorded sends are applied now (one look per round, not per chunk). */
  async function applyEarlyStatuses(outcomes: Outcome[]): Promise<void> {
    const wamids = outcomes.flatMap((outcome) => outcome.change.provider_message_id ?? []);
    if (wamids.length === 0) return;
    await earlyStatuses()
      .sendsRecorded(wamids)
      .catch((error: unknown) => logUnlessOutage(error, 'applying early statuses failed'));
  }

  /** Logs an error, unless it is the database being away (the database's health logs that once per outage). */
  function logUnlessOutage(error: unknown, message: string): void {
    if (!deps.health.failed(error)) log()?.error({ err: error }, message);
  }

  const commit = groupCommit<Recorded, void>(async (entries) => {
    await record(entries.map((entry) => entry.outcome));
    // Told after the commit, best effort: the rows are what counts, and a batch that failed here would
    // be written again. The events are hints to reload: one lost must not hold back the sends' outcomes.
    await announce(entries.map((entry) => entry.message)).catch((error: unknown) =>
      logUnlessOutage(error, 'announcing outbox changes failed'),
    );
    await applyEarlyStatuses(entries.map((entry) => entry.outcome));
    return entries.map(() => undefined);
  });

  /** A full disk is waited out like an outage (the send reached Meta: forgetting it could send it twice); said once. */
  function diskFull(error: unknown, failures: number): boolean {
    if (!isStorageFull(error)) return false;
    if (failures === 1) log()?.error({ err: error }, 'the disk is full: send outcomes are kept until it has room');
    return true;
  }

  /**
   * Resolves once the outcome is recorded. With the database away (or its disk full) the outcome is kept and written again
   * (with backoff) until it takes it: the send reached the channel, and forgotten it would be sent again
   * when its lease ran out. Rejects on any other error, or once the outbox stops while the database is
   * still away (as a crash would: the lease then brings the message back, for its status to settle it).
   */
  return async function recordSurely(entry: Recorded): Promise<void> {
    for (let failures = 1; ; failures++) {
      try {
        return await commit(entry);
      } catch (error) {
        if (!keepTrying() || !(deps.health.failed(error) || diskFull(error, failures))) throw error;
        await sleep(backoffMs(failures, RETRY_BASE_MS, RETRY_MAX_MS));
      }
    }
  };

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
        changed.map(({ contact_id, group_id, id }): MessageEvent =>
          contact_id
            ? { type: 'status', contact_id, message_id: id }
            : { type: 'group', group_id: group_id!, message_id: id },
        ),
      );
    }
  }
}
