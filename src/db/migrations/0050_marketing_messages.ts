import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Meta's Marketing Messages API: a workspace's choice to send its marketing templates through it (off
 * until someone confirms the business accepted Meta's terms: who and when are kept), the API a message
 * went through (`marketing_messages`; null: Cloud API's /messages), and a template's time-to-live
 * (Meta's `message_send_ttl_seconds`; null: Meta's default).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('marketing_messages_settings')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('terms_accepted_by', t.id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('terms_accepted_at', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('messages').addColumn('sent_via', 'text').execute();
  await db.schema.alterTable('templates').addColumn('message_send_ttl_seconds', 'integer').execute();
}
