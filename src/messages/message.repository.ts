import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../db/connection.js';
import { jsonRows } from '../db/sql.js';
import type { Database, MediaState, MessageTable } from '../db/schema.js';
import { inboundFeedRecord, type MessageSender } from './message.record.js';
import type { MessageStatus } from './message.schema.js';

export type NewMessage = Omit<Insertable<MessageTable>, 'feed_record' | 'direction'>;
/** `delivery` is absent on a message presented as it is queued: no status has arrived yet. */
/** A message in a contact's conversation (a group's messages are GroupMessageRow). */
export type MessageRow = Omit<Selectable<MessageTable>, 'delivery' | 'contact_id'> & {
  contact_id: string;
  delivery?: string | null;
  contact_phone: string;
};
export interface MessageError {
  code: number | null;
  title: string;
  details: string | null;
}

/** What a status webhook changes on a message: an absent field keeps its value. */
export interface StatusChangeRow {
  status?: MessageStatus;
  error?: MessageError;
  delivery?: string;
  /** Reconciliation: the wamid of a send the outbox never recorded, which is then never sent again. */
  provider_message_id?: string;
  next_attempt_at?: null;
}

/** What the outbox records for a message it tried: an absent field keeps its value. */
export interface OutboxChange {
  id: string;
  status?: MessageStatus;
  provider_message_id?: string;
  error?: MessageError;
  /** When to try again; null once the message is settled (sent or failed). */
  next_attempt_at: string | null;
  updated_at?: string;
  /** The channel it was sent on. */
  channel_id?: string | null;
  /** `marketing_messages`: Meta's Marketing Messages API took it. */
  sent_via?: 'marketing_messages';
}

/** Rows per multi-row insert: well under both engines' bound-parameter limits. */
const INSERT_CHUNK = 500;

/** SQL for messages; the only place they are written, so every inbound one carries its feed record. */
export function messageRepository(db: Kysely<Database>) {
  const withContact = () =>
    db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .selectAll('m')
      .select('c.phone as contact_phone')
      .$narrowType<{ contact_id: string }>();

  /**
   * Inserts messages each once by wamid (the unique index skips one stored already), in statements of up
   * to INSERT_CHUNK rows; returns the ids it inserted.
   */
  async function insertEachOnce(rows: Insertable<MessageTable>[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const result = await db
        .insertInto('messages')
        .values(rows.slice(start, start + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['workspace_id', 'provider_message_id']).doNothing())
        .returning('id')
        .execute();
      for (const { id } of result) inserted.add(id);
    }
    return inserted;
  }

  return {
    /**
     * Inserts inbound messages with their feed records, skipping any whose wamid is stored already (Meta
     * retries deliveries); returns the ids it inserted.
     */
    async insertInbound(inbounds: { message: NewMessage; sender: MessageSender }[]): Promise<Set<string>> {
      return insertEachOnce(
        inbounds.map(({ message, sender }) => {
          const record = { ...message, provider_message_id: message.provider_message_id ?? null };
          return { ...message, direction: 'inbound' as const, feed_record: inboundFeedRecord(record, sender) };
        }),
      );
    },

    async insertOutbound(messages: NewMessage[]): Promise<void> {
      if (messages.length === 0) return;
      await db
        .insertInto('messages')
        .values(messages.map((message) => ({ ...message, direction: 'outbound' as const, feed_record: null })))
        .execute();
    },

    /** A received file's state as get-message shows it, and why its last download failed. */
    async setMediaState(id: string, state: MediaState, error: string | null): Promise<void> {
      await db.updateTable('messages').set({ media_state: state, media_error: error }).where('id', '=', id).execute();
    },

    findById: (workspaceId: string, id: string): Promise<MessageRow | undefined> =>
      withContact().where('m.workspace_id', '=', workspaceId).where('m.id', '=', id).executeTakeFirst(),

    /** The ids of this workspace's messages (either direction) with these wamids, by wamid. */
    async idsByWamid(workspaceId: string, wamids: string[]): Promise<Map<string, string>> {
      if (wamids.length === 0) return new Map();
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'provider_message_id'])
        .where('workspace_id', '=', workspaceId)
        .where('provider_message_id', 'in', wamids)
        .execute();
      return new Map(rows.map((row) => [row.provider_message_id!, row.id]));
    },

    /**
     * The message of this workspace with this wamid, as edits and revocations need it: the customer's
     * (inbound) or, for the WhatsApp Business app's, the business's (outbound).
     */
    findByWamid: (workspaceId: string, wamid: string, direction: 'inbound' | 'outbound') =>
      db
        .selectFrom('messages')
        .select(['id', 'type', 'content', 'edits', 'revoked_at'])
        .where('workspace_id', '=', workspaceId)
        .where('direction', '=', direction)
        .where('provider_message_id', '=', wamid)
        .executeTakeFirst(),

    /**
     * Inserts messages that happened elsewhere (the WhatsApp Business app's, its chat history), each
     * once by wamid, outside the feeds and the outbox; returns the ids it inserted.
     */
    async insertRecorded(messages: (NewMessage & { direction: 'inbound' | 'outbound' })[]): Promise<Set<string>> {
      return insertEachOnce(messages.map((message) => ({ ...message, feed_record: null })));
    },

    /** Sets what an edit, revocation or reaction changed on a message. */
    async amend(
      id: string,
      fields: Partial<Pick<MessageRow, 'type' | 'content' | 'edits' | 'revoked_at' | 'reaction'>>,
      at: string,
    ): Promise<void> {
      await db
        .updateTable('messages')
        .set({ ...fields, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    /** Status webhooks name messages by wamid, or by Parley's id (biz_opaque_callback_data); no join needed. */
    async findOutboundBy(dialect: Dialect, workspaceId: string, key: 'provider_message_id' | 'id', values: string[]) {
      if (values.length === 0) return [];
      const columns = [
        'id',
        'workspace_id',
        'direction',
        'contact_id',
        'group_id',
        'status',
        'provider_message_id',
      ] as const;
      type Found = Pick<Selectable<MessageTable>, (typeof columns)[number] | 'delivery'>;
      let rows: Found[];
      if (key === 'provider_message_id' && dialect === 'postgres') {
        // One probe of the unique index a wamid: given the list, PostgreSQL's planner read every message of the
        // workspace through the index and filtered them, whenever its statistics were behind a growing table
        // (up to 300 ms a status webhook in the load test's first minute, and the database's largest cost).
        rows = (
          await sql<Found>`SELECT m.*
            FROM unnest(${values}::text[]) AS w(wamid)
            CROSS JOIN LATERAL (
              SELECT ${sql.join(columns.map((column) => sql.ref(column)))}, delivery FROM messages
              WHERE workspace_id = ${workspaceId} AND provider_message_id = w.wamid
            ) AS m`.execute(db)
        ).rows;
      } else {
        // Only the unique index of the key is given to SQLite: with the workspace and the direction in the
        // query too, it read every outbound message of the workspace through their index (20 ms a status
        // webhook at 100,000 messages). Both are checked on the rows found instead.
        const query = db.selectFrom('messages').select(columns).select('delivery');
        rows = await (
          key === 'id'
            ? query.where('id', 'in', values)
            : query.where('workspace_id', '=', workspaceId).where('provider_message_id', 'in', values)
        ).execute();
      }
      return rows
        .filter((row) => row.workspace_id === workspaceId && row.direction === 'outbound')
        .map(({ workspace_id: _workspace, direction: _direction, ...message }) => message);
    },

    /** Records the outcomes of an outbox chunk in one statement. */
    async applyOutboxChanges(dialect: Dialect, changes: OutboxChange[]): Promise<void> {
      const v = jsonRows(dialect, changes, {
        id: 'uuid',
        status: 'text',
        provider_message_id: 'text',
        error: 'jsonb',
        next_attempt_at: 'timestamptz',
        updated_at: 'timestamptz',
        channel_id: 'uuid',
        sent_via: 'text',
      });
      // A status webhook that overtook the outbox (it named the message by its id, and so stored its
      // wamid) stays: Meta's word on a send outranks the outbox's, which may be a timeout.
      const outboxDecides = sql`(m.provider_message_id IS NULL OR m.status = 'queued')`;
      await sql`UPDATE messages AS m SET
          status = CASE WHEN ${outboxDecides} THEN COALESCE(v.status, m.status) ELSE m.status END,
          provider_message_id = COALESCE(m.provider_message_id, v.provider_message_id),
          error = CASE WHEN ${outboxDecides} THEN COALESCE(v.error, m.error) ELSE m.error END,
          next_attempt_at = CASE WHEN ${outboxDecides} THEN v.next_attempt_at ELSE m.next_attempt_at END,
          updated_at = COALESCE(v.updated_at, m.updated_at),
          channel_id = COALESCE(v.channel_id, m.channel_id),
          sent_via = COALESCE(v.sent_via, m.sent_via)
        FROM ${v} WHERE m.id = v.id`.execute(db);
    },

    /**
     * Hands claimed messages back to the queue, due at `at`, with the claim's attempt given back: the
     * outbox never gave them to the channel. One a status webhook settled meanwhile stays settled; with
     * `lease`, so does one claimed again since (its lease ran out: it is no longer this claim's).
     */
    async releaseClaims(ids: string[], at: string, lease?: string): Promise<void> {
      for (let i = 0; i < ids.length; i += 500) {
        let claimed = db
          .updateTable('messages')
          .set((eb) => ({ next_attempt_at: at, attempts: eb('attempts', '-', 1) }))
          .where('id', 'in', ids.slice(i, i + 500))
          .where('next_attempt_at', 'is not', null);
        if (lease !== undefined) claimed = claimed.where('next_attempt_at', '=', lease);
        await claimed.execute();
      }
    },

    /** A cancelled campaign's messages still queued fail with `error`; their ids. */
    async failQueuedOfCampaign(campaignId: string, error: string, at: string): Promise<{ id: string }[]> {
      return db
        .updateTable('messages')
        .set({ status: 'failed', error, next_attempt_at: null, updated_at: at })
        .where('campaign_id', '=', campaignId)
        .where('status', '=', 'queued')
        .returning('id')
        .execute();
    },

    /** Applies status webhooks' changes, one per message, in one statement (an absent field keeps its value). */
    async applyStatusChanges(dialect: Dialect, changes: Map<string, StatusChangeRow>, at: string): Promise<void> {
      if (changes.size === 0) return;
      const rows = [...changes].map(([id, change]) => ({
        id,
        status: change.status,
        error: change.error,
        delivery: change.delivery === undefined ? undefined : (JSON.parse(change.delivery) as unknown),
        provider_message_id: change.provider_message_id,
        settled: change.next_attempt_at === null ? 1 : 0,
      }));
      const v = jsonRows(dialect, rows, {
        id: 'uuid',
        status: 'text',
        error: 'jsonb',
        delivery: 'jsonb',
        provider_message_id: 'text',
        settled: 'integer',
      });
      await sql`UPDATE messages AS m SET
          status = COALESCE(v.status, m.status),
          error = COALESCE(v.error, m.error),
          delivery = COALESCE(v.delivery, m.delivery),
          provider_message_id = COALESCE(v.provider_message_id, m.provider_message_id),
          next_attempt_at = CASE WHEN v.settled = 1 THEN NULL ELSE m.next_attempt_at END,
          updated_at = ${at}
        FROM ${v} WHERE m.id = v.id`.execute(db);
    },
  };
}
