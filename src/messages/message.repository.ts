import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MessageTable } from '../db/schema.js';
import { inboundFeedRecord, type MessageSender } from './message.record.js';
import type { MessageStatus } from './message.schema.js';

export type NewMessage = Omit<Insertable<MessageTable>, 'feed_record' | 'direction' | 'attempts'>;
export type MessageRow = Selectable<MessageTable> & { contact_phone: string };
export interface MessageError {
  code: number | null;
  title: string;
  details: string | null;
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
      .select('c.phone as contact_phone');

  return {
    /**
     * Inserts inbound messages, skipping any whose wamid is stored already (Meta retries deliveries),
     * in statements of up to INSERT_CHUNK rows; returns the ids it inserted.
     */
    async insertInbound(inbounds: { message: NewMessage; sender: MessageSender }[]): Promise<Set<string>> {
      const inserted = new Set<string>();
      for (let start = 0; start < inbounds.length; start += INSERT_CHUNK) {
        const rows = inbounds.slice(start, start + INSERT_CHUNK).map(({ message, sender }) => {
          const record = { ...message, provider_message_id: message.provider_message_id ?? null };
          return { ...message, direction: 'inbound' as const, feed_record: inboundFeedRecord(record, sender) };
        });
        const result = await db
          .insertInto('messages')
          .values(rows)
          .onConflict((oc) => oc.columns(['workspace_id', 'provider_message_id']).doNothing())
          .returning('id')
          .execute();
        for (const { id } of result) inserted.add(id);
      }
      return inserted;
    },

    async insertOutbound(message: NewMessage): Promise<void> {
      await db
        .insertInto('messages')
        .values({ ...message, direction: 'outbound', feed_record: null })
        .execute();
    },

    findById: (workspaceId: string, id: string): Promise<MessageRow | undefined> =>
      withContact().where('m.workspace_id', '=', workspaceId).where('m.id', '=', id).executeTakeFirst(),

    /** Status webhooks name messages by wamid; they need only the current status, so no join. */
    findOutboundByWamids: (workspaceId: string, wamids: string[]) =>
      wamids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('messages')
            .select(['id', 'status', 'provider_message_id'])
            .where('workspace_id', '=', workspaceId)
            .where('direction', '=', 'outbound')
            .where('provider_message_id', 'in', wamids)
            .execute(),

    async setStatus(id: string, status: MessageStatus, at: string, error: MessageError | null): Promise<void> {
      await db
        .updateTable('messages')
        .set({ status, updated_at: at, ...(error && { error: JSON.stringify(error) }) })
        .where('id', '=', id)
        .execute();
    },
  };
}
