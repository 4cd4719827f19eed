import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Meta's notice, a day ahead, that it will recategorize a template (`template_category_update`): the
 * category it will get and when, as JSON; null when no change is announced.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('templates').addColumn('category_notice', 'text').execute();
}
