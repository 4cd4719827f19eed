import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { scheduleJob, type Job, type JobHandler } from '../automation/scheduler.js';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import type { SecretBox } from '../shared/secret-box.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { Mailer } from './mailer.js';

/**
 * Waits before each retry of an email the SMTP server refused or could not be reached for: about a
 * day in all (a mail server's outage, a wrong password fixed meanwhile), then the email is marked failed.
 */
export const EMAIL_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000];

/** An email to queue: to whom, what, and the notification it tells of (one email per notification). */
export interface NewEmail {
  workspaceId: string;
  to: string;
  subject: string;
  text: string;
  notificationId?: string;
}

type Attempt = { outcome: 'sent' | 'skipped' } | { outcome: 'error'; reason: string };

/**
 * Email through the operator's SMTP server, queued durably: `queue` writes the email and its job in
 * the caller's transaction, so the request that caused it never waits for (or fails with) the mail
 * server. The job claims the email (pending → sending) before talking to the server and records
 * `sent` after: a process that dies mid-send leaves it `sending`, which is never sent again (at most
 * once), and a refusal puts it back to pending for a later try.
 */
export function createEmailService(deps: Deps, secrets: SecretBox, mailer: Mailer | null, wakeScheduler: () => void) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());
  /** The server's log, once it runs (the CLI queues nothing it would log about). */
  let log: Pick<FastifyBaseLogger, 'warn' | 'error'> | undefined;

  /** Claims the email for this try; false when another try has it or it is done. */
  async function claim(id: string): Promise<boolean> {
    const claimed = await db
      .updateTable('emails')
      .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  async function attempt(job: Job): Promise<Attempt> {
    if (!mailer || !(await claim(job.subject_id))) return { outcome: 'skipped' };
    const email = await db.selectFrom('emails').selectAll().where('id', '=', job.subject_id).executeTakeFirstOrThrow();
    const { subject, text } = JSON.parse(secrets.open(email.sealed)) as { subject: string; text: string };
    try {
      await mailer({ to: email.to_address, subject, text, messageId: `<${email.id}@parley>` });
    } catch (error) {
      return { outcome: 'error', reason: error instanceof Error ? error.message : String(error) };
    }
    await db
      .updateTable('emails')
      .set({ state: 'sent', sent_at: now(), last_error: null })
      .where('id', '=', email.id)
      .execute();
    return { outcome: 'sent' };
  }

  /** A refused send is pending again and due after the next delay, or failed for good after the last. */
  async function settle(trx: Kysely<Database>, job: Job, result: Attempt): Promise<void> {
    if (result.outcome !== 'error') return;
    const retry = Number(job.payload.retry ?? 0);
    const delay = EMAIL_RETRY_DELAYS_MS[retry];
    const state = delay === undefined ? 'failed' : 'pending';
    await trx
      .updateTable('emails')
      .set({ state, last_error: result.reason })
      .where('id', '=', job.subject_id)
      .execute();
    // The operator's to fix (a wrong password, a server away): said in the log, never with the address or text.
    const entry = { email_id: job.subject_id, tries: retry + 1, reason: result.reason };
    if (delay === undefined) {
      log?.error(entry, 'email not sent: the SMTP server refused every try');
      return;
    }
    log?.warn(entry, 'email not sent: the SMTP server refused it; trying again later');
    const dueAt = new Date(clock.now().getTime() + delay);
    await scheduleJob(trx, deps, { ...jobOf(job.workspace_id, job.subject_id, dueAt), payload: { retry: retry + 1 } });
  }

  const handler: JobHandler = {
    prepare: attempt,
    // An attempt that could not even read its email (the database away) is the scheduler's to retry.
    run: (trx, job, prepared) => {
      if (!(prepared as Partial<Attempt>).outcome) throw (prepared as { error: unknown }).error;
      return settle(trx, job, prepared as Attempt);
    },
  };

  return {
    /** Whether the operator configured SMTP (without it, links are shown instead of emailed). */
    enabled: mailer !== null,

    /** Queues an email in the caller's transaction; nothing without SMTP. A notification's second email is ignored. */
    async queue(trx: Kysely<Database>, email: NewEmail): Promise<void> {
      if (!mailer) return;
      const id = newId();
      const inserted = await trx
        .insertInto('emails')
        .values({
          id,
          workspace_id: email.workspaceId,
          notification_id: email.notificationId ?? null,
          to_address: email.to,
          sealed: secrets.seal(JSON.stringify({ subject: email.subject, text: email.text })),
          state: 'pending',
          last_error: null,
          created_at: now(),
          sent_at: null,
        })
        .onConflict((oc) => oc.column('notification_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows) !== 1) return;
      await scheduleJob(trx, deps, jobOf(email.workspaceId, id, clock.now()));
    },

    /** Logs failed sends to the server's log from now on. */
    start(logger: Pick<FastifyBaseLogger, 'warn' | 'error'>): void {
      log = logger;
    },

    /** After the commit of a transaction that queued email: sends it now rather than at the scheduler's next poll. */
    wake(): void {
      if (mailer) wakeScheduler();
    },

    handler,
  };
}

const jobOf = (workspaceId: string, emailId: string, dueAt: Date) => ({
  workspaceId,
  kind: 'email_send' as const,
  subjectId: emailId,
  dueAt,
});

export type EmailService = ReturnType<typeof createEmailService>;
