import type { Insertable, Kysely } from 'kysely';
import type { Database, WhatsappFlowAnswerTable } from '../db/schema.js';

/** SQL for WhatsApp Flows' answers: the only place `whatsapp_flow_answers` is written. */
export function whatsappFlowAnswerRepository(db: Kysely<Database>) {
  return {
    /** Keeps an answer, once per message: whether it is new. */
    async insert(row: Insertable<WhatsappFlowAnswerTable>): Promise<boolean> {
      const inserted = await db
        .insertInto('whatsapp_flow_answers')
        .values(row)
        .onConflict((conflict) => conflict.column('message_id').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
