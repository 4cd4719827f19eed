import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isDatabaseUnavailable } from '../db/outage.js';
import type { Database } from '../db/schema.js';
import { failedRoundRestMs } from '../shared/backoff.js';
import type { Deps } from '../db/deps.js';
import { noteQueued, queuedIn, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';

export type JobKind =
  | 'sequence_step'
  | 'flow_timeout'
  | 'flow_webhook'
  | 'campaign_dispatch'
  | 'campaign_check'
  | 'template_review'
  | 'media_download'
  | 'media_expiry'
  | 'conversation_snooze'
  | 'email_send'
  | 'knowledge_embed'
  | 'held_send_expiry'
  | 'assistant_reply';

export interface Job {
  id: string;
  workspace_id: string;
  kind: JobKind;
  subject_id: string;
  payload: Record<string, unknown>;
  due_at: string;
  attempts: number;
}

export interface NewJob {
  workspaceId: string;
  kind: JobKind;
  subjectId: string;
  payload?: Record<string, unknown>;
  dueAt: Date;
}

/**
 * What runs a kind of job: its effects happen in the transaction that deletes the job, so both
 * commit or neither. `runBatch` takes consecutive jobs of its kind together (in due order), for
 * handlers that load and write a chunk's state in a few statements instead of a few per job.
 */
export type JobHandler = {
  /** Work outside the transaction (a network call); its result is handed to `run`. */
  prepare?(job: Job): Promise<unknown>;
  /** Told after the transaction that ran these jobs committed (live events a tab may reload on). */
  committed?(jobs: Job[]): Promise<void>;
} & (
  | { run(trx: Kysely<Database>, job: Job, prepared: unknown): Promise<void> }
  | { runBatch(trx: Kysely<Database>, jobs: Job[]): Promise<void> }
);

/** Jobs claimed per round, and run per transaction. */
const BATCH = 500;
const CHUNK = 100;
/** Rows per multi-row insert (8 bound values each, well under both engines' parameter limits). */
const INSERT_ROWS = 500;
/** A claimed job is due again after this long: a crashed process's jobs are picked up by another. */
const LEASE_MS = 60_000;
/** A job that keeps throwing is retried with backoff, then dropped (and logged). */
const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 5_000;
/** Jobs other processes schedule are found by this poll; this process's own wake it directly. */
const POLL_MS = 1_000;
/** Floor between rounds, so a job another process holds cannot spin this one. */
const MIN_WAIT_MS = 10;

/** Adds jobs in the caller's transaction (they exist exactly if the step that scheduled them committed). */
export async function scheduleJobs(trx: Kysely<Database>, deps: Pick<Deps, 'newId' | 'clock'>, jobs: NewJob[]) {
  const createdAt = toStoredTimestamp(deps.clock.now());
  for (let i = 0; i < jobs.length; i += INSERT_ROWS) {
    const rows = jobs.slice(i, i + INSERT_ROWS).map((job) => ({
      id: deps.newId(),
      workspace_id: job.workspaceId,
      kind: job.kind,
      subject_id: job.subjectId,
      payload: JSON.stringify(job.payload ?? {}),
      due_at: toStoredTimestamp(job.dueAt),
      leased_until: null,
      created_at: createdAt,
    }));
    await trx.insertInto('jobs').values(rows).execute();
  }
  if (jobs.length > 0) noteQueued(trx, 'jobs');
}

export const scheduleJob = (trx: Kysely<Database>, deps: Pick<Deps, 'newId' | 'clock'>, job: NewJob) =>
  scheduleJobs(trx, deps, [job]);

/**
 * Adds a job unless one of its kind for its subject is still waiting to start: a burst of triggers (each
 * search finding vectors missing) makes one job. One already running does not count, as it may have read
 * its work before the trigger's change.
 */
export async function scheduleJobOnce(trx: Kysely<Database>, deps: Pick<Deps, 'newId' | 'clock'>, job: NewJob) {
  const waiting = await trx
    .selectFrom('jobs')
    .select('id')
    .where('subject_id', '=', job.subjectId)
    .where('kind', '=', job.kind)
    .where('leased_until', 'is', null)
    .executeTakeFirst();
  if (!waiting) await scheduleJob(trx, deps, job);
}

/** Removes the pending jobs of a subject or subjects (an enrolment that exited, a run that moved on). */
export async function cancelJobs(trx: Kysely<Database>, subjectId: string | string[], kind?: JobKind): Promise<void> {
  let query = trx.deleteFrom('jobs').where('subject_id', 'in', [subjectId].flat());
  if (kind) query = query.where('kind', '=', kind);
  await query.execute();
}

/**
 * The durable scheduler: every timer of every engine is a row in `jobs`. A round claims due jobs
 * by leasing them (one UPDATE; on PostgreSQL the candidates are locked with SKIP LOCKED, so several
 * processes share the work without waiting on each other), then runs each chunk in a transaction
 * that first deletes the jobs it still holds the lease on. A job's effects commit with its deletion:
 * a restart re-runs only what did not commit, and a job whose lease another process took over is
 * skipped, so no step runs twice and none is lost. `wakeFor` wakes the workers a chunk queued work for.
 */
export function createScheduler(
  deps: Deps,
  handlers: Partial<Record<JobKind, JobHandler>>,
  wakeFor: (work: QueuedWork) => void,
) {
  const handlerOf = (job: Job): JobHandler => {
    const handler = handlers[job.kind];
    if (!handler) throw new Error(`no handler for ${job.kind} jobs`);
    return handler;
  };
  const { db, dialect, clock } = deps;
  let log: FastifyBaseLogger | undefined;
  let stopped = true;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  /**
   * Jobs this process had claimed when the database went away, by their lease: released at the next
   * round rather than left to their lease (a minute), so a campaign resumes as soon as the database does.
   */
  const stranded: { ids: string[]; lease: string }[] = [];

  async function releaseStranded(): Promise<void> {
    while (stranded.length > 0) {
      const { ids, lease } = stranded[0]!;
      await db
        .updateTable('jobs')
        .set({ leased_until: null })
        .where('id', 'in', ids)
        .where('leased_until', '=', lease)
        .execute();
      stranded.shift();
    }
  }

  async function claim(workspaceId: string | undefined): Promise<{ jobs: Job[]; lease: string }> {
    const now = toStoredTimestamp(clock.now());
    const lease = toStoredTimestamp(new Date(clock.now().getTime() + LEASE_MS));
    let due = db
      .selectFrom('jobs')
      .select('id')
      .where('due_at', '<=', now)
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
      .orderBy('due_at')
      .limit(BATCH);
    if (workspaceId) due = due.where('workspace_id', '=', workspaceId);
    if (dialect === 'postgres') due = due.forUpdate().skipLocked();
    const rows = await db
      .updateTable('jobs')
      .set((eb) => ({ leased_until: lease, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
      .returningAll()
      .execute();
    const jobs = rows
      .map((row) => ({ ...row, kind: row.kind as JobKind, payload: JSON.parse(row.payload) as Job['payload'] }))
      .sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : a.id < b.id ? -1 : 1));
    return { jobs, lease };
  }

  /** Runs jobs in one transaction; only those this process still holds the lease on. */
  async function runTogether(jobs: Job[], lease: string, prepared: Map<string, unknown>): Promise<void> {
    const queued = await db.transaction().execute(async (trx) => {
      const held = await trx
        .deleteFrom('jobs')
        .where(
          'id',
          'in',
          jobs.map((job) => job.id),
        )
        .where('leased_until', '=', lease)
        .returning('id')
        .execute();
      const heldIds = new Set(held.map((row) => row.id));
      const groups = runsOfOneKind(jobs.filter((job) => heldIds.has(job.id)));
      for (const group of groups) {
        const handler = handlerOf(group[0]!);
        if ('runBatch' in handler) await handler.runBatch(trx, group);
        else for (const job of group) await handler.run(trx, job, prepared.get(job.id));
      }
      return { work: queuedIn(trx), groups };
    });
    wakeFor(queued.work);
    // The jobs are done whatever this says: a failure here only costs an open tab its live update.
    for (const group of queued.groups) {
      await handlerOf(group[0]!)
        .committed?.(group)
        .catch((error: unknown) => log?.warn({ err: error, kind: group[0]!.kind }, 'after-commit step failed'));
    }
  }

  /** A chunk that failed is re-run job by job, so one failing job holds back only itself. */
  async function runChunk(jobs: Job[], lease: string): Promise<void> {
    const prepared = new Map<string, unknown>();
    await Promise.all(
      jobs.map(async (job) => {
        const handler = handlers[job.kind];
        if (!handler?.prepare) return;
        prepared.set(job.id, await handler.prepare(job).catch((error: unknown) => ({ error })));
      }),
    );
    try {
      await runTogether(jobs, lease, prepared);
    } catch (error) {
      // Not the jobs' fault: they are neither retried one by one nor counted as failed.
      if (isDatabaseUnavailable(error)) throw error;
      for (const job of jobs) {
        await runTogether([job], lease, prepared).catch((error: unknown) => retryLater(job, lease, error));
      }
    }
  }

  async function retryLater(job: Job, lease: string, error: unknown): Promise<void> {
    log?.error({ err: error, job_id: job.id, kind: job.kind, attempts: job.attempts }, 'scheduled job failed');
    const held = db.updateTable('jobs').where('id', '=', job.id).where('leased_until', '=', lease);
    if (job.attempts >= MAX_ATTEMPTS) {
      await db.deleteFrom('jobs').where('id', '=', job.id).where('leased_until', '=', lease).execute();
      return;
    }
    const due = clock.now().getTime() + RETRY_BASE_MS * 2 ** (job.attempts - 1);
    await held.set({ leased_until: null, due_at: toStoredTimestamp(new Date(due)) }).execute();
  }

  function reportLag(jobs: Job[]): void {
    if (!deps.signals) return;
    const now = clock.now().getTime();
    for (const job of jobs) deps.signals.jobStarted(job.kind, now - Date.parse(job.due_at));
  }

  /** Runs everything due now (of one workspace, if given); returns how many jobs it ran. */
  async function runDue(workspaceId?: string): Promise<number> {
    await releaseStranded();
    let total = 0;
    for (;;) {
      const { jobs, lease } = await claim(workspaceId);
      reportLag(jobs);
      try {
        for (let i = 0; i < jobs.length; i += CHUNK) await runChunk(jobs.slice(i, i + CHUNK), lease);
      } catch (error) {
        // Those that committed are gone already; releasing the rest finds only them.
        if (isDatabaseUnavailable(error)) stranded.push({ ids: jobs.map((job) => job.id), lease });
        throw error;
      }
      total += jobs.length;
      if (jobs.length < BATCH) return total;
      await yieldToEventLoop();
    }
  }

  /** Sleeps until the next job is due (at most POLL_MS, for jobs other processes add). */
  async function armTimer(): Promise<void> {
    if (stopped) return;
    const now = toStoredTimestamp(clock.now());
    const next = await db
      .selectFrom('jobs')
      .select(sql<string | null>`min(due_at)`.as('due_at'))
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
      .executeTakeFirst();
    const wait = next?.due_at ? Date.parse(next.due_at) - clock.now().getTime() : POLL_MS;
    clearTimeout(timer);
    timer = setTimeout(() => scheduler.wake(), Math.max(MIN_WAIT_MS, Math.min(POLL_MS, wait)));
    timer.unref();
  }

  /** A failed round is logged (an outage once) and followed by another after a backoff, not never. */
  function failed(error: unknown): void {
    if (!deps.health.failed(error)) log?.error({ err: error }, 'scheduler round failed');
    failures += 1;
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => scheduler.wake(), failedRoundRestMs(failures));
    timer.unref();
  }

  const scheduler = {
    schedule: (trx: Kysely<Database>, job: NewJob) => scheduleJob(trx, deps, job),
    runDue,

    /** Runs due jobs now; concurrent wakes fold into one more round. */
    wake(): void {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          await runDue();
          // On SQLite a run never waits on I/O: jobs that schedule jobs due now (a campaign's pages)
          // would otherwise run back to back and hold the event loop — no request answered meanwhile.
          if (again) await yieldToEventLoop();
        } while (again && !stopped);
        await armTimer();
        failures = 0;
      })()
        .catch(failed)
        .finally(() => {
          running = null;
        });
    },

    start(logger: FastifyBaseLogger): void {
      if (!stopped) return;
      log = logger;
      stopped = false;
      this.wake();
    },

    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },

    /** Resolves when no round is in progress. */
    idle: async (): Promise<void> => {
      while (running) await running;
    },
  };
  return scheduler;
}

export type Scheduler = ReturnType<typeof createScheduler>;

/** Consecutive jobs of the same kind, grouped: [a, a, b, a] → [[a, a], [b], [a]]. */
function runsOfOneKind(jobs: Job[]): Job[][] {
  const groups: Job[][] = [];
  for (const job of jobs) {
    const last = groups.at(-1);
    if (last && last[0]!.kind === job.kind) last.push(job);
    else groups.push([job]);
  }
  return groups;
}
