import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Opt-out that a business can rely on: each workspace's own keyword lists and whether a contact
 * who opts out is told so (a workspace without a row uses the defaults, see opt-out/opt-out.keywords.ts),
 * and how many of a campaign's audience were left out because they had opted out.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('opt_out_settings')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    // JSON arrays of keywords as the workspace wrote them; matched ignoring case, accents and punctuation.
    .addColumn('stop_keywords', 'text', (c) => c.notNull())
    .addColumn('start_keywords', 'text', (c) => c.notNull())
    // 1: a contact who opts out is told once, in the language of the keyword they used.
    .addColumn('confirm', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`ALTER TABLE campaigns ADD COLUMN opted_out integer NOT NULL DEFAULT 0`.execute(db);
}
