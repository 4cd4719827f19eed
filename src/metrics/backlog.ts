import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The workers' queues as the database holds them now: shared by every process of the deployment. */
export interface Backlog {
  /** Messages waiting to be sent: due, leased to a sender, or waiting for a retry. */
  outboxQueued: number;
  /** The earliest next_attempt_at among them (ISO), or null. */
  outboxNextAt: string | null;
  /** Scheduled jobs due now that no process holds. */
  jobsDue: number;
  /** The earliest due_at of a job no process holds, or null. */
  jobsNextAt: string | null;
  /** Outgoing-webhook deliveries waiting for an attempt (paused subscriptions' ones aside). */
  deliveriesPending: number;
  deliveriesNextAt: string | null;
  /** What the media store holds, every workspace's files together. */
  mediaBytes: number;
  mediaFiles: number;
}

/**
 * Reads the backlog (and the media store's size) in one statement, at scrape time rather than per request. A read-only
 * operational view across the outbox, scheduler and webhook queues; each subquery runs on the
 * queue's own claim index (messages_outbox, jobs_due, webhook_deliveries_due).
 */
export async function readBacklog(db: Kysely<Database>, now: string): Promise<Backlog> {
  const unheldDueJobs = sql`from jobs where due_at <= ${now} and (leased_until is null or leased_until <= ${now})`;
  const pendingDeliveries = sql`from webhook_deliveries where status = 'pending' and next_attempt_at is not null`;
  const { rows } = await sql<
    Record<'oq' | 'jq' | 'dq' | 'mb' | 'mf', number | string> & Record<'ot' | 'jt' | 'dt', string | null>
  >`
    select
      (select count(*) from messages where next_attempt_at is not null) as oq,
      (select min(next_attempt_at) from messages where next_attempt_at is not null) as ot,
      (select count(*) ${unheldDueJobs}) as jq,
      (select min(due_at) ${unheldDueJobs}) as jt,
      (select count(*) ${pendingDeliveries}) as dq,
      (select min(next_attempt_at) ${pendingDeliveries}) as dt,
      (select coalesce(sum(size), 0) from media_files) as mb,
      (select count(*) from media_files) as mf`.execute(db);
  const row = rows[0]!;
  return {
    outboxQueued: Number(row.oq),
    outboxNextAt: row.ot,
    jobsDue: Number(row.jq),
    jobsNextAt: row.jt,
    deliveriesPending: Number(row.dq),
    deliveriesNextAt: row.dt,
    mediaBytes: Number(row.mb),
    mediaFiles: Number(row.mf),
  };
}
