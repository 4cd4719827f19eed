import { sql, type Kysely, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { Dialect } from '../db/connection.js';
import { precompile } from '../db/precompile.js';
import { jsonRows } from '../db/sql.js';
import type { ContactTable, Database } from '../db/schema.js';
import { PRESENTED_COLUMNS, type PresentedRow } from './contact.presenter.js';

export type ContactRow = Selectable<ContactTable>;

const CONTACT_COLUMNS = [
  'id',
  'workspace_id',
  'phone',
  'name',
  'email',
  'custom_attributes',
  'opted_out_at',
  'last_message_at',
  'last_inbound_at',
  'window_closed_at',
  'handoff_at',
  'wa_id',
  'bsuid',
  'name_from_whatsapp',
  'first_touch',
  'conversation_channel_id',
  'call_permission',
  'created_at',
  'updated_at',
] as const;

const contactsOf = (db: Kysely<Database>, workspaceId: string) =>
  db.selectFrom('contacts').select(CONTACT_COLUMNS).where('workspace_id', '=', workspaceId);
// The lookups behind every contact action run precompiled.
const selectById = precompile((db, workspaceId: string, id: string) =>
  contactsOf(db, workspaceId).where('id', '=', id),
);
const selectByPhone = precompile((db, workspaceId: string, phone: string) =>
  contactsOf(db, workspaceId).where('phone', '=', phone),
);
const selectTagNames = precompile((db, contactId: string) =>
  db
    .selectFrom('contact_tags')
    .innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
    .select('tags.name')
    .where('contact_tags.contact_id', '=', contactId)
    .orderBy('tags.name_key'),
);

/** A contact as the API shows it, with its tag names (alphabetical) as a JSON array. */
export type ShownContactRow = PresentedRow & { tag_names: string };

/**
 * Each contact's tag names (alphabetical) as a JSON array, read with its row: for a page of 500,
 * one statement instead of a second one binding 500 ids (measured on SQLite: ~7 % less CPU a page;
 * on PostgreSQL, one round trip less).
 */
export const TAG_NAMES_JSON: Record<Dialect, RawBuilder<string>> = {
  sqlite: sql`(select json_group_array(tag.name order by tag.name_key)
    from contact_tags link join tags tag on tag.id = link.tag_id where link.contact_id = c.id)`,
  postgres: sql`(select coalesce(json_agg(tag.name order by tag.name_key), '[]')
    from contact_tags link join tags tag on tag.id = link.tag_id where link.contact_id = c.id)`,
};

/**
 * get-contact's read: the contact and its tag names in one statement, by id or by phone. As two, they took
 * 58 µs of a request's ~240 µs of CPU on SQLite at 1,000,000 contacts (each statement pays the driver's call,
 * a read transaction and caches gone cold between requests); as one, get-contact went from ~5,000 to ~6,100
 * requests a second (BENCHMARKS.md, issue 35 §2).
 */
const shownWithTags = (dialect: Dialect, key: 'id' | 'phone') =>
  precompile((db, workspaceId: string, value: string) =>
    db
      .selectFrom('contacts as c')
      .select(PRESENTED_COLUMNS.map((column) => `c.${column}` as const))
      .select(TAG_NAMES_JSON[dialect].as('tag_names'))
      .where('c.workspace_id', '=', workspaceId)
      .where(`c.${key}`, '=', value),
  );
const selectShown = {
  sqlite: { id: shownWithTags('sqlite', 'id'), phone: shownWithTags('sqlite', 'phone') },
  postgres: { id: shownWithTags('postgres', 'id'), phone: shownWithTags('postgres', 'phone') },
};

/** A new contact's row: no messages yet, not opted out. */
export function newContactRow(fields: {
  id: string;
  workspaceId: string;
  phone: string;
  name: string | null;
  email: string | null;
  customAttributes: string;
  at: string;
}): ContactRow {
  return {
    id: fields.id,
    workspace_id: fields.workspaceId,
    phone: fields.phone,
    name: fields.name,
    email: fields.email,
    custom_attributes: fields.customAttributes,
    opted_out_at: null,
    last_message_at: null,
    window_closed_at: null,
    last_inbound_at: null,
    handoff_at: null,
    wa_id: null,
    bsuid: null,
    name_from_whatsapp: 0,
    first_touch: null,
    conversation_channel_id: null,
    call_permission: null,
    created_at: fields.at,
    updated_at: fields.at,
  };
}

/** SQL for contacts and their tag links; every query is scoped to one workspace. */
export function contactRepository(db: Kysely<Database>) {
  const base = (workspaceId: string) => contactsOf(db, workspaceId);

  /** Opts contacts out (or back in); an opt-out already recorded keeps its time. Returns how many changed. */
  async function setOptedOutAll(workspaceId: string, ids: string[], optedOut: boolean, at: string): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await db
      .updateTable('contacts')
      .set({ opted_out_at: optedOut ? at : null, updated_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .where('opted_out_at', optedOut ? 'is' : 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Inserts the rows whose phone is not taken yet, in one statement; returns how many it inserted. */
  async function insertAllIfAbsent(rows: ContactRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const result = await db
      .insertInto('contacts')
      .values(rows)
      .onConflict((oc) => oc.columns(['workspace_id', 'phone']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows);
  }

  return {
    findById: async (workspaceId: string, id: string) => (await selectById(db, workspaceId, id))[0],

    findByPhone: async (workspaceId: string, phone: string) => (await selectByPhone(db, workspaceId, phone))[0],

    /** The contacts with these ids, for a chunk of scheduled steps. */
    // By primary key, then scoped here: with `workspace_id = ?` in SQL, SQLite chose the workspace's
    // recency index and read every contact of the workspace for each chunk of ids.
    findByIds: async (workspaceId: string, ids: string[]) =>
      ids.length === 0
        ? []
        : (await db.selectFrom('contacts').select(CONTACT_COLUMNS).where('id', 'in', ids).execute()).filter(
            (contact) => contact.workspace_id === workspaceId,
          ),

    /** The contacts with these phones (E.164), for a batch of inbound messages. */
    findByPhones: (workspaceId: string, phones: string[]) =>
      phones.length === 0 ? Promise.resolve([]) : base(workspaceId).where('phone', 'in', phones).execute(),

    /** Emails are not unique; the earliest contact with the address wins, so the answer is stable. */
    findByEmail: (workspaceId: string, email: string) =>
      base(workspaceId)
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .orderBy('created_at')
        .orderBy('id')
        .executeTakeFirst(),

    /** Inserts unless the phone exists already; says whether it inserted. */
    insertIfAbsent: async (row: ContactRow): Promise<boolean> => (await insertAllIfAbsent([row])) === 1,

    insertAllIfAbsent,

    /**
     * Moves each sender's last_inbound_at and last_message_at forward to their newest message (never
     * back: webhooks arrive out of order) and returns the senders' rows as updated, in one statement:
     * the lookup of an inbound message's sender and the opening of their window are one round trip.
     * A phone that is not a contact's yet is simply absent from the result.
     */
    async openWindows(dialect: Dialect, workspaceId: string, newest: Map<string, string>): Promise<ContactRow[]> {
      if (newest.size === 0) return [];
      // The workspace travels in the rows, not as a constant, so SQLite's planner drives the join from them
      // (through the workspace-and-phone index). Their names differ from the contact's, so RETURNING needs
      // no qualifier (SQLite allows none there).
      const senders = [...newest].map(([phone, at]) => ({ sender_workspace: workspaceId, sender_phone: phone, at }));
      const forward = (column: 'last_inbound_at' | 'last_message_at') =>
        sql`CASE WHEN ${sql.ref(`c.${column}`)} IS NULL OR ${sql.ref(`c.${column}`)} < v.at THEN v.at ELSE ${sql.ref(`c.${column}`)} END`;
      const { rows } = await sql<ContactRow>`UPDATE contacts AS c
        SET last_inbound_at = ${forward('last_inbound_at')}, last_message_at = ${forward('last_message_at')}
        FROM ${jsonRows(dialect, senders, { sender_workspace: 'uuid', sender_phone: 'text', at: 'timestamptz' })}
        WHERE c.workspace_id = v.sender_workspace AND c.phone = v.sender_phone
        RETURNING ${sql.join(CONTACT_COLUMNS.map((column) => sql.ref(column)))}`.execute(db);
      return rows;
    },

    /** Moves the contact with phone `from` to phone `to` unless another contact has it; says whether it moved. */
    async changePhoneIfFree(workspaceId: string, from: string, to: string): Promise<boolean> {
      if ((await selectByPhone(db, workspaceId, to)).length > 0) return false;
      const result = await db
        .updateTable('contacts')
        .set({ phone: to })
        .where('workspace_id', '=', workspaceId)
        .where('phone', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The phones of the contacts that have these business-scoped user ids, by user id. */
    async phonesByBsuid(workspaceId: string, bsuids: string[]): Promise<Map<string, string>> {
      if (bsuids.length === 0) return new Map();
      const rows = await contactsOf(db, workspaceId).where('bsuid', 'in', bsuids).execute();
      return new Map(rows.map((row) => [row.bsuid!, row.phone]));
    },

    async update(workspaceId: string, id: string, fields: Updateable<ContactTable>): Promise<void> {
      await db
        .updateTable('contacts')
        .set(fields)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },

    /**
     * Opts a contact out of marketing (or back in). An opt-out already recorded keeps its time;
     * says whether the state changed, so what follows a change (the one confirmation) happens once.
     */
    async setOptedOut(workspaceId: string, id: string, optedOut: boolean, at: string): Promise<boolean> {
      return (await setOptedOutAll(workspaceId, [id], optedOut, at)) > 0;
    },

    /** The same for many contacts in one statement (the bulk path); says how many changed. */
    setOptedOutAll,

    /** Every custom attribute key the workspace's contacts use, sorted, read in the database in one pass. */
    async attributeKeys(dialect: Dialect, workspaceId: string): Promise<string[]> {
      const keys =
        dialect === 'postgres'
          ? sql<{ key: string }>`SELECT DISTINCT jsonb_object_keys(custom_attributes) AS key FROM contacts
              WHERE workspace_id = ${workspaceId}`
          : sql<{ key: string }>`SELECT DISTINCT j.key FROM contacts AS c, json_each(c.custom_attributes) AS j
              WHERE c.workspace_id = ${workspaceId}`;
      return (await keys.execute(db)).rows.map((row) => row.key).sort();
    },

    /** The contact with this id or phone (E.164) as the API shows it, its tag names with it. */
    findShown: async (dialect: Dialect, workspaceId: string, key: 'id' | 'phone', value: string) =>
      (await selectShown[dialect][key](db, workspaceId, value))[0],

    /** Tag names of one contact, alphabetical. */
    async tagNamesOf(contactId: string): Promise<string[]> {
      return (await selectTagNames(db, contactId)).map((row) => row.name);
    },

    /** Tag names per contact, alphabetical. */
    async tagNames(contactIds: string[]): Promise<Map<string, string[]>> {
      const names = new Map<string, string[]>(contactIds.map((id) => [id, []]));
      if (contactIds.length === 0) return names;
      const rows = await db
        .selectFrom('contact_tags')
        .innerJoin('tags', 'tags.id', 'contact_tags.tag_id')
        .select(['contact_tags.contact_id', 'tags.name'])
        .where('contact_tags.contact_id', 'in', contactIds)
        .orderBy('tags.name_key')
        .execute();
      for (const row of rows) names.get(row.contact_id)?.push(row.name);
      return names;
    },

    /** The contacts' latest message is one written at `at`, unless they have a later one (the inbox orders by it). */
    async noteLastMessage(workspaceId: string, contactIds: string[], at: string): Promise<void> {
      await db
        .updateTable('contacts')
        .set({ last_message_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', contactIds)
        .where((eb) => eb.or([eb('last_message_at', 'is', null), eb('last_message_at', '<', at)]))
        .execute();
    },

    /** The channel said the contact's customer service window is closed (before its 24 hours seemed up). */
    async closeWindow(workspaceId: string, contactId: string, at: string): Promise<void> {
      await db
        .updateTable('contacts')
        .set({ window_closed_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', contactId)
        .execute();
    },

    /** A person took the conversations over from the bots: their handoff requests are answered. */
    async clearHandoffs(workspaceId: string, contactIds: string[], at: string): Promise<void> {
      if (contactIds.length === 0) return;
      await db
        .updateTable('contacts')
        .set({ handoff_at: null, updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', contactIds)
        .where('handoff_at', 'is not', null)
        .execute();
    },
  };
}

export type ContactRepository = ReturnType<typeof contactRepository>;
export { CONTACT_COLUMNS };
