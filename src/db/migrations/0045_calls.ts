import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * WhatsApp calls (Meta's `calls` webhooks): one row per call, shown in its contact's conversation; and a
 * contact's answer to the business's request to call them (`call_permission`, JSON; null until they answer).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('calls')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('channel_id', t.id, (c) => c.notNull())
    // Meta's call id (`wacid.…`): each event of the call is applied to its one row.
    .addColumn('call_id', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    // When the call was placed (its earliest event), answered, and ended.
    .addColumn('placed_at', t.timestamp, (c) => c.notNull())
    .addColumn('started_at', t.timestamp)
    .addColumn('ended_at', t.timestamp)
    .addColumn('duration_seconds', 'integer')
    // JSON: Meta's events of the call as it sent them (without their SDP), each once, oldest first.
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('calls_workspace_call', ['workspace_id', 'call_id'])
    .execute();
  await db.schema.createIndex('calls_contact').on('calls').columns(['contact_id', 'placed_at']).execute();
  await db.schema.alterTable('contacts').addColumn('call_permission', 'text').execute();
}
