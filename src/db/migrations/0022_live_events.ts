import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The inbox's live events, written by whichever Parley process published them and read by every
 * process holding an open dashboard stream (src/inbox/event-hub.ts). A growing integer id is the
 * readers' cursor; rows live for minutes only.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('inbox_events')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('workspace_id', t.id, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('contact_id', t.id, (c) => c.notNull())
    .addColumn('message_id', t.id)
    .addColumn('direction', 'text')
    // The publishing process: it told its own streams at once and skips its rows when reading.
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
}
