import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The AI assistant on conversations: its settings per workspace, one record per turn it took (what it
 * decided, why, what it cited, what it cost), the conversations a flow handed to it, and the hand-over
 * note it writes (a conversation note with no member as its author).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('assistant_settings')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // JSON arrays of channel and team ids; empty: every number, every conversation whatever its team.
    .addColumn('channel_ids', 'text', (c) => c.notNull())
    .addColumn('team_ids', 'text', (c) => c.notNull())
    // always, outside (business hours) or inside.
    .addColumn('hours', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('instructions', 'text', (c) => c.notNull())
    .addColumn('reply_limit', 'integer', (c) => c.notNull())
    .addColumn('confidence_floor', 'double precision', (c) => c.notNull())
    // JSON array of words that hand the conversation to a person without asking the model.
    .addColumn('stop_words', 'text', (c) => c.notNull())
    .addColumn('handover_message', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('assistant_turns')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    // The conversation span (report period) it happened in; null when none was open.
    .addColumn('span_id', t.id)
    // The customer's latest message it answered: one turn each, however many processes run the job.
    .addColumn('message_id', t.id, (c) => c.notNull().unique().references('messages.id').onDelete('cascade'))
    // reply, hand_over or close; `reason` says why a hand-over happened.
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('reply_message_id', t.id)
    .addColumn('notice_message_id', t.id)
    .addColumn('confidence', 'double precision')
    // JSON: [{ chunk_id, source_id, source, heading, text }], the cited text kept as it was.
    .addColumn('citations', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    // JSON: the tags added and attributes set.
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('attributes', 'text', (c) => c.notNull())
    // JSON: the model's decision as it came, null when the model was not asked or failed.
    .addColumn('decision', 'text')
    .addColumn('model', 'text')
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
    .addColumn('completion_tokens', 'integer', (c) => c.notNull())
    .addColumn('model_ms', 'integer')
    .addColumn('total_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX assistant_turns_contact ON assistant_turns (contact_id, created_at)`.execute(db);
  await sql`CREATE INDEX assistant_turns_workspace ON assistant_turns (workspace_id, created_at)`.execute(db);

  // A flow's ai_assistant node: the assistant has the conversation until it is next closed.
  await db.schema
    .createTable('assistant_engagements')
    .addColumn('contact_id', t.id, (c) => c.primaryKey().references('contacts.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('flow_id', t.id)
    .addColumn('engaged_at', t.timestamp, (c) => c.notNull())
    .execute();

  // The assistant's name on a note it wrote (the hand-over summary); null on a member's note.
  await db.schema.alterTable('conversation_notes').addColumn('ai_author', 'text').execute();
}
