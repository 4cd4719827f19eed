import type { Kysely } from 'kysely';
import { cancelJobs, scheduleJobs, type Job, type JobHandler } from '../automation/scheduler.js';
import type { Database } from '../db/schema.js';
import { emitConversationChanges } from '../outgoing/index.js';
import { conversationSpans } from '../messages/index.js';
import { contactRepository } from '../contacts/index.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import type { EventHub } from './event-hub.js';
import { inboxRepository } from './inbox.repository.js';
import { inboxProblems } from './inbox.problems.js';

type Db = Kysely<Database>;

/** Where a conversation stands: open, closed (done) or snoozed (out of the open list for a while). */
export type ConversationStatus = 'open' | 'closed' | 'snoozed';
/** How a status moved: the `change` of a conversation-status-changed event. */
export type StatusChange = 'opened' | 'closed' | 'reopened' | 'snoozed' | 'unsnoozed';

/** Who changes a conversation: a member (dashboard or their token), or nobody (the customer, a snooze's time). */
export interface Actor {
  workspaceId: string;
  userId: string | null;
}

interface StateRow {
  id: string;
  name: string | null;
  phone: string;
  handoff_at: string | null;
  done_at: string | null;
  assignee_id: string | null;
  snoozed_at: string | null;
  snoozed_until: string | null;
}

/** A conversation's status from its state (a hand-off after "done" makes it open again). */
export function statusOf(row: Pick<StateRow, 'done_at' | 'handoff_at' | 'snoozed_at'>): ConversationStatus {
  if (row.snoozed_at) return 'snoozed';
  return row.done_at !== null && row.handoff_at === null ? 'closed' : 'open';
}

/** The longest a snooze may last: a year (a date mistyped by years is refused, not kept forever). */
const MAX_SNOOZE_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * The one place a conversation's status moves: close, reopen, snooze, unsnooze (for one or many
 * conversations, from the dashboard and the API alike), and the customer's message or a snooze's
 * time running out. Each move commits with its webhook event (conversation-status-changed) and its
 * snooze job; open dashboards hear about it after the commit. Moves that change nothing (closing a
 * closed conversation) are skipped, so a retried bulk action tells no one twice.
 */
export function createConversationStatus(
  deps: Deps,
  hub: EventHub,
  wakeFor: (work: QueuedWork) => void,
  /** Hears of each conversation closed, in the closing transaction, with its report span (the survey). */
  closedSpan: (
    trx: Db,
    workspaceId: string,
    contactId: string,
    span: { id: string; agent_id: string | null },
  ) => Promise<void>,
) {
  const { db, dialect, clock } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** Runs a move in one transaction, then wakes its workers and tells open tabs. */
  async function move(workspaceId: string, contactIds: string[], step: (trx: Db) => Promise<string[]>) {
    const result = await db.transaction().execute(async (trx) => {
      const changed = await step(trx);
      return { changed, work: queuedIn(trx) };
    });
    wakeFor(result.work);
    await announce(workspaceId, result.changed);
    return { changed: result.changed.length, matched: contactIds.length };
  }

  const announce = (workspaceId: string, contactIds: string[]) =>
    hub.publish(
      workspaceId,
      contactIds.map((id) => ({ type: 'conversation' as const, contact_id: id })),
    );

  /** The event's data: the conversation as it is after the move, and who moved it. */
  const eventOf = (actor: Actor, row: StateRow, change: StatusChange, after: Partial<StateRow>) => {
    const state = { ...row, ...after };
    return {
      workspaceId: actor.workspaceId,
      id: row.id,
      data: {
        contact_id: row.id,
        contact: { id: row.id, name: row.name, phone: row.phone },
        change,
        status: statusOf(state),
        snoozed_until: state.snoozed_until ? formatTimestamp(state.snoozed_until) : null,
        assignee_id: state.assignee_id,
        changed_by: actor.userId ? { type: 'user', id: actor.userId } : null,
      },
    };
  };

  async function rowsOf(trx: Db, actor: Actor, contactIds: string[]): Promise<StateRow[]> {
    return inboxRepository(trx, dialect).states(actor.workspaceId, contactIds);
  }

  async function cancelSnoozes(trx: Db, rows: StateRow[]): Promise<void> {
    for (const row of rows) if (row.snoozed_until) await cancelJobs(trx, row.id, 'conversation_snooze');
  }

  /**
   * Closes the conversations in the caller's transaction (`close`, or the AI assistant's decision, by
   * nobody); returns those it closed. Their spans count for their assignee, else for who closed them.
   */
  async function closeIn(trx: Db, actor: Actor, contactIds: string[]): Promise<string[]> {
    const at = now();
    const rows = (await rowsOf(trx, actor, contactIds)).filter((row) => statusOf(row) !== 'closed');
    const ids = rows.map((row) => row.id);
    const repository = inboxRepository(trx, dialect);
    await repository.saveStates(actor.workspaceId, ids, { done_at: at, snoozed_at: null, snoozed_until: null }, at);
    await contactRepository(trx).clearHandoffs(actor.workspaceId, ids, at);
    await cancelSnoozes(trx, rows);
    const spans = conversationSpans(trx);
    for (const row of rows) {
      const span = await spans.closed(actor.workspaceId, row.id, row.assignee_id ?? actor.userId, at);
      if (span) await closedSpan(trx, actor.workspaceId, row.id, span);
    }
    const after = { done_at: at, handoff_at: null, snoozed_at: null, snoozed_until: null };
    await emitConversationChanges(
      trx,
      deps,
      rows.map((row) => eventOf(actor, row, 'closed', after)),
    );
    return ids;
  }

  return {
    /** Closes the conversations (settling a flow's hand-off and their report spans); closed ones are left. */
    close: (actor: Actor, contactIds: string[]) =>
      move(actor.workspaceId, contactIds, (trx) => closeIn(trx, actor, contactIds)),

    closeIn,

    /** Opens closed or snoozed conversations again; open ones are left. */
    reopen: (actor: Actor, contactIds: string[]) =>
      move(actor.workspaceId, contactIds, async (trx) => {
        const rows = (await rowsOf(trx, actor, contactIds)).filter((row) => statusOf(row) !== 'open');
        const ids = rows.map((row) => row.id);
        const after = { done_at: null, snoozed_at: null, snoozed_until: null };
        await inboxRepository(trx, dialect).saveStates(actor.workspaceId, ids, after, now());
        await cancelSnoozes(trx, rows);
        const changes = rows.map((row) => eventOf(actor, row, row.snoozed_at ? 'unsnoozed' : 'reopened', after));
        await emitConversationChanges(trx, deps, changes);
        return ids;
      }),

    /** Ends the snoozes of the snoozed ones among these conversations; the others are left. */
    unsnooze: (actor: Actor, contactIds: string[]) =>
      move(actor.workspaceId, contactIds, async (trx) => {
        const rows = (await rowsOf(trx, actor, contactIds)).filter((row) => statusOf(row) === 'snoozed');
        const ids = rows.map((row) => row.id);
        const after = { snoozed_at: null, snoozed_until: null };
        await inboxRepository(trx, dialect).saveStates(actor.workspaceId, ids, after, now());
        await cancelSnoozes(trx, rows);
        await emitConversationChanges(
          trx,
          deps,
          rows.map((row) => eventOf(actor, row, 'unsnoozed', after)),
        );
        return ids;
      }),

    /**
     * Snoozes the conversations until `until` (null: until the customer's next message): they leave the
     * open list and come back by themselves, through a scheduled job that survives restarts. Snoozing
     * again moves the time.
     */
    snooze(actor: Actor, contactIds: string[], until: Date | null) {
      if (until && until.getTime() <= clock.now().getTime())
        throw errors.invalid(inboxProblems.problem('until', 'snooze_in_past'));
      if (until && until.getTime() - clock.now().getTime() > MAX_SNOOZE_MS) {
        throw errors.invalid(inboxProblems.problem('until', 'snooze_too_far'));
      }
      return move(actor.workspaceId, contactIds, async (trx) => {
        const at = now();
        const rows = await rowsOf(trx, actor, contactIds);
        const ids = rows.map((row) => row.id);
        const after = { done_at: null, snoozed_at: at, snoozed_until: until && toStoredTimestamp(until) };
        await inboxRepository(trx, dialect).saveStates(actor.workspaceId, ids, after, at);
        await cancelSnoozes(trx, rows);
        if (until) {
          const jobs = ids.map((id) => ({
            workspaceId: actor.workspaceId,
            kind: 'conversation_snooze' as const,
            subjectId: id,
            payload: { snoozed_at: at },
            dueAt: until,
          }));
          await scheduleJobs(trx, deps, jobs);
        }
        await emitConversationChanges(
          trx,
          deps,
          rows.map((row) => eventOf(actor, row, 'snoozed', after)),
        );
        return ids;
      });
    },

    /**
     * The customer wrote (in the transaction that stores the message): a closed conversation reopens, a
     * snoozed one wakes, and one whose report span the message opened (`opened`) is a new conversation.
     */
    async onInbound(trx: Db, workspaceId: string, contactIds: string[], opened: string[]): Promise<void> {
      const actor = { workspaceId, userId: null };
      const rows = await rowsOf(trx, actor, contactIds);
      const waking = rows.filter((row) => statusOf(row) !== 'open');
      await inboxRepository(trx, dialect).reopen(workspaceId, contactIds, now());
      await cancelSnoozes(trx, waking);
      const after = { done_at: null, snoozed_at: null, snoozed_until: null };
      const isNew = new Set(opened);
      const changes = rows.flatMap((row) => {
        const status = statusOf(row);
        if (status !== 'open') return [eventOf(actor, row, status === 'snoozed' ? 'unsnoozed' : 'reopened', after)];
        return isNew.has(row.id) ? [eventOf(actor, row, 'opened', after)] : [];
      });
      await emitConversationChanges(trx, deps, changes);
    },

    /** Ends a snooze when its time comes, unless the conversation moved on since (woke, closed, snoozed again). */
    snoozeHandler: {
      async run(trx: Db, job: Job) {
        const actor = { workspaceId: job.workspace_id, userId: null };
        const [row] = await rowsOf(trx, actor, [job.subject_id]);
        if (!row || row.snoozed_at !== job.payload.snoozed_at) return;
        const after = { snoozed_at: null, snoozed_until: null };
        await inboxRepository(trx, dialect).saveState(job.workspace_id, row.id, after, now());
        await emitConversationChanges(trx, deps, [eventOf(actor, row, 'unsnoozed', after)]);
      },
      async committed(jobs: Job[]) {
        for (const job of jobs) await announce(job.workspace_id, [job.subject_id]);
      },
    } satisfies JobHandler,
  };
}
