import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { searchNeedle } from '../contacts/contact.search.js';
import { containsIgnoringCase, escapeLike } from '../db/sql.js';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';

/**
 * Which conversations the inbox lists. `open`: not done, and the customer has written (a campaign or
 * sequence send alone does not open one); the others narrow `open`, except `done`.
 */
export const INBOX_FILTERS = ['open', 'unread', 'needs_person', 'mine', 'my_teams', 'unassigned', 'done'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** What the list shows: a filter, optionally one number's conversations, optionally a search. */
export interface ListQuery {
  filter: InboxFilter;
  /** The number the customer last wrote to. */
  channelId?: string | undefined;
  /** Name, phone or message text; searching looks at every conversation, done or outbound-only too. */
  search?: string | undefined;
}

/** A position in a newest-first list: the row's time and id (ties broken by id). */
export interface Keyset {
  at: string;
  id: string;
}

/** Not done, or handed off after it was done (marking done clears the hand-off, so a new one reopens it). */
const notDone = sql<SqlBool>`(cv.done_at IS NULL OR c.handoff_at IS NOT NULL)`;
/** The customer wrote after the team last read the conversation. */
const hasUnread = sql<SqlBool>`EXISTS (SELECT 1 FROM messages m WHERE m.contact_id = c.id AND m.direction = 'inbound'
  AND (cv.read_at IS NULL OR m.created_at > cv.read_at))`;

/** The condition on contact `c` and conversation `cv` that puts a conversation in the list asked for. */
function listed({ filter, channelId, search }: ListQuery, userId: string, dialect: Dialect): RawBuilder<SqlBool> {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (filter === 'done') conditions.push(sql<SqlBool>`NOT ${notDone}`);
  else conditions.push(notDone);
  // Outbound-only conversations (campaigns, sequences) wait outside the lists until the customer writes.
  if (filter !== 'done' && !search) conditions.push(sql<SqlBool>`c.last_inbound_at IS NOT NULL`);
  if (filter === 'unread') conditions.push(hasUnread);
  if (filter === 'needs_person') conditions.push(sql<SqlBool>`c.handoff_at IS NOT NULL`);
  if (filter === 'mine') conditions.push(sql<SqlBool>`cv.assignee_id = ${userId}`);
  if (filter === 'unassigned') conditions.push(sql<SqlBool>`cv.assignee_id IS NULL`);
  // Reads routing's team_members: the teams the viewer is in.
  if (filter === 'my_teams') {
    conditions.push(sql<SqlBool>`cv.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = ${userId})`);
  }
  if (channelId) conditions.push(sql<SqlBool>`c.conversation_channel_id = ${channelId}`);
  if (search) conditions.push(matches(search, dialect));
  return sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
}

/** The contact's name, phone or email, or the text of one of their messages (text, template, caption), contains the search. */
function matches(search: string, dialect: Dialect): RawBuilder<SqlBool> {
  const field = (name: string) =>
    dialect === 'postgres' ? sql`(m.content::jsonb ->> ${name})` : sql`json_extract(m.content, ${`$.${name}`})`;
  const text = sql`lower(coalesce(${field('body')}, ${field('text')}, ${field('caption')}, ''))`;
  const pattern = `%${escapeLike(search.toLowerCase())}%`;
  return sql<SqlBool>`(${containsIgnoringCase('c.search_text', searchNeedle(search).toLowerCase(), { lowered: true })}
    OR EXISTS (SELECT 1 FROM messages m WHERE m.contact_id = c.id AND ${text} LIKE ${pattern} ESCAPE '\\'))`;
}

/** SQL for the inbox: conversations are contacts with messages, plus their `conversations` state row. */
export function inboxRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * One page of conversations, latest message first (the contacts_recent index), with the unread
     * count (inbound messages after read_at) and the id of the latest message.
     */
    listConversations(workspaceId: string, userId: string, list: ListQuery, before: Keyset | null, limit: number) {
      let query = db
        .selectFrom('contacts as c')
        .leftJoin('conversations as cv', 'cv.contact_id', 'c.id')
        .leftJoin('users as u', 'u.id', 'cv.assignee_id')
        .leftJoin('teams as t', 't.id', 'cv.team_id')
        .select(['c.id', 'c.name', 'c.phone', 'c.last_message_at', 'c.last_inbound_at', 'c.handoff_at'])
        .select(['cv.read_at', 'cv.done_at', 'cv.assignee_id', 'u.name as assignee_name', 'u.email as assignee_email'])
        .select(['cv.team_id', 't.name as team_name'])
        .select((eb) => [
          eb
            .selectFrom('messages as m')
            .select((e) => e.fn.countAll().as('n'))
            .whereRef('m.contact_id', '=', 'c.id')
            .where('m.direction', '=', 'inbound')
            .where((e) => e.or([e('cv.read_at', 'is', null), e('m.created_at', '>', e.ref('cv.read_at'))]))
            .as('unread'),
          eb
            .selectFrom('messages as m')
            .select('m.id')
            .whereRef('m.contact_id', '=', 'c.id')
            .orderBy('m.created_at', 'desc')
            .orderBy('m.id', 'desc')
            .limit(1)
            .as('last_message_id'),
        ])
        .where('c.workspace_id', '=', workspaceId)
        .where('c.last_message_at', 'is not', null)
        .where(() => listed(list, userId, dialect));
      if (before) {
        query = query.where((eb) =>
          eb.or([
            eb('c.last_message_at', '<', before.at),
            eb.and([eb('c.last_message_at', '=', before.at), eb('c.id', '<', before.id)]),
          ]),
        );
      }
      // The index stores PostgreSQL's NULLS LAST (SQLite's DESC already puts NULLs last).
      const recency = dialect === 'postgres' ? sql`c.last_message_at DESC NULLS LAST` : sql`c.last_message_at DESC`;
      return query.orderBy(recency).orderBy('c.id', 'desc').limit(limit).execute();
    },

    /** How many open conversations have messages the team has not read (the navigation's badge). */
    async unreadConversations(workspaceId: string): Promise<number> {
      const row = await db
        .selectFrom('contacts as c')
        .leftJoin('conversations as cv', 'cv.contact_id', 'c.id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('c.workspace_id', '=', workspaceId)
        .where(() => listed({ filter: 'unread' }, '', dialect))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Messages by id, with their contact's phone (the message presenter's shape). */
    messagesByIds: (workspaceId: string, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('messages as m')
            .innerJoin('contacts as c', 'c.id', 'm.contact_id')
            .selectAll('m')
            .select('c.phone as contact_phone')
            .where('m.workspace_id', '=', workspaceId)
            .where('m.id', 'in', ids)
            .execute(),

    /** A contact's messages before a position, newest first (the messages_contact index). */
    thread(workspaceId: string, contactId: string, before: Keyset | null, limit: number) {
      let query = db
        .selectFrom('messages as m')
        .innerJoin('contacts as c', 'c.id', 'm.contact_id')
        .selectAll('m')
        .select('c.phone as contact_phone')
        .where('m.contact_id', '=', contactId)
        .where('m.workspace_id', '=', workspaceId);
      if (before) {
        query = query.where((eb) =>
          eb.or([
            eb('m.created_at', '<', before.at),
            eb.and([eb('m.created_at', '=', before.at), eb('m.id', '<', before.id)]),
          ]),
        );
      }
      return query.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
    },

    contact: (workspaceId: string, contactId: string) =>
      db
        .selectFrom('contacts as c')
        .leftJoin('conversations as cv', 'cv.contact_id', 'c.id')
        .select([
          'c.id',
          'c.name',
          'c.phone',
          'c.email',
          'c.custom_attributes',
          'c.opted_out_at',
          'c.last_inbound_at',
          'c.window_closed_at',
          'c.handoff_at',
        ])
        .select(['cv.read_at', 'cv.done_at', 'cv.assignee_id', 'cv.team_id'])
        .where('c.workspace_id', '=', workspaceId)
        .where('c.id', '=', contactId)
        .executeTakeFirst(),

    /** The newest inbound message's time: reading a thread reads up to it. */
    /** The contact's latest message to the business: when Parley recorded it, and the channel's id. */
    newestInbound: (contactId: string) =>
      db
        .selectFrom('messages')
        .select(['created_at', 'provider_message_id', 'channel_id'])
        .where('contact_id', '=', contactId)
        .where('direction', '=', 'inbound')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst(),

    members: (workspaceId: string) =>
      db
        .selectFrom('users')
        .select(['id', 'name', 'email'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('name')
        .orderBy('email')
        .execute(),

    /** Writes the given inbox state fields, creating the conversation row on first use. */
    async saveState(
      workspaceId: string,
      contactId: string,
      fields: { read_at?: string; assignee_id?: string | null; done_at?: string | null },
      at: string,
    ): Promise<void> {
      await db
        .insertInto('conversations')
        .values({
          contact_id: contactId,
          workspace_id: workspaceId,
          read_at: null,
          assignee_id: null,
          done_at: null,
          ...fields,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('contact_id').doUpdateSet({ ...fields, updated_at: at }))
        .execute();
    },

    /** A new inbound message reopens its conversations (in the transaction that stores it). */
    async reopen(workspaceId: string, contactIds: string[], at: string): Promise<void> {
      if (contactIds.length === 0) return;
      await db
        .updateTable('conversations')
        .set({ done_at: null, updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', 'in', contactIds)
        .where('done_at', 'is not', null)
        .execute();
    },

    async clearHandoff(workspaceId: string, contactId: string, at: string): Promise<void> {
      await db
        .updateTable('contacts')
        .set({ handoff_at: null, updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', contactId)
        .execute();
    },

    /** Whether opening a conversation shows the customer a typing indicator (off without a settings row). */
    async typingIndicator(workspaceId: string): Promise<boolean> {
      const row = await db
        .selectFrom('inbox_settings')
        .select('typing_indicator')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return row?.typing_indicator === 1;
    },

    async saveTypingIndicator(workspaceId: string, on: boolean, at: string): Promise<void> {
      const fields = { typing_indicator: on ? 1 : 0, updated_at: at };
      await db
        .insertInto('inbox_settings')
        .values({ workspace_id: workspaceId, ...fields })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(fields))
        .execute();
    },
  };
}
