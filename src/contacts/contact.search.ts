import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
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
 * Past this many index matches, fetching and sorting them all costs more than walking the
 * recency index until the page is full (matches are then frequent: about 50·N/5000 rows are read).
 */
const INDEX_MATCH_LIMIT = 5000;

/**
 * search-contacts: filters AND together; newest conversation first, never-messaged last.
 * Substring matching uses an index on each engine: FTS5 trigram (SQLite), pg_trgm (PostgreSQL).
 * A rare substring is found through that index and its matches sorted; a common one (or one too
 * short for trigrams) is checked row by row along the recency index, stopping at a full page.
 */
export async function searchContacts(
  db: Kysely<Database>,
  dialect: Dialect,
  search: ContactSearch,
): Promise<ContactRow[]> {
  const conditions: RawBuilder<SqlBool>[] = [sql`c.workspace_id = ${search.workspaceId}`];
  if (search.email) conditions.push(sql`lower(c.email) = ${search.email.toLowerCase()}`);
  if (search.tagId) {
    conditions.push(
      sql`exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id = ${search.tagId})`,
    );
  }
  let from: RawBuilder<unknown> = sql`contacts c`;
  if (search.query) {
    const needle = searchNeedle(search.query);
    const common = needle.length < MIN_INDEXED_QUERY || (await matchesMany(db, dialect, search.workspaceId, needle));
    if (common) {
      conditions.push(scanMatch(dialect, needle));
    } else if (dialect === 'sqlite') {
      // CROSS JOIN fixes SQLite's join order: start from the (few) index matches, then sort them.
      from = sql`(select rowid as seq from contacts_search where contacts_search match ${ftsPhrase(needle)}) m
        cross join contacts c`;
      conditions.push(sql`c.seq = m.seq`);
    } else {
      conditions.push(containsIgnoringCase('c.search_text', needle, { lowered: true }));
    }
  }
  const columns = sql.join(CONTACT_COLUMNS.map((column) => sql.ref(`c.${column}`)));
  const { rows } = await sql<ContactRow>`select ${columns} from ${from} where ${sql.join(conditions, sql` and `)}
    order by c.last_message_at desc nulls last, c.id desc limit ${search.limit}`.execute(db);
  return rows;
}

/** Whether the substring index holds more matches than are worth fetching and sorting. */
async function matchesMany(db: Kysely<Database>, dialect: Dialect, workspaceId: string, needle: string) {
  const capped =
    dialect === 'sqlite'
      ? sql<{ n: number }>`select count(*) as n from (select rowid from contacts_search
          where contacts_search match ${ftsPhrase(needle)} limit ${INDEX_MATCH_LIMIT + 1})`
      : sql<{ n: number }>`select count(*) as n from (select 1 from contacts where workspace_id = ${workspaceId}
          and ${containsIgnoringCase('search_text', needle, { lowered: true })} limit ${INDEX_MATCH_LIMIT + 1}) as m`;
  const { rows } = await capped.execute(db);
  return Number(rows[0]?.n ?? 0) > INDEX_MATCH_LIMIT;
}

/** The substring test without an index, for a walk along the recency index. */
function scanMatch(dialect: Dialect, needle: string): RawBuilder<SqlBool> {
  if (dialect === 'postgres') return containsIgnoringCase('c.search_text', needle, { lowered: true });
  return sql<SqlBool>`(${containsIgnoringCase('c.name', needle)} or ${containsIgnoringCase('c.phone', needle)}
    or ${containsIgnoringCase('c.email', needle)})`;
}

/** An FTS5 phrase: with the trigram tokenizer, a quoted phrase matches as a substring. */
function ftsPhrase(needle: string): string {
  return `"${needle.replaceAll('"', '""')}"`;
}

/** A query that looks like a phone number is matched on its digits, as phones are stored in E.164. */
function searchNeedle(query: string): string {
  const digits = query.replace(/\D/g, '');
  return /^[\s\d+().-]+$/.test(query) && digits.length >= MIN_INDEXED_QUERY ? digits : query;
}
