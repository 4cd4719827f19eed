import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Every template Meta offers: a translation's placeholder style (POSITIONAL `{{1}}` or NAMED
 * `{{first_name}}`) and Meta's components Parley keeps whole without sending them yet (a carousel,
 * a limited-time offer), so a sync never drops a template silently. Existing rows are POSITIONAL.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await sql`ALTER TABLE template_translations ADD COLUMN parameter_format text NOT NULL DEFAULT 'POSITIONAL'`.execute(
    db,
  );
  // A JSON array of Meta's components as Meta lists them.
  await sql`ALTER TABLE template_translations ADD COLUMN other_components text NOT NULL DEFAULT '[]'`.execute(db);
}
