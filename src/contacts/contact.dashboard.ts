import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { can, type Role } from '../access/roles.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { messageText } from '../content/message-text.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp } from '../shared/time.js';
import { tagRepository } from '../tags/index.js';
import { presentContact } from './contact.presenter.js';
import { contactRepository, type ContactRow } from './contact.repository.js';
import type { Contact } from './contact.schema.js';
import { searchContacts, type ContactSearch, type Recency } from './contact.search.js';
import { contactProblems } from './contact.problems.js';

/** What the contacts table filters on: the same query and tag search-contacts takes. */
export interface ContactFilter {
  query?: string | undefined;
  tag?: string | undefined;
}

/** A position in the table's order (latest message first, never-messaged last, then id). */
interface Cursor {
  lastMessageAt: string | null;
  id: string;
}

export interface ContactPage {
  contacts: Contact[];
  /** Opaque keyset cursor for the next page; null on the last page. */
  next: string | null;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RECENT_MESSAGES = 50;

/** The cursor as the client carries it: base64url of `[last_message_at, id]`. */
export function encodeCursor(row: Pick<ContactRow, 'last_message_at' | 'id'>): string {
  const at = row.last_message_at === null ? null : new Date(row.last_message_at).toISOString();
  return Buffer.from(JSON.stringify([at, row.id])).toString('base64url');
}

function decodeCursor(value: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString());
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [at, id] = parsed as unknown[];
      if ((at === null || (typeof at === 'string' && TIMESTAMP.test(at))) && typeof id === 'string' && UUID.test(id)) {
        return { lastMessageAt: at, id };
      }
    }
  } catch {
    // falls through to the validation error
  }
  throw errors.invalid(contactProblems.problem('after', 'not_a_cursor'));
}

/** The dashboard's contact views: keyset pages, the export's batches and a contact's activity. */
export function createContactDashboardService({ db, reads, dialect }: Deps) {
  /** The search filters, or null when the tag does not exist (nothing can match). */
  async function resolveFilter(caller: Caller, filter: ContactFilter): Promise<Omit<ContactSearch, 'limit'> | null> {
    const query = filter.query?.trim();
    const tagName = filter.tag?.trim();
    let tagId: string | undefined;
    if (tagName) {
      const tag = await tagRepository(db).findByName(caller.workspaceId, tagName);
      if (!tag) return null;
      tagId = tag.id;
    }
    return { workspaceId: caller.workspaceId, ...(query && { query }), ...(tagId && { tagId }) };
  }

  /**
   * Up to `limit + 1` rows after the cursor. Messaged and never-messaged contacts are read as two
   * ranges, so each is a plain range on the recency index rather than one OR the planners cannot use.
   */
  async function rowsAfter(search: Omit<ContactSearch, 'limit'>, after: Cursor | null, limit: number) {
    const rows: ContactRow[] = [];
    if (!after || after.lastMessageAt !== null) {
      const where = ({ lastMessageAt: at, id }: Recency): RawBuilder<SqlBool> =>
        after
          ? sql`${at} is not null and (${at}, ${id}) < (${after.lastMessageAt}, ${after.id})`
          : sql`${at} is not null`;
      rows.push(...(await searchContacts(reads, dialect, { ...search, where, limit: limit + 1 })));
    }
    if (rows.length <= limit) {
      const where = ({ lastMessageAt: at, id }: Recency): RawBuilder<SqlBool> =>
        after?.lastMessageAt === null ? sql`${at} is null and ${id} < ${after.id}` : sql`${at} is null`;
      rows.push(...(await searchContacts(reads, dialect, { ...search, where, limit: limit + 1 - rows.length })));
    }
    return rows;
  }

  async function withTags(rows: ContactRow[]): Promise<Contact[]> {
    const tags = await contactRepository(reads).tagNames(rows.map((row) => row.id));
    return rows.map((row) => presentContact(row, tags.get(row.id) ?? []));
  }

  /** The campaigns that messaged the contact (newest first) and how far each message got. */
  async function campaignHistory(workspaceId: string, contactId: string) {
    const rows = await db
      .selectFrom('messages as m')
      .innerJoin('campaigns as k', 'k.id', 'm.campaign_id')
      .select(['k.id', 'k.name', 'm.status', 'm.created_at'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.contact_id', '=', contactId)
      .where('m.campaign_id', 'is not', null)
      .orderBy('m.created_at', 'desc')
      .limit(100)
      .execute();
    return rows.map(({ id, name, status, created_at }) => ({ id, name, status, sent_at: formatTimestamp(created_at) }));
  }

  /** Every matching contact, in keyset batches, so an export never holds the whole set. */
  async function* all(caller: Caller, filter: ContactFilter, batchSize = 1000): AsyncGenerator<Contact[]> {
    const search = await resolveFilter(caller, filter);
    if (!search) return;
    let cursor: Cursor | null = null;
    for (;;) {
      const rows = await rowsAfter(search, cursor, batchSize);
      const batch = rows.slice(0, batchSize);
      if (batch.length > 0) yield await withTags(batch);
      const last = batch.at(-1);
      if (rows.length <= batchSize || !last) return;
      cursor = { lastMessageAt: last.last_message_at && new Date(last.last_message_at).toISOString(), id: last.id };
    }
  }

  return {
    /** One page of the contacts table, latest conversation first. */
    async page(caller: Caller, filter: ContactFilter, after: string | undefined, limit: number): Promise<ContactPage> {
      const cursor = after ? decodeCursor(after) : null;
      const search = await resolveFilter(caller, filter);
      if (!search) return { contacts: [], next: null };
      const rows = await rowsAfter(search, cursor, limit);
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return { contacts: await withTags(shown), next: rows.length > limit && last ? encodeCursor(last) : null };
    },

    all,

    /** The custom attribute keys of every matching contact, sorted: the export's attribute columns. */
    async attributeKeys(caller: Caller, filter: ContactFilter): Promise<string[]> {
      // The whole workspace's keys come from one query; a filtered export reads its contacts for them.
      if (!filter.query?.trim() && !filter.tag?.trim())
        return contactRepository(db).attributeKeys(dialect, caller.workspaceId);
      const keys = new Set<string>();
      for await (const batch of all(caller, filter)) {
        for (const contact of batch) for (const key of Object.keys(contact.custom_attributes)) keys.add(key);
      }
      return [...keys].sort();
    },

    /**
     * A contact's recent messages (newest last), the sequences and flows it is or was in, its
     * campaigns. The messages are conversation content: a role without the inbox gets none.
     */
    async activity(caller: Caller & { role: Role }, contactId: string) {
      const contact = await contactRepository(db).findById(caller.workspaceId, contactId.toLowerCase());
      if (!contact) throw errors.notFound('contact', 'id');
      const withMessages = can(caller.role, 'conversations');
      const [messages, enrolments, runs, campaigns] = await Promise.all([
        db
          .selectFrom('messages')
          .select(['id', 'direction', 'type', 'status', 'content', 'created_at'])
          .where('workspace_id', '=', caller.workspaceId)
          .where('contact_id', '=', contact.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(withMessages ? RECENT_MESSAGES : 0)
          .execute(),
        db
          .selectFrom('sequence_enrolments as e')
          .innerJoin('sequences as s', 's.id', 'e.sequence_id')
          .select([
            'e.id',
            's.id as definition_id',
            's.name',
            'e.status',
            'e.ended_reason',
            'e.created_at',
            'e.updated_at',
          ])
          .where('e.workspace_id', '=', caller.workspaceId)
          .where('e.contact_id', '=', contact.id)
          .orderBy('e.created_at', 'desc')
          .limit(100)
          .execute(),
        db
          .selectFrom('flow_runs as r')
          .innerJoin('flows as f', 'f.id', 'r.flow_id')
          .select([
            'r.id',
            'f.id as definition_id',
            'f.name',
            'r.status',
            'r.ended_reason',
            'r.created_at',
            'r.updated_at',
          ])
          .where('r.workspace_id', '=', caller.workspaceId)
          .where('r.contact_id', '=', contact.id)
          .orderBy('r.created_at', 'desc')
          .limit(100)
          .execute(),
        campaignHistory(caller.workspaceId, contact.id),
      ]);
      const presentRun = (row: (typeof enrolments)[number]) => ({
        id: row.id,
        definition_id: row.definition_id,
        name: row.name,
        status: row.status,
        ended_reason: row.ended_reason,
        started_at: formatTimestamp(row.created_at),
        updated_at: formatTimestamp(row.updated_at),
      });
      return {
        messages: messages.reverse().map((row) => ({
          id: row.id,
          direction: row.direction,
          type: row.type,
          status: row.status,
          text: messageText(row.type, JSON.parse(row.content) as Record<string, unknown>),
          created_at: formatTimestamp(row.created_at),
        })),
        sequences: enrolments.map(presentRun),
        flows: runs.map(presentRun),
        campaigns,
      };
    },
  };
}

export type ContactDashboardService = ReturnType<typeof createContactDashboardService>;
