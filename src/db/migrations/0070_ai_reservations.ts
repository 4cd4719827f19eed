import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The tokens AI model calls in flight have set aside against their workspace's monthly budget: a call
 * reserves its worst case in the same transaction that checks the budget, and its row is deleted when
 * its real usage reaches the ledger (ai_usage) or it fails. A row whose process died lapses at
 * `expires_at` and is no longer counted.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('ai_reservations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ai_reservations_workspace_month')
    .on('ai_reservations')
    .columns(['workspace_id', 'month'])
    .execute();
}
