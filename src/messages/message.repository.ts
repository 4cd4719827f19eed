import type { Insertable, Kysely } from 'kysely';
import type { Database, MessageTable } from '../db/schema.js';
import { inboundFeedRecord, type MessageSender } from './message.record.js';

export type NewMessage = Omit<Insertable<MessageTable>, 'feed_record' | 'direction'>;

/** SQL for messages; the only place they are written, so every inbound one carries its feed record. */
export function messageRepository(db: Kysely<Database>) {
  return {
    async insertInbound(message: NewMessage, sender: MessageSender): Promise<void> {
      const feed_record = inboundFeedRecord(
        { ...message, provider_message_id: message.provider_message_id ?? null },
        sender,
      );
      await db
        .insertInto('messages')
        .values({ ...message, direction: 'inbound', feed_record })
        .execute();
    },

    async insertOutbound(message: NewMessage): Promise<void> {
      await db
        .insertInto('messages')
        .values({ ...message, direction: 'outbound', feed_record: null })
        .execute();
    },
  };
}
