import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';

const BATCH = 5000;

/**
 * Inbound messages carry their new-message-received record, written with the message, so a poll
 * reads one stored text per record (see message.record.ts). Existing messages get theirs here,
 * with their contact as it is now, in batches along the primary key. The record is written as it was
 * worded when this migration was made (feedRecord below), not by today's code, so this migration does
 * the same on every database whatever the application becomes.
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
    const records = rows.map(feedRecord);
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

type Json = Record<string, unknown>;

interface MessageWithContact {
  id: string;
  type: string;
  content: string;
  provider_message_id: string | null;
  created_at: string;
  contact_id: string;
  phone: string;
  name: string | null;
  email: string | null;
}

/** The new-message-received record of a stored inbound message (trigger records' shape at this migration). */
function feedRecord(row: MessageWithContact): string {
  const content = JSON.parse(row.content) as Json;
  return JSON.stringify({
    id: row.id,
    type: row.type,
    text: textOf(row.type, content),
    content,
    contact_id: row.contact_id,
    contact_phone: row.phone,
    contact_name: row.name,
    contact_email: row.email,
    provider_message_id: row.provider_message_id,
    reply_to_message_id: null,
    sent_at: null,
    created_at: timestamp(row.created_at),
  });
}

/** The readable text of a message's content: text body, caption, or the title of a tapped button. */
function textOf(type: string, content: Json): string | null {
  const pick = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const reply = (content.button_reply ?? content.list_reply) as Json | undefined;
  return (
    pick(content.body) ??
    pick(content.caption) ??
    pick(content.text) ??
    pick(reply?.title) ??
    (type === 'reaction' ? pick(content.emoji) : null)
  );
}

/** A stored timestamp in the API's form, 2024-05-01T10:00:00.000+00:00. */
function timestamp(stored: string): string {
  return new Date(stored).toISOString().slice(0, -1) + '+00:00';
}
