import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Agent tokens whose sends wait for a person (decision 0160): a token's `mode` (`direct`, as every token
 * was, or `approval`) and how long its held sends wait before they expire; and the held sends themselves,
 * each a message to one contact that has not gone out: what the agent proposed and why, until a person
 * approves it (then `message_id` names the message sent), rejects it, or it expires.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await sql`ALTER TABLE api_tokens ADD COLUMN mode text NOT NULL DEFAULT 'direct'`.execute(db);
  await sql`ALTER TABLE api_tokens ADD COLUMN approval_timeout_seconds integer`.execute(db);

  await db.schema
    .createTable('held_sends')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('token_id', t.id, (c) => c.notNull().references('api_tokens.id').onDelete('cascade'))
    // The message as the agent proposed it: its type and content (JSON), the message it quotes and the
    // number it names (null: the contact's conversation number, else the default, when it is sent).
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('reply_to_message_id', t.id)
    .addColumn('channel_id', t.id)
    // JSON: a WhatsApp Flow's send, recorded with the message when it goes out (its flow_token).
    .addColumn('flow_send', 'text')
    .addColumn('reasoning', 'text')
    // awaiting_approval, approved, rejected or expired.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('decided_at', t.timestamp)
    .addColumn('decided_by', t.id, (c) => c.references('users.id').onDelete('set null'))
    // 1: approved with the person's own text instead of the agent's.
    .addColumn('edited', 'integer', (c) => c.notNull().defaultTo(0))
    // A rejection's word to the agent.
    .addColumn('note', 'text')
    .addColumn('message_id', t.id)
    .execute();
  await sql`CREATE INDEX held_sends_conversation ON held_sends (workspace_id, contact_id, status)`.execute(db);
}
