import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

/**
 * SQLite's contact search, reworked for large workspaces (PostgreSQL keeps its pg_trgm index):
 * - `search_text` (the lower-cased name, phone and email, as PostgreSQL has it) joins the recency
 *   index, so a walk in last_message_at order tests each contact without reading its row;
 * - digits (phones, and numbers in names and emails) get an index of 4-digit grams, whose posting
 *   lists are a tenth as long as digit trigrams' (see digit-grams.ts); the trigram index keeps
 *   name and email for everything else.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  const run = (statement: ReturnType<typeof sql>) => statement.execute(db);
  await run(sql`ALTER TABLE contacts ADD COLUMN search_text TEXT GENERATED ALWAYS AS (
    lower(coalesce(name, '') || char(31) || phone || char(31) || coalesce(email, ''))) VIRTUAL`);
  await run(sql`DROP INDEX contacts_recent`);
  await run(sql`CREATE INDEX contacts_recent ON contacts (workspace_id, last_message_at DESC, id DESC, search_text)`);

  for (const trigger of ['insert', 'delete', 'update']) await run(sql.raw(`DROP TRIGGER contacts_search_${trigger}`));
  await run(sql`DROP TABLE contacts_search`);
  await run(sql`CREATE VIRTUAL TABLE contacts_search USING fts5(
    name, email, content='contacts', content_rowid='seq', tokenize='trigram')`);
  await run(sql`INSERT INTO contacts_search(contacts_search) VALUES ('rebuild')`);
  // Contentless: the grams are derived from the contact's fields, which stay the source of truth,
  // and a row is removed with FTS5's 'delete' command and the grams it was indexed with.
  await run(sql`CREATE VIRTUAL TABLE contacts_digit_grams USING fts5(grams, content='', detail='none')`);
  // The SQL function db/digit-grams.ts registers on every SQLite connection, by the name the triggers keep.
  const grams = (row: string) => sql.raw(`parley_digit_grams(${row}phone, ${row}name, ${row}email)`);
  await run(sql`INSERT INTO contacts_digit_grams(rowid, grams) SELECT seq, ${grams('')} FROM contacts`);
  // One segment per index, as after a bulk load every lookup would otherwise visit hundreds.
  for (const index of ['contacts_search', 'contacts_digit_grams']) {
    await run(sql.raw(`INSERT INTO ${index}(${index}) VALUES ('optimize')`));
  }
  const removeGrams = sql`INSERT INTO contacts_digit_grams(contacts_digit_grams, rowid, grams)
    VALUES ('delete', old.seq, ${grams('old.')});`;

  await run(sql`CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contacts_search(rowid, name, email) VALUES (new.seq, new.name, new.email);
    INSERT INTO contacts_digit_grams(rowid, grams) VALUES (new.seq, ${grams('new.')});
  END`);
  await run(sql`CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
    INSERT INTO contacts_search(contacts_search, rowid, name, email) VALUES ('delete', old.seq, old.name, old.email);
    ${removeGrams}
  END`);
  await run(sql`CREATE TRIGGER contacts_search_update AFTER UPDATE OF name, phone, email ON contacts BEGIN
    INSERT INTO contacts_search(contacts_search, rowid, name, email) VALUES ('delete', old.seq, old.name, old.email);
    INSERT INTO contacts_search(rowid, name, email) VALUES (new.seq, new.name, new.email);
    ${removeGrams}
    INSERT INTO contacts_digit_grams(rowid, grams) VALUES (new.seq, ${grams('new.')});
  END`);
}
