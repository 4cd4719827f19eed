import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The tools a team works conversations with: a priority, a snooze (until a time, or until the
 * customer writes: `snoozed_until` null), and the workspace's own labels (a set with colours, apart
 * from the contacts' tags) linked to conversations. The indexes keep the inbox list's new filters
 * indexed: labels by (label, contact), priority and snoozed per workspace.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .alterTable('conversations')
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema.alterTable('conversations').addColumn('snoozed_at', t.timestamp).execute();
  await db.schema.alterTable('conversations').addColumn('snoozed_until', t.timestamp).execute();
  await sql`CREATE INDEX conversations_priority ON conversations (workspace_id, priority)`.execute(db);
  await sql`CREATE INDEX conversations_snoozed ON conversations (workspace_id, snoozed_at)`.execute(db);

  await db.schema
    .createTable('conversation_labels')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('colour', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX conversation_labels_name ON conversation_labels (workspace_id, name_key)`.execute(db);

  await db.schema
    .createTable('conversation_label_links')
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('label_id', t.id, (c) => c.notNull().references('conversation_labels.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_label_links_pk', ['contact_id', 'label_id'])
    .execute();
  await sql`CREATE INDEX conversation_label_links_label ON conversation_label_links (label_id, contact_id)`.execute(db);
}
