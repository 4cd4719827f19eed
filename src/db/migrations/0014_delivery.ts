import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Delivery truth (issue 19 §5, §7, §3): what Meta's status webhooks say about a sent message beyond
 * its status (pricing, conversation, biz_opaque_callback_data); statuses that arrive before Parley
 * recorded the send, kept until it is; and the workspace event log (`value.errors`, account updates).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema.alterTable('messages').addColumn('delivery', t.json).execute();

  await db.schema
    .createTable('early_statuses')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('wamid', 'text', (c) => c.notNull())
    // The status as Parley parsed it, applied as it is once the send is recorded.
    .addColumn('status_update', t.json, (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX early_statuses_wamid ON early_statuses (workspace_id, wamid)`.execute(db);
  await sql`CREATE INDEX early_statuses_received ON early_statuses (received_at)`.execute(db);

  await db.schema
    .createTable('workspace_events')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    // Meta's object as delivered, so nothing it said is lost.
    .addColumn('details', t.json, (c) => c.notNull())
    .addColumn('occurred_at', t.timestamp)
    // Meta retries a delivery it thinks failed: the same event (field, time, object) is recorded once.
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX workspace_events_dedupe ON workspace_events (workspace_id, dedupe_key)`.execute(db);
  await sql`CREATE INDEX workspace_events_feed ON workspace_events (workspace_id, created_at DESC, id DESC)`.execute(
    db,
  );
}
