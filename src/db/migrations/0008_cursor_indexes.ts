import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

/**
 * Cursor pagination walks contacts, templates and tags in id order within a workspace; the ids'
 * own indexes span every workspace, so each gets a (workspace_id, id) index for a page to be a
 * range read. SQLite's contact index also carries `search_text`, so a substring search in id order
 * tests each contact without reading its row (as contacts_recent does for the recency order). The
 * email index gains the id, so an email filter in id order is a range read too, not a sort.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const run = (statement: ReturnType<typeof sql>) => statement.execute(db);
  const searchText = dialect === 'sqlite' ? sql`, search_text` : sql``;
  await run(sql`CREATE INDEX contacts_workspace_id ON contacts (workspace_id, id${searchText})`);
  await run(sql`DROP INDEX contacts_email`);
  await run(sql`CREATE INDEX contacts_email ON contacts (workspace_id, lower(email), id)`);
  await run(sql`CREATE INDEX templates_workspace_id ON templates (workspace_id, id)`);
  await run(sql`CREATE INDEX tags_workspace_id ON tags (workspace_id, id)`);
}
