import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * WhatsApp Flows (Meta's forms, not Parley's chatbot flows): the Flows a workspace's WhatsApp Business
 * Account has, as Meta's Flows API last described them, and the `flow_token` of each Flow sent, linked to
 * its message, so an answer (`nfm_reply`) or a data-exchange request names the send it belongs to.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('whatsapp_flows')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('meta_flow_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON: Meta's categories, e.g. ["SIGN_UP", "SURVEY"].
    .addColumn('categories', 'text', (c) => c.notNull())
    // DRAFT, PUBLISHED, DEPRECATED, BLOCKED or THROTTLED, as Meta says.
    .addColumn('status', 'text', (c) => c.notNull())
    // The Flow JSON document as last uploaded through Parley (its text: Meta's errors name its lines).
    .addColumn('flow_json', 'text')
    // JSON: Meta's validation_errors of that document, as Meta gave them.
    .addColumn('validation_errors', 'text', (c) => c.notNull())
    .addColumn('preview_url', 'text')
    .addColumn('preview_expires_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX whatsapp_flows_meta ON whatsapp_flows (workspace_id, meta_flow_id)`.execute(db);

  await db.schema
    .createTable('whatsapp_flow_sends')
    .addColumn('flow_token', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('message_id', t.id, (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.references('contacts.id').onDelete('cascade'))
    // Parley's Flow, when it knows the one sent (a template's button names Meta's id only).
    .addColumn('whatsapp_flow_id', t.id, (c) => c.references('whatsapp_flows.id').onDelete('set null'))
    .addColumn('meta_flow_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX whatsapp_flow_sends_message ON whatsapp_flow_sends (message_id)`.execute(db);
}
