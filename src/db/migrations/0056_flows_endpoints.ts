import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * WhatsApp Flows' data endpoint, per number: the key pair Meta encrypts with (the private key sealed with
 * the deployment's secret box, the public key registered with Meta, Meta's latest word on it), and the
 * business's own HTTPS endpoint that screens are relayed to, with its signing secret (sealed).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('flows_endpoints')
    .addColumn('channel_id', t.id, (c) => c.primaryKey().references('channels.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('private_key', 'text')
    .addColumn('public_key', 'text')
    .addColumn('key_status', 'text')
    .addColumn('key_registered_at', t.timestamp)
    .addColumn('key_checked_at', t.timestamp)
    .addColumn('business_url', 'text')
    .addColumn('business_secret', 'text')
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
