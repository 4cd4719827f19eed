import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Templates submitted to Meta from Parley: each translation keeps Meta's template id (Meta ids one
 * name + language), the sample values submitted with it, why Meta rejected it, and its quality score.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  const columns: [string, 'text' | typeof t.json][] = [
    ['meta_template_id', 'text'],
    ['examples', t.json],
    ['rejection_reason', 'text'],
    ['quality_score', 'text'],
  ];
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const [name, type] of columns) {
    await db.schema.alterTable('template_translations').addColumn(name, type).execute();
  }
}
