import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The dashboard's open event streams per session, counted for the whole deployment however many
 * Parley processes share the database.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

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
