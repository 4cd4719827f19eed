import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * One conversation as a team works it: an outbound message records who sent it (a team member, an
 * API token, a campaign, a sequence, a flow, or Parley itself), written where it is queued; staff's
 * private notes sit beside the messages (never sent, never in the API's message lists); quick
 * replies are a workspace's saved answers, each under a `/shortcut`.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  // No foreign keys: a removed member, token or automation leaves its messages' history as it was.
  await db.schema.alterTable('messages').addColumn('sender_type', 'text').execute();
  await db.schema.alterTable('messages').addColumn('sender_id', t.id).execute();

  await db.schema
    .createTable('conversation_notes')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('author_id', t.id)
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX conversation_notes_thread ON conversation_notes (contact_id, created_at)`.execute(db);

  await db.schema
    .createTable('quick_replies')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('shortcut', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX quick_replies_shortcut ON quick_replies (workspace_id, shortcut)`.execute(db);
}
