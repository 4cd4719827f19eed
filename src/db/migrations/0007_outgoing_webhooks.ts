import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Outgoing webhooks: a workspace's subscriptions (URL, events, sealed signing secret) and the
 * durable queue of deliveries, written in the transaction of the event they announce.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of event types.
    .addColumn('events', t.json, (c) => c.notNull())
    // `whsec_…`, sealed with the SecretBox (AES-256-GCM).
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    // The first failed attempt since the last delivered one; 24 h of failures disable the subscription.
    .addColumn('failing_since', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // Every event looks up its workspace's enabled subscriptions: usually none, answered from this index.
  await sql`CREATE INDEX webhook_subscriptions_workspace ON webhook_subscriptions (workspace_id, status)`.execute(db);

  await db.schema
    .createTable('webhook_deliveries')
    // The `webhook-id` header: the same on every attempt and replay.
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('subscription_id', t.id, (c) => c.notNull().references('webhook_subscriptions.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    // The exact body sent (and signed) on every attempt; text, not jsonb, so its bytes never change.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // When the worker should try (again); a claimed delivery's lease; null when settled or paused.
    .addColumn('next_attempt_at', t.timestamp)
    // Retries go on for 24 h from here (reset by a replay).
    .addColumn('first_attempt_at', t.timestamp)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    // The latest attempts (time, status code, error, duration), newest last, bounded in length.
    .addColumn('attempt_log', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // The worker's claim: due pending deliveries, in due order. Queries name the status as a literal.
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'pending'`.execute(db);
  // The delivery log, newest first, with and without a status filter (and pausing a subscription's pending ones).
  await sql`CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_log_status
    ON webhook_deliveries (subscription_id, status, created_at, id)`.execute(db);
}
