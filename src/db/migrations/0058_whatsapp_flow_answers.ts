import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * WhatsApp Flows' answers: each completed Flow (`nfm_reply`) a customer sent, once per message, linked to
 * the send by its `flow_token` when Parley made it, with the fields labelled as the Flow JSON labels them.
 * And per Flow, which answer field fills which contact attribute.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('whatsapp_flow_answers')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // The customer's message that carried the answer: one answer each (Meta redelivers webhooks).
    .addColumn('message_id', t.id, (c) => c.notNull().unique().references('messages.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    // The token as the customer's answer gave it; null when it had none. Not a reference: a Flow sent from
    // elsewhere carries a token Parley never made, and its answer is kept all the same.
    .addColumn('flow_token', 'text')
    .addColumn('whatsapp_flow_id', t.id, (c) => c.references('whatsapp_flows.id').onDelete('set null'))
    .addColumn('meta_flow_id', 'text')
    // JSON: [{ name, label, value }] in the form's order, values as Meta sent them.
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .execute();
  // Newest first per workspace (the trigger feed), per Flow (its answers table) and per contact (their page).
  await sql`CREATE INDEX whatsapp_flow_answers_feed ON whatsapp_flow_answers (workspace_id, received_at, id)`.execute(
    db,
  );
  await sql`CREATE INDEX whatsapp_flow_answers_flow ON whatsapp_flow_answers (whatsapp_flow_id, received_at, id)`.execute(
    db,
  );
  await sql`CREATE INDEX whatsapp_flow_answers_contact ON whatsapp_flow_answers (contact_id, received_at, id)`.execute(
    db,
  );

  // JSON: { field name: contact attribute key }, chosen per Flow; applied as each answer arrives.
  await db.schema
    .alterTable('whatsapp_flows')
    .addColumn('answer_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}
