import { sql, type Kysely } from 'kysely';
import { inboundFeedRecord } from '../../messages/message.record.js';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

const BATCH = 5000;

/**
 * Inbound messages carry their new-message-received record, written with the message, so a poll
 * reads one stored text per record (see message.record.ts). Existing messages get theirs here,
 * with their contact as it is now, in batches along the primary key.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await sql`ALTER TABLE messages ADD COLUMN feed_record TEXT`.execute(db);
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .select(['m.id', 'm.type', 'm.content', 'm.provider_message_id', 'm.created_at'])
      .select(['c.id as contact_id', 'c.phone', 'c.name', 'c.email'])
      .where('m.direction', '=', 'inbound')
      .where('m.id', '>', after)
      .orderBy('m.id')
      .limit(BATCH)
      .execute();
    const records = rows.map((row) =>
      inboundFeedRecord(row, { id: row.contact_id, phone: row.phone, name: row.name, email: row.email }),
    );
    await setFeedRecords(
      db,
      dialect,
      rows.map((row) => row.id),
      records,
    );
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** One UPDATE per batch: the ids and records travel as two arrays (PostgreSQL) or one JSON text (SQLite). */
async function setFeedRecords(db: Kysely<Database>, dialect: Dialect, ids: string[], records: string[]) {
  if (dialect === 'postgres') {
    await sql`UPDATE messages m SET feed_record = v.record
      FROM unnest(${ids}::uuid[], ${records}::text[]) AS v(id, record) WHERE m.id = v.id`.execute(db);
    return;
  }
  const pairs = JSON.stringify(ids.map((id, i) => [id, records[i]]));
  await sql`UPDATE messages SET feed_record = v.value ->> 1
    FROM json_each(${pairs}) AS v WHERE messages.id = v.value ->> 0`.execute(db);
}
