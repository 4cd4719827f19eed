import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * What Meta builds a translation from besides its components: an authentication template's security
 * recommendation (1 or 0: SQLite has no boolean) and code expiry in minutes, and the Template Library
 * template it was made from. Null when Meta's template says nothing of them.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.alterTable('template_translations').addColumn('add_security_recommendation', 'integer').execute();
  await db.schema.alterTable('template_translations').addColumn('code_expiration_minutes', 'integer').execute();
  await db.schema.alterTable('template_translations').addColumn('library_template_name', 'text').execute();
}
