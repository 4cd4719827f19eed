import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * A campaign of a template with an image, video or document header keeps the https link to send in
 * it (create-campaign's `header_media_url`); null: the template's own sample, as before.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await sql`ALTER TABLE campaigns ADD COLUMN header_media_url text`.execute(db);
}
