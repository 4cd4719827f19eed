import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Reports: a conversation's spans (opened by the customer, first answered by a person or the API,
 * closed by an agent) kept as they happen, since the inbox keeps only a conversation's current state;
 * and the per-category rates a workspace enters to price Meta's billable messages.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('conversation_spans')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('opened_at', t.timestamp, (c) => c.notNull())
    .addColumn('first_response_at', t.timestamp)
    .addColumn('closed_at', t.timestamp)
    // Who the span counts for: the assignee when it was closed, else the agent who closed it.
    .addColumn('agent_id', t.id)
    .execute();
  await db.schema
    .createIndex('conversation_spans_opened')
    .on('conversation_spans')
    .columns(['workspace_id', 'opened_at'])
    .execute();
  await db.schema
    .createIndex('conversation_spans_closed')
    .on('conversation_spans')
    .columns(['workspace_id', 'closed_at'])
    .execute();
  // At most one open span per conversation, however many processes record inbound messages at once.
  await sql`CREATE UNIQUE INDEX conversation_spans_open ON conversation_spans (contact_id)
    WHERE closed_at IS NULL`.execute(db);

  await db.schema
    .createTable('message_rates')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    // JSON: Meta's pricing category (marketing, utility, authentication, service, …) → price per billable message.
    .addColumn('rates', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
