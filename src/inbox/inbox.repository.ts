import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';

/** Which conversations the inbox lists: not done, done, or not done and assigned to the viewer. */
export type InboxFilter = 'open' | 'done' | 'mine';

/** A position in a newest-first list: the row's time and id (ties broken by id). */
export interface Keyset {
  at: string;
  id: string;
}

/** SQL for the inbox: conversations are contacts with messages, plus their `conversations` state row. */
export function inboxRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * One page of conversations, latest message first (the contacts_recent index), with the unread
     * count (inbound messages after read_at) and the id of the latest message.
     */
    listConversations(workspaceId: string, userId: string, filter: InboxFilter, before: Keyset | null, limit: number) {
      let query = db
        .selectFrom('contacts as c')
        .leftJoin('conversations as cv', 'cv.contact_id', 'c.id')
        .leftJoin('users as u', 'u.id', 'cv.assignee_id')
        .select(['c.id', 'c.name', 'c.phone', 'c.last_message_at', 'c.last_inbound_at', 'c.handoff_at'])
        .select(['cv.read_at', 'cv.done_at', 'cv.assignee_id', 'u.name as assignee_name', 'u.email as assignee_email'])
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
        .where('c.last_message_at', 'is not', null);
      // A hand-off after the conversation was done (marking done clears it) reopens the conversation.
      if (filter === 'done') query = query.where('cv.done_at', 'is not', null).where('c.handoff_at', 'is', null);
      else query = query.where((eb) => eb.or([eb('cv.done_at', 'is', null), eb('c.handoff_at', 'is not', null)]));
      if (filter === 'mine') query = query.where('cv.assignee_id', '=', userId);
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
          'c.opted_out_at',
          'c.last_inbound_at',
          'c.window_closed_at',
          'c.handoff_at',
        ])
        .select(['cv.read_at', 'cv.done_at', 'cv.assignee_id'])
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
