import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Business hours and the away reply (one per conversation opening, kept so no process or retry sends
 * it twice), and customer satisfaction surveys sent when an agent closes a conversation.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('business_hours')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    // 1: messages outside the hours get the away reply.
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    // JSON: weekday → [{ opens, closes }] in local "HH:MM"; a day without intervals is closed.
    .addColumn('weekly', 'text', (c) => c.notNull())
    // JSON: local dates ("YYYY-MM-DD") closed all day.
    .addColumn('holidays', 'text', (c) => c.notNull())
    .addColumn('away_message', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  // The span's primary key is the "once": a second process or a retried webhook inserts nothing.
  await db.schema
    .createTable('away_replies')
    .addColumn('span_id', t.id, (c) => c.primaryKey().references('conversation_spans.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull())
    .addColumn('message_id', t.id)
    .addColumn('sent_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('csat_settings')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('csat_surveys')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    // One survey per closed conversation span, however often "done" is pressed.
    .addColumn('span_id', t.id, (c) => c.notNull().unique().references('conversation_spans.id').onDelete('cascade'))
    // Whom the rating counts for: the span's agent (its assignee when closed, else who closed it).
    .addColumn('agent_id', t.id)
    .addColumn('message_id', t.id, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp, (c) => c.notNull())
    .addColumn('rating', 'integer')
    .addColumn('rated_at', t.timestamp)
    .execute();
  await db.schema.createIndex('csat_surveys_rated').on('csat_surveys').columns(['workspace_id', 'rated_at']).execute();
  await db.schema.createIndex('csat_surveys_contact').on('csat_surveys').columns(['contact_id', 'rated_at']).execute();
}
