import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Bounds that hold for the whole deployment, however many Parley processes share the database:
 * fixed-window rate counters (refused deliveries to Meta's webhook, per client address) and the
 * dashboard's open event streams per session.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('rate_windows')
    // What is counted and for whom, e.g. `whatsapp-webhook-refused:203.0.113.7`.
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    // The window's end: a hit after it starts a new window.
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX rate_windows_expires ON rate_windows (expires_at)`.execute(db);

  await db.schema
    .createTable('event_streams')
    .addColumn('id', t.id, (c) => c.primaryKey())
    // Logging out deletes the session, and with it its streams: a stream whose row is gone ends.
    .addColumn('session_hash', 'text', (c) => c.notNull().references('sessions.id_hash').onDelete('cascade'))
    // Refreshed by the stream's heartbeat; a row not refreshed for a while was left by a process that died.
    .addColumn('seen_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX event_streams_session ON event_streams (session_hash, seen_at)`.execute(db);
}
