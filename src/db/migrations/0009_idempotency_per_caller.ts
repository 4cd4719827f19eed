import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Idempotency keys belong to their caller (an API token, or a dashboard user's session), not to
 * the whole workspace, and a response carrying a secret is no longer stored. The table is made
 * anew: its rows are a 24-hour cache, and those written before may hold minted tokens and
 * webhook secrets in clear.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // The principal's token id: an API token's id, or `session:<user id>` for the dashboard.
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    // Null with a status code: the response carried a secret and was not kept.
    .addColumn('response_body', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['workspace_id', 'caller', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').columns(['created_at']).execute();
}
