import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Rate cards a workspace imports (Meta's published card as CSV): per market and pricing category, in the
 * card's currency, each in effect from its date until the next one's. One card per workspace and date.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('rate_cards')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // A calendar day (YYYY-MM-DD) in the workspace's time zone.
    .addColumn('effective_from', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // JSON: market → pricing category → price per charged message.
    .addColumn('rates', 'text', (c) => c.notNull())
    // Where the card came from (the imported file's name), for the people reading the reports.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('imported_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('rate_cards_workspace_effective', ['workspace_id', 'effective_from'])
    .execute();
}
