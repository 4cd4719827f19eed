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

/** SQL for messages; the only place they are written, so every inbound one carries its feed record. */
export function messageRepository(db: Kysely<Database>) {
  const withContact = () =>
    db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .selectAll('m')
      .select('c.phone as contact_phone');

  return {
    /** Inserts an inbound message unless its wamid is stored already; says whether it inserted. */
    async insertInbound(message: NewMessage, sender: MessageSender): Promise<boolean> {
      const record = { ...message, provider_message_id: message.provider_message_id ?? null };
      const result = await db
        .insertInto('messages')
        .values({ ...message, direction: 'inbound', feed_record: inboundFeedRecord(record, sender) })
        .onConflict((oc) => oc.columns(['workspace_id', 'provider_message_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows) === 1;
    },

    async insertOutbound(message: NewMessage): Promise<void> {
      await db
        .insertInto('messages')
        .values({ ...message, direction: 'outbound', feed_record: null })
        .execute();
    },

    findById: (workspaceId: string, id: string): Promise<MessageRow | undefined> =>
      withContact().where('m.workspace_id', '=', workspaceId).where('m.id', '=', id).executeTakeFirst(),

    /** Status webhooks name a message by its wamid; they need no contact, so no join. */
    findByWamid: (workspaceId: string, wamid: string) =>
      db
        .selectFrom('messages')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('provider_message_id', '=', wamid)
        .executeTakeFirst(),

    async setStatus(id: string, status: MessageStatus, at: string, error: MessageError | null): Promise<void> {
      await db
        .updateTable('messages')
        .set({ status, updated_at: at, ...(error && { error: JSON.stringify(error) }) })
        .where('id', '=', id)
        .execute();
    },
  };
}
