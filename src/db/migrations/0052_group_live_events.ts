import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * A WhatsApp group's live events (a message in its conversation, a change of its state) go to open
 * dashboards like a contact's: `inbox_events` names the group instead of the contact, so `contact_id`
 * may be null. SQLite cannot drop a NOT NULL in place; the table holds minutes-old hints that open tabs
 * reload past anyway (src/inbox/event-hub.ts), so it is made anew rather than copied.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  if (dialect === 'postgres') {
    await sql`ALTER TABLE inbox_events ALTER COLUMN contact_id DROP NOT NULL`.execute(db);
    await db.schema.alterTable('inbox_events').addColumn('group_id', t.id).execute();
    return;
  }
  await db.schema.dropTable('inbox_events').execute();
  await db.schema
    .createTable('inbox_events')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('workspace_id', t.id, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('contact_id', t.id)
    .addColumn('group_id', t.id)
    .addColumn('message_id', t.id)
    .addColumn('direction', 'text')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
}
