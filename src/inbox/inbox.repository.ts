import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { saveConversationStates } from './conversation-state.js';
import { searchNeedle } from '../contacts/index.js';
import { containsIgnoringCase, escapeLike } from '../db/sql.js';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';

/**
 * Which conversations the inbox lists. `open`: not done, not snoozed, and the customer has written (a
 * campaign or sequence send alone does not open one); the others narrow `open`, except `done` and
 * `snoozed` (waiting for their time or the customer's next message) and `awaiting_approval` (an agent's
 * sends wait for a person, whatever the conversation's state).
 */
export const INBOX_FILTERS = [
  'open',
  'unread',
  'needs_person',
  'mine',
  'my_teams',
  'unassigned',
  'done',
  'snoozed',
  'awaiting_approval',
] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** How urgent a conversation is; `none` until someone says. */
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** What the list shows: a filter, optionally narrowed (number, label, priority, assignee, search). */
export interface ListQuery {
  filter: InboxFilter;
  /** The number the customer last wrote to. */
  channelId?: string | undefined;
  /** Name, phone or message text; searching looks at every conversation, done or outbound-only too. */
  search?: string | undefined;
  /** Conversations carrying this label. */
  labelId?: string | undefined;
  priority?: Priority | undefined;
  /** Conversations assigned to this member; null: to nobody. */
  assigneeId?: string | null | undefined;
  /** Only this contact's conversation, whatever its status (one conversation in the list's shape). */
  contactId?: string | undefined;
}

/** A position in a newest-first list: the row's time and id (ties broken by id). */
export interface Keyset {
  at: string;
  id: string;
}

/** Not done, or handed off after it was done (marking done clears the hand-off, so a new one reopens it). */
const notDone = sql<SqlBool>`(cv.done_at IS NULL OR c.handoff_at IS NOT NULL)`;
const snoozed = sql<SqlBool>`cv.snoozed_at IS NOT NULL`;
/** The customer wrote after the team last read the conversation. */
const hasUnread = sql<SqlBool>`EXISTS (SELECT 1 FROM messages m WHERE m.contact_id = c.id AND m.direction = 'inbound'
  AND (cv.read_at IS NULL OR m.created_at > cv.read_at))`;

/** Reads messages' held_sends: an agent's sends to the contact that wait for a person's approval. */
const awaitingApproval = sql<SqlBool>`EXISTS (SELECT 1 FROM held_sends h
  WHERE h.contact_id = c.id AND h.status = 'awaiting_approval')`;
/** The filters that are not a narrowing of `open`: each is a state of its own. */
const OWN_STATE: readonly InboxFilter[] = ['done', 'snoozed', 'awaiting_approval'];

/** The condition on contact `c` and conversation `cv` that puts a conversation in the list asked for. */
function listed(list: ListQuery, userId: string, dialect: Dialect): RawBuilder<SqlBool> {
  const { filter, search } = list;
  if (list.contactId) return sql<SqlBool>`c.id = ${list.contactId}`;
  const conditions: RawBuilder<SqlBool>[] = [];
  if (filter === 'done') conditions.push(sql<SqlBool>`NOT ${notDone}`);
  else if (filter === 'snoozed') conditions.push(snoozed);
  else if (filter === 'awaiting_approval') conditions.push(awaitingApproval);
  else conditions.push(notDone, sql<SqlBool>`NOT ${snoozed}`);
  // Outbound-only conversations (campaigns, sequences) wait outside the lists until the customer writes.
  if (!OWN_STATE.includes(filter) && !search) conditions.push(sql<SqlBool>`c.last_inbound_at IS NOT NULL`);
  if (filter === 'unread') conditions.push(hasUnread);
  if (filter === 'needs_person') conditions.push(sql<SqlBool>`c.handoff_at IS NOT NULL`);
  if (filter === 'mine') conditions.push(sql<SqlBool>`cv.assignee_id = ${userId}`);
  if (filter === 'unassigned') conditions.push(sql<SqlBool>`cv.assignee_id IS NULL`);
  // Reads routing's team_members: the teams the viewer is in.
  if (filter === 'my_teams') {
    conditions.push(sql<SqlBool>`cv.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = ${userId})`);
  }
  conditions.push(...narrowed(list, dialect));
  return sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
}

/** The list's optional narrowing: number, label, priority, assignee, search. */
function narrowed(list: ListQuery, dialect: Dialect): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (list.channelId) conditions.push(sql<SqlBool>`c.conversation_channel_id = ${list.channelId}`);
  if (list.labelId) {
    conditions.push(sql<SqlBool>`EXISTS (SELECT 1 FROM conversation_label_links l
      WHERE l.contact_id = c.id AND l.label_id = ${list.labelId})`);
  }
  // A conversation without a state row has no priority yet.
  if (list.priority === 'none') conditions.push(sql<SqlBool>`(cv.priority IS NULL OR cv.priority = 'none')`);
  else if (list.priority) conditions.push(sql<SqlBool>`cv.priority = ${list.priority}`);
  if (list.assigneeId === null) conditions.push(sql<SqlBool>`cv.assignee_id IS NULL`);
  else if (list.assigneeId) conditions.push(sql<SqlBool>`cv.assignee_id = ${list.assigneeId}`);
  if (list.search) conditions.push(matches(list.search, dialect));
  return conditions;
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
        .select(['cv.priority', 'cv.snoozed_at', 'cv.snoozed_until'])
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
          eb
            .selectFrom('held_sends as h')
            .select((e) => e.fn.countAll().as('n'))
            .whereRef('h.contact_id', '=', 'c.id')
            .where('h.status', '=', 'awaiting_approval')
            .as('awaiting_approval'),
        ])
        .where('c.workspace_id', '=', workspaceId)
        .where(() => listed(list, userId, dialect));
      if (!list.contactId) query = query.where('c.last_message_at', 'is not', null);
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

    /**
     * Messages by id, with their contact's phone (the message presenter's shape), looked up by the
     * primary key whatever the workspace's size. SQLite, knowing no table sizes, otherwise reads the
     * workspace's every message (through its provider-id index, or every contact's messages) on each
     * live event: the CROSS JOIN keeps messages the outer loop, and the workspace is checked on the
     * contact (a message's is its contact's). PostgreSQL plans it as the inner join it is.
     */
    messagesByIds: (workspaceId: string, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('messages as m')
            .crossJoin('contacts as c')
            .whereRef('c.id', '=', 'm.contact_id')
            .selectAll('m')
            .select('c.phone as contact_phone')
            .$narrowType<{ contact_id: string }>()
            .where('c.workspace_id', '=', workspaceId)
            .where('m.id', 'in', ids)
            .execute(),

    /** A contact's messages before a position, newest first (the messages_contact index). */
    thread(workspaceId: string, contactId: string, before: Keyset | null, limit: number) {
      let query = db
        .selectFrom('messages as m')
        .innerJoin('contacts as c', 'c.id', 'm.contact_id')
        .selectAll('m')
        .select('c.phone as contact_phone')
        .$narrowType<{ contact_id: string }>()
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
        .select([
          'cv.read_at',
          'cv.done_at',
          'cv.assignee_id',
          'cv.team_id',
          'cv.priority',
          'cv.snoozed_at',
          'cv.snoozed_until',
        ])
        .where('c.workspace_id', '=', workspaceId)
        .where('c.id', '=', contactId)
        .executeTakeFirst(),

    /**
     * The ids of every conversation a list shows (a bulk action "on all matching"), newest first, at
     * most `cap`: the same condition as the list, without its per-row counts.
     */
    async matchingIds(workspaceId: string, userId: string, list: ListQuery, cap: number): Promise<string[]> {
      const rows = await db
        .selectFrom('contacts as c')
        .leftJoin('conversations as cv', 'cv.contact_id', 'c.id')
        .select('c.id')
        .where('c.workspace_id', '=', workspaceId)
        .where('c.last_message_at', 'is not', null)
        .where(() => listed(list, userId, dialect))
        .limit(cap)
        .execute();
      return rows.map((row) => row.id);
    },

    /** The state of the workspace's conversations with these contacts (unknown ids are absent). */
    states: (workspaceId: string, contactIds: string[]) =>
      contactIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('contacts as c')
            .leftJoin('conversations as cv', 'cv.contact_id', 'c.id')
            .select(['c.id', 'c.name', 'c.phone', 'c.handoff_at'])
            .select(['cv.done_at', 'cv.assignee_id', 'cv.priority', 'cv.snoozed_at', 'cv.snoozed_until'])
            .where('c.workspace_id', '=', workspaceId)
            .where('c.id', 'in', contactIds)
            .execute(),

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
    saveState: (workspaceId: string, contactId: string, fields: StateFields, at: string) =>
      saveConversationStates(db, workspaceId, [contactId], fields, at),

    /** The same state fields on many conversations at once (a bulk action). */
    saveStates: (workspaceId: string, contactIds: string[], fields: StateFields, at: string) =>
      saveConversationStates(db, workspaceId, contactIds, fields, at),

    /** A new inbound message reopens its conversations and ends their snoozes (in the transaction that stores it). */
    async reopen(workspaceId: string, contactIds: string[], at: string): Promise<void> {
      if (contactIds.length === 0) return;
      await db
        .updateTable('conversations')
        .set({ done_at: null, snoozed_at: null, snoozed_until: null, updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', 'in', contactIds)
        .where((eb) => eb.or([eb('done_at', 'is not', null), eb('snoozed_at', 'is not', null)]))
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

/** The conversation state a change may write. */
export interface StateFields {
  read_at?: string;
  assignee_id?: string | null;
  done_at?: string | null;
  priority?: Priority;
  snoozed_at?: string | null;
  snoozed_until?: string | null;
}
