import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../db/connection.js';
import { DIGIT_GRAM_LENGTH, digitGramQuery } from '../db/digit-grams.js';
import type { Database } from '../db/schema.js';
import { containsIgnoringCase } from '../db/sql.js';
import { PRESENTED_COLUMNS } from './contact.presenter.js';
import { CONTACT_COLUMNS, TAG_NAMES_JSON, type ContactRow, type ShownContactRow } from './contact.repository.js';

export interface ContactSearch {
  workspaceId: string;
  /** Substring of name, phone or email; already trimmed, never empty when present. */
  query?: string;
  tagId?: string;
  email?: string;
  /** A further condition on the recency order's columns (the dashboard's keyset position). */
  where?: (recency: Recency) => RawBuilder<SqlBool>;
  limit: number;
}

/** The columns a search is ordered by, newest conversation first: the contact's, or its tag link's copy. */
export interface Recency {
  lastMessageAt: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
}

const CONTACT_RECENCY: Recency = { lastMessageAt: sql.ref('c.last_message_at'), id: sql.ref('c.id') };
/** A tag's links carry their contact's last_message_at (migration 0028), indexed in this order per tag. */
const TAG_LINK_RECENCY: Recency = { lastMessageAt: sql.ref('ct.last_message_at'), id: sql.ref('ct.contact_id') };

/** The selected columns, built once: composing them per search shows in profiles. */
const COLUMNS = sql.join(CONTACT_COLUMNS.map((column) => sql.ref(`c.${column}`)));
/** Only what the API shows, for pages of up to 500 contacts: reading each value costs, per row. */
const PAGE_COLUMNS = sql.join(PRESENTED_COLUMNS.map((column) => sql.ref(`c.${column}`)));

/** Trigram indexes need three characters; shorter queries walk the recency index instead. */
const MIN_INDEXED_QUERY = 3;
/**
 * Past this many index matches, fetching and sorting them all costs more than walking the
 * recency index until the page is full. Measured on SQLite with a million contacts: fetching costs
 * ~1.7 µs a match, walking ~0.4 µs a contact, and a walk reads about 50 · contacts / matches of
 * them, so both cost ~5 ms at ~3,000 matches; the bound sits below that because counting costs too.
 */
const INDEX_MATCH_LIMIT = 2000;
/**
 * With a substring tested contact by contact, the tag's links are the better walk only while they are
 * few: each link's contact is read out of order (~3 µs), where the recency index carrying search_text is
 * read in order (~0.4 µs a contact, testing the tag on each). A tag of 60 % with a common fragment:
 * 279 ms p99 along its links at 1,000,000 contacts.
 */
const TAG_LINK_LIMIT_WITH_QUERY = 20_000;

/**
 * search-contacts: filters AND together; newest conversation first, never-messaged last.
 * Substring matching uses an index on each engine: FTS5 (SQLite: trigrams of name and email,
 * 4-digit grams of every field's digits), pg_trgm (PostgreSQL). A rare substring is found through that index
 * and its matches sorted; a common one (or one too short for the index) is tested contact by
 * contact along the recency index, which carries the lower-cased `search_text`, until the page is full.
 */
export async function searchContacts(
  db: Kysely<Database>,
  dialect: Dialect,
  search: ContactSearch,
): Promise<ContactRow[]> {
  if (dialect === 'postgres' && worthTestingNewestFirst(search.query) && !search.tagId && !search.email) {
    const newest = await newestMatches(db, { ...search, query: search.query });
    if (newest.length === search.limit) return newest;
  }
  const plan = await searchPlan(db, dialect, search);
  let { from } = plan;
  const { conditions } = plan;
  let recency = CONTACT_RECENCY;
  if (search.tagId && !plan.fromIndexMatches && (!search.query || (await fewTagLinksToTest(db, dialect, search)))) {
    // Along the tag's links in recency order (contact_tags_recent): the walk stops when the page is full.
    // CROSS JOIN fixes SQLite's join order.
    from = sql`contact_tags ct cross join contacts c`;
    recency = TAG_LINK_RECENCY;
    conditions.push(sql`ct.tag_id = ${search.tagId}`, sql`c.id = ct.contact_id`);
  } else if (search.tagId) {
    conditions.push(taggedWith(dialect, search.tagId));
  }
  if (search.where) conditions.push(search.where(recency));
  const order = sql`order by ${recency.lastMessageAt} desc nulls last, ${recency.id} desc limit ${search.limit}`;
  const where = sql.join(conditions, sql` and `);
  if (dialect === 'postgres' && search.query && recency === CONTACT_RECENCY) {
    // The page's ids first, then only their rows: contacts_recent INCLUDEs search_text, so a walk along it tests
    // each contact without reading its row (an index-only scan). Reading every walked row: 17 ms instead of 2 for
    // a name of 1 % at 1,000,000 contacts.
    return rowsInOrder(db, sql`select c.id from ${from} where ${where} ${order}`, order);
  }
  const { rows } = await sql<ContactRow>`select ${COLUMNS} from ${from} where ${where} ${order}`.execute(db);
  return rows;
}

/** How many of the newest contacts a PostgreSQL search by substring alone tests before the planner chooses. */
const NEWEST_TESTED = 20_000;
/**
 * Whether the NEWEST_TESTED newest contacts are worth testing first: not for a run of more than 4 digits,
 * a piece of a phone number, which few contacts share ("942-000", two matches: 948 searches a second from
 * pg_trgm's index, 333 when the newest were tested first). The planner's own choice for a longer name was
 * no safer than for a short one: "kowal" took the index-only walk on one dataset (440 a second) and
 * pg_trgm's index on another (118 a second, all 9,741 matches read and sorted).
 */
const worthTestingNewestFirst = (query: string | undefined): query is string =>
  query !== undefined && !/^\d{5,}$/.test(searchNeedle(query));

/**
 * PostgreSQL, a substring alone: the newest contacts holding it among the NEWEST_TESTED newest of the
 * workspace, by an index-only scan of contacts_recent (it INCLUDEs search_text; a few ms at most): a fragment
 * held by 0.25 % of the contacts or more fills its page here; a rarer one goes on to the planner's choice.
 * Left to itself, the planner took that index for 4-letter fragments whatever their count (28 ms for one of
 * 0.5 % at 1,000,000 contacts: every match read, then sorted). At 1,000,000 contacts, the benchmark's 3–4
 * letter fragments: 416 searches a second with 20,000 tested, 258 with 10,000, 156 without this step. SQLite
 * has no such step: its walk sorts what it tests (3 ms for 10,000 contacts), so it counts the fragment's
 * full-text matches first (searchPlan).
 */
async function newestMatches(db: Kysely<Database>, search: ContactSearch & { query: string }): Promise<ContactRow[]> {
  const order = sql`order by c.last_message_at desc nulls last, c.id desc limit ${search.limit}`;
  const recent = search.where ? sql`and ${search.where(CONTACT_RECENCY)}` : sql``;
  const newest = sql`select c.id, c.search_text, c.last_message_at from contacts c
    where c.workspace_id = ${search.workspaceId} ${recent}
    order by c.last_message_at desc nulls last, c.id desc limit ${NEWEST_TESTED}`;
  return rowsInOrder(db, sql`select c.id from (${newest}) c where ${substringTest(search.query)} ${order}`, order);
}

/** The contacts with the ids `ids` selects, in `order`. */
async function rowsInOrder(db: Kysely<Database>, ids: RawBuilder<unknown>, order: RawBuilder<unknown>) {
  const { rows } = await sql<ContactRow>`select ${COLUMNS} from contacts c where c.id in (${ids}) ${order}`.execute(db);
  return rows;
}

/**
 * search-contacts in id order, after `afterId` (cursor pagination): ids never change, so paging
 * along them meets every contact once while others are added or updated. Each case reads a range
 * of an index in id order: the few matches of a rare substring (sorted), the tag's links
 * (contact_tags_tag), or the workspace's id index (contacts_workspace_id, which on SQLite also
 * carries `search_text` for the substring test).
 */
export async function searchContactsById(
  db: Kysely<Database>,
  dialect: Dialect,
  search: Omit<ContactSearch, 'where'> & { afterId: string | null },
): Promise<ShownContactRow[]> {
  const plan = await searchPlan(db, dialect, search);
  let { from } = plan;
  const { conditions } = plan;
  let key = sql.ref('c.id');
  if (search.tagId && !plan.fromIndexMatches) {
    // CROSS JOIN fixes SQLite's join order: along the tag's links, in contact id order.
    from = sql`contact_tags ct cross join contacts c`;
    key = sql.ref('ct.contact_id');
    conditions.push(sql`ct.tag_id = ${search.tagId}`, sql`c.id = ct.contact_id`);
  } else if (search.tagId) {
    conditions.push(taggedWith(dialect, search.tagId));
  }
  if (search.afterId !== null) conditions.push(sql`${key} > ${search.afterId}`);
  const { rows } = await sql<ShownContactRow>`select ${PAGE_COLUMNS}, ${TAG_NAMES_JSON[dialect]} as tag_names
    from ${from} where ${sql.join(conditions, sql` and `)} order by ${key} limit ${search.limit}`.execute(db);
  return rows;
}

/**
 * The contact holds the tag. On SQLite the LIMIT keeps the EXISTS a per-contact probe: flattened into
 * a join, it got a Bloom filter built from all of the tag's links before the walk began (a tag of
 * 60 % of 200,000 contacts: 38 ms instead of 0.1 ms).
 */
const taggedWith = (dialect: Dialect, tagId: string) =>
  dialect === 'sqlite'
    ? sql<SqlBool>`exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id = ${tagId} limit 1)`
    : sql<SqlBool>`exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id = ${tagId})`;

/** SQLite: whether the tag has at most TAG_LINK_LIMIT_WITH_QUERY links. PostgreSQL's planner chooses itself. */
async function fewTagLinksToTest(db: Kysely<Database>, dialect: Dialect, search: Pick<ContactSearch, 'tagId'>) {
  if (dialect !== 'sqlite') return false;
  // INDEXED BY: with two or three tags in the statistics, SQLite would rather scan every link.
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from contact_tags
    indexed by contact_tags_tag where tag_id = ${search.tagId} limit ${TAG_LINK_LIMIT_WITH_QUERY + 1})`.execute(db);
  return (rows[0]?.n ?? 0) <= TAG_LINK_LIMIT_WITH_QUERY;
}

/**
 * The contacts a search reads and the conditions on them, whatever the order: the workspace, the
 * email, and the substring, either as the few matches SQLite's full-text indexes give (then
 * `fromIndexMatches`) or as a test of each contact's `search_text`.
 */
async function searchPlan(
  db: Kysely<Database>,
  dialect: Dialect,
  search: Pick<ContactSearch, 'workspaceId' | 'query' | 'email'>,
): Promise<{ from: RawBuilder<unknown>; conditions: RawBuilder<SqlBool>[]; fromIndexMatches: boolean }> {
  const conditions: RawBuilder<SqlBool>[] = [sql`c.workspace_id = ${search.workspaceId}`];
  if (search.email) conditions.push(sql`lower(c.email) = ${search.email.toLowerCase()}`);
  if (!search.query) return { from: sql`contacts c`, conditions, fromIndexMatches: false };
  const needle = searchNeedle(search.query).toLowerCase();
  const contains = substringTest(search.query);
  const candidates = dialect === 'sqlite' ? sqliteIndexCandidates(needle) : null;
  const keys = candidates && (await fewCandidateKeys(db, candidates.keys));
  if (!keys) {
    // PostgreSQL's planner picks between pg_trgm's index and a walk of the order's index itself.
    conditions.push(contains);
    return { from: sql`contacts c`, conditions, fromIndexMatches: false };
  }
  // CROSS JOIN fixes SQLite's join order: start from the (few) index matches, then sort them.
  conditions.push(sql`c.seq = m.value`);
  if (candidates.recheck) conditions.push(contains);
  return { from: sql`json_each(${JSON.stringify(keys)}) m cross join contacts c`, conditions, fromIndexMatches: true };
}

/**
 * The contacts SQLite's full-text indexes say contain `needle` (null: no index applies): a run of
 * digits through the 4-digit grams of every field, anything else through the trigrams of name and
 * email. Gram candidates are rechecked, as a text holding every gram need not hold them in order.
 */
function sqliteIndexCandidates(needle: string): { keys: RawBuilder<unknown>; recheck: boolean } | null {
  if (/^\d+$/.test(needle) && needle.length >= DIGIT_GRAM_LENGTH) {
    const keys = sql`select rowid as seq from contacts_digit_grams where contacts_digit_grams match ${digitGramQuery(needle)}`;
    return { keys, recheck: true };
  }
  // Phones are only in the gram index: a shorter run of digits (or a bare "+") walks instead.
  if (needle.length < MIN_INDEXED_QUERY || /^\+?\d*$/.test(needle)) return null;
  return {
    keys: sql`select rowid as seq from contacts_search where contacts_search match ${ftsPhrase(needle)}`,
    recheck: false,
  };
}

/**
 * The index's matches, or null when there are more than are worth fetching and sorting. They come
 * back as one JSON array, as thousands of one-column rows would cost more to hand over than to find.
 */
async function fewCandidateKeys(db: Kysely<Database>, matches: RawBuilder<unknown>): Promise<number[] | null> {
  const { rows } = await sql<{ n: number; keys: string }>`select count(*) as n, json_group_array(seq) as keys
    from (${matches} limit ${INDEX_MATCH_LIMIT + 1})`.execute(db);
  const row = rows[0];
  return !row || row.n > INDEX_MATCH_LIMIT ? null : (JSON.parse(row.keys) as number[]);
}

/** An FTS5 phrase: with the trigram tokenizer, a quoted phrase matches as a substring. */
function ftsPhrase(needle: string): string {
  return `"${needle.replaceAll('"', '""')}"`;
}

/** The contact (`c`) holds the query in its name, phone or email. */
const substringTest = (query: string) =>
  containsIgnoringCase('c.search_text', searchNeedle(query).toLowerCase(), { lowered: true });

/** A query that looks like a phone number is matched on its digits, as phones are stored in E.164. */
export function searchNeedle(query: string): string {
  const digits = query.replace(/\D/g, '');
  return /^[\s\d+().-]+$/.test(query) && digits.length >= MIN_INDEXED_QUERY ? digits : query;
}
