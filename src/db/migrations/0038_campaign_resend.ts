import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * A campaign made by resend-campaign names the campaign it resends. The unique index is the
 * "once": a retried or concurrent resend of the same campaign finds the first one instead of
 * messaging its recipients twice.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .alterTable('campaigns')
    .addColumn('resend_of', t.id, (c) => c.references('campaigns.id').onDelete('set null'))
    .execute();
  await sql`CREATE UNIQUE INDEX campaigns_resend_of ON campaigns (resend_of) WHERE resend_of IS NOT NULL`.execute(db);
}
