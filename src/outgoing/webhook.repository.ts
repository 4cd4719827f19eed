import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database, WebhookDeliveryTable, WebhookSubscriptionTable } from '../db/schema.js';
import { precompile } from '../db/precompile.js';
import { jsonRows } from '../db/sql.js';
import type { DeliveryAttempt, DeliveryStatus } from './webhook.schema.js';

export type SubscriptionRow = Selectable<WebhookSubscriptionTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;

/** A delivery the worker holds: its lease is the next_attempt_at it moved it to. */
export type ClaimedDelivery = Pick<
  DeliveryRow,
  'id' | 'subscription_id' | 'payload' | 'attempts' | 'first_attempt_at' | 'attempt_log'
> & { lease: string };

/** What one attempt changes on its delivery. */
export interface DeliveryOutcome {
  id: string;
  lease: string;
  status: DeliveryStatus;
  next_attempt_at: string | null;
  first_attempt_at: string;
  last_status_code: number | null;
  last_error: string | null;
  attempt_log: DeliveryAttempt[];
  updated_at: string;
}

// Statuses as literals, so the engines see the partial index's own condition.
const isPending = sql<boolean>`status = 'pending'`;
const isEnabled = sql<boolean>`status = 'enabled'`;

/** Whether any delivery is due: a read on the partial index, where the claim would take a write lock. */
const selectAnyDue = precompile((db, now: string) =>
  db.selectFrom('webhook_deliveries').select('id').where(isPending).where('next_attempt_at', '<=', now).limit(1),
);

/** SQL for webhook subscriptions and their deliveries. */
export function webhookRepository(db: Kysely<Database>) {
  return {
    insert: (row: SubscriptionRow) => db.insertInto('webhook_subscriptions').values(row).execute(),

    async count(workspaceId: string): Promise<number> {
      const row = await db
        .selectFrom('webhook_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    list: (workspaceId: string) =>
      db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),

    find: (workspaceId: string, id: string) =>
      db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /** The workspace of a subscription or delivery, for commands that name only its id. */
    workspaceOf: (table: 'webhook_subscriptions' | 'webhook_deliveries', id: string) =>
      db.selectFrom(table).select('workspace_id').where('id', '=', id).executeTakeFirst(),

    update: (id: string, fields: Updateable<WebhookSubscriptionTable>) =>
      db.updateTable('webhook_subscriptions').set(fields).where('id', '=', id).execute(),

    delete: (id: string) => db.deleteFrom('webhook_subscriptions').where('id', '=', id).execute(),

    /** Subscriptions' URLs and sealed secrets, for the deliveries a worker claimed. */
    targets: (ids: string[]) =>
      db.selectFrom('webhook_subscriptions').select(['id', 'url', 'secret']).where('id', 'in', ids).execute(),

    /** Stops a subscription's pending deliveries (those in flight too: their outcome is then dropped). */
    async pause(subscriptionIds: string[]): Promise<void> {
      if (subscriptionIds.length === 0) return;
      await db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: null })
        .where('subscription_id', 'in', subscriptionIds)
        .where(isPending)
        .execute();
    },

    /** Makes a subscription's paused deliveries due now. */
    async resume(subscriptionId: string, now: string): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: now })
        .where('subscription_id', '=', subscriptionId)
        .where(isPending)
        .where('next_attempt_at', 'is', null)
        .execute();
    },

    /** A subscription's deliveries, newest first. */
    deliveries(subscriptionId: string, status: DeliveryStatus | undefined, limit: number) {
      let query = db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId);
      if (status) query = query.where('status', '=', status);
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    findDelivery: (workspaceId: string, id: string) =>
      db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /** Queues a delivery again with a fresh retry window (paused when its subscription is disabled). */
    async requeue(id: string, dueAt: string | null, now: string): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: dueAt, first_attempt_at: null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    hasDue: async (now: string): Promise<boolean> => (await selectAnyDue(db, now)).length > 0,

    /**
     * Claims due deliveries of enabled subscriptions in one statement: moving next_attempt_at to the
     * lease takes them, and the `<= now` condition makes that exclusive. On PostgreSQL the candidates
     * are locked with SKIP LOCKED, so processes sharing the database never wait on each other.
     */
    async claim(dialect: Dialect, now: string, lease: string, limit: number): Promise<ClaimedDelivery[]> {
      let due = db
        .selectFrom('webhook_deliveries as d')
        .select('d.id')
        .where(sql<boolean>`d.status = 'pending'`)
        .where('d.next_attempt_at', '<=', now)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('webhook_subscriptions as s')
              .select('s.id')
              .whereRef('s.id', '=', 'd.subscription_id')
              .where(sql<boolean>`s.status = 'enabled'`),
          ),
        )
        .orderBy('d.next_attempt_at')
        .limit(limit);
      if (dialect === 'postgres') due = due.forUpdate().skipLocked();
      const rows = await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({ next_attempt_at: lease, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', due)
        .where(isPending)
        .where('next_attempt_at', '<=', now)
        .returning(['id', 'subscription_id', 'payload', 'attempts', 'first_attempt_at', 'attempt_log'])
        .execute();
      return rows.map((row) => ({ ...row, lease }));
    },

    /** Records a batch's outcomes in one statement; a delivery whose lease was taken from it keeps its state. */
    async record(dialect: Dialect, outcomes: DeliveryOutcome[]): Promise<void> {
      if (outcomes.length === 0) return;
      const v = jsonRows(dialect, outcomes, {
        id: 'uuid',
        lease: 'timestamptz',
        status: 'text',
        next_attempt_at: 'timestamptz',
        first_attempt_at: 'timestamptz',
        last_status_code: 'integer',
        last_error: 'text',
        attempt_log: 'jsonb',
        updated_at: 'timestamptz',
      });
      await sql`UPDATE webhook_deliveries AS d SET
          status = v.status,
          next_attempt_at = v.next_attempt_at,
          first_attempt_at = v.first_attempt_at,
          last_status_code = v.last_status_code,
          last_error = v.last_error,
          attempt_log = v.attempt_log,
          updated_at = v.updated_at
        FROM ${v} WHERE d.id = v.id AND d.next_attempt_at = v.lease`.execute(db);
    },

    /** Subscriptions that delivered: no longer failing. */
    async markHealthy(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('webhook_subscriptions')
        .set({ failing_since: null })
        .where('id', 'in', ids)
        .where('failing_since', 'is not', null)
        .execute();
    },

    /**
     * Subscriptions whose attempts failed: failing since now unless already; those failing since
     * `cutoff` or earlier are disabled with `reason`. Returns the ids it disabled.
     */
    async markFailing(ids: string[], now: string, cutoff: string, reason: string): Promise<string[]> {
      if (ids.length === 0) return [];
      await db
        .updateTable('webhook_subscriptions')
        .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
        .where('id', 'in', ids)
        .execute();
      const disabled = await db
        .updateTable('webhook_subscriptions')
        .set({ status: 'disabled', disabled_reason: reason, updated_at: now })
        .where('id', 'in', ids)
        .where(isEnabled)
        .where('failing_since', '<=', cutoff)
        .returning('id')
        .execute();
      return disabled.map((row) => row.id);
    },
  };
}
