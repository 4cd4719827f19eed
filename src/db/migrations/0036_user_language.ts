import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The language a person chose for the dashboard (src/shared/languages.ts); NULL follows their browser. */
export async function up(db: Kysely<Database>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN language TEXT`.execute(db);
}
