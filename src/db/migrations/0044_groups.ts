import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * WhatsApp groups (Meta's Groups API): a group a business number takes part in, with its subject,
 * participants and state, and its conversation's messages. A group message belongs to its group, not
 * to one contact, so `messages.contact_id` may be null (then `group_id` is set).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('groups')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('channel_id', t.id, (c) => c.notNull().references('channels.id').onDelete('cascade'))
    // Meta's group id; null while a group Parley asked Meta to create is not created yet.
    .addColumn('wa_group_id', 'text')
    // Meta's request id of a create Parley sent: its lifecycle webhook names the group it made.
    .addColumn('request_id', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('invite_link', 'text')
    // JSON: [{ wa_id, user_id, name }], as Meta's participant webhooks leave them.
    .addColumn('participants', 'text', (c) => c.notNull())
    // creating, active, failed (Meta refused the create), suspended or deleted.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('last_message_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX groups_wa_group ON groups (workspace_id, wa_group_id)`.execute(db);
  await sql`CREATE INDEX groups_recent ON groups (workspace_id, last_message_at DESC)`.execute(db);

  await db.schema
    .alterTable('messages')
    .addColumn('group_id', t.id, (c) => c.references('groups.id').onDelete('cascade'))
    .execute();
  await sql`CREATE INDEX messages_group ON messages (group_id, created_at DESC) WHERE group_id IS NOT NULL`.execute(db);
  if (dialect === 'postgres') await sql`ALTER TABLE messages ALTER COLUMN contact_id DROP NOT NULL`.execute(db);
  else await relaxSqliteContactId(db);
}

/**
 * SQLite cannot drop a NOT NULL: the table is rebuilt from its own definition with the one constraint
 * removed (SQLite's documented procedure; no table references `messages`, so no key needs care),
 * and its indexes and triggers are made again.
 */
async function relaxSqliteContactId(db: Kysely<Database>): Promise<void> {
  const schema = await sql<{ type: string; name: string; sql: string }>`
    SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'messages' AND sql IS NOT NULL`.execute(db);
  const table = schema.rows.find((row) => row.type === 'table')!;
  const relaxed = table.sql.replace(/("contact_id"\s+text)\s+not null/i, '$1');
  if (relaxed === table.sql) throw new Error('messages.contact_id: NOT NULL not found in the table definition');
  await sql.raw(relaxed.replace(/^CREATE TABLE\s+"?messages"?/i, 'CREATE TABLE "messages_rebuilt"')).execute(db);
  await sql`INSERT INTO messages_rebuilt SELECT * FROM messages`.execute(db);
  await sql`DROP TABLE messages`.execute(db);
  await sql`ALTER TABLE messages_rebuilt RENAME TO messages`.execute(db);
  for (const { sql: statement } of schema.rows.filter((row) => row.type !== 'table'))
    await sql.raw(statement).execute(db);
}
