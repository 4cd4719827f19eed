import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { containsIgnoringCase } from '../db/sql.js';
import { CONTACT_COLUMNS, type ContactRow } from './contact.repository.js';

export interface ContactSearch {
  workspaceId: string;
  /** Substring of name, phone or email; already trimmed, never empty when present. */
  query?: string;
  tagId?: string;
  email?: string;
  limit: number;
}

/** Trigram indexes need three characters; shorter queries walk the recency index instead. */
const MIN_INDEXED_QUERY = 3;

/**
 * search-contacts: filters AND together; newest conversation first, never-messaged last.
 * Substring matching uses an index on each engine: FTS5 trigram (SQLite), pg_trgm (PostgreSQL).
 */
export async function searchContacts(
  db: Kysely<Database>,
  dialect: Dialect,
  search: ContactSearch,
): Promise<ContactRow[]> {
  let query = db
    .selectFrom('contacts as c')
    .select(CONTACT_COLUMNS.map((column) => `c.${column}` as const))
    .where('c.workspace_id', '=', search.workspaceId);
  if (search.email) {
    query = query.where((eb) => eb(eb.fn('lower', ['c.email']), '=', search.email!.toLowerCase()));
  }
  if (search.tagId) {
    const tagId = search.tagId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('contact_tags as ct')
          .select('ct.contact_id')
          .whereRef('ct.contact_id', '=', 'c.id')
          .where('ct.tag_id', '=', tagId),
      ),
    );
  }
  if (search.query) {
    const needle = searchNeedle(search.query);
    if (needle.length < MIN_INDEXED_QUERY) {
      query = query.where((eb) =>
        eb.or([
          containsIgnoringCase('c.name', needle),
          containsIgnoringCase('c.phone', needle),
          containsIgnoringCase('c.email', needle),
        ]),
      );
    } else if (dialect === 'sqlite') {
      const match = `"${needle.replaceAll('"', '""')}"`;
      query = query.where(
        sql<boolean>`c.seq in (select rowid from contacts_search where contacts_search match ${match})`,
      );
    } else {
      query = query.where(containsIgnoringCase('c.search_text', needle, { lowered: true }));
    }
  }
  return query
    .orderBy(sql`c.last_message_at desc nulls last`)
    .orderBy('c.id', 'desc')
    .limit(search.limit)
    .execute();
}

/** A query that looks like a phone number is matched on its digits, as phones are stored in E.164. */
function searchNeedle(query: string): string {
  const digits = query.replace(/\D/g, '');
  return /^[\s\d+().-]+$/.test(query) && digits.length >= MIN_INDEXED_QUERY ? digits : query;
}
