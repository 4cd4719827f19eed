import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * What Meta's `flows` webhook says of a WhatsApp Flow (its status changes, its endpoint's error rate,
 * latency and availability alerts, a version about to expire), kept with the Flow it names so its page
 * shows them.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('whatsapp_flow_alerts')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('whatsapp_flow_id', t.id, (c) => c.notNull().references('whatsapp_flows.id').onDelete('cascade'))
    // Meta's `event`: FLOW_STATUS_CHANGE, CLIENT_ERROR_RATE, ENDPOINT_ERROR_RATE, ENDPOINT_LATENCY, …
    .addColumn('event', 'text', (c) => c.notNull())
    // ACTIVATED or DEACTIVATED for the performance alerts; null for the others.
    .addColumn('alert_state', 'text')
    // Meta's words (`message`, or `warning` for a version's expiry).
    .addColumn('message', 'text')
    // JSON: Meta's whole value, as sent.
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX whatsapp_flow_alerts_flow ON whatsapp_flow_alerts (whatsapp_flow_id, received_at)`.execute(db);
}
