import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Everything an inbound message carries (issue 19 §2–§4): Meta's send time apart from the time Parley
 * recorded the message, the message a reply or reaction points at, edits and revocations applied to
 * the original, and the contact's WhatsApp identity (raw wa_id, business-scoped user id, where their
 * name came from, the ad that first brought them).
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  const messageColumns: [string, string][] = [
    ['sent_at', t.timestamp],
    ['reply_to_message_id', t.id],
    ['reaction', 'text'],
    ['edits', t.json],
    ['revoked_at', t.timestamp],
  ];
  for (const [name, type] of messageColumns) {
    await db.schema.alterTable('messages').addColumn(name, sql.raw(type)).execute();
  }
  // Until now an inbound message's created_at was Meta's time.
  await sql`UPDATE messages SET sent_at = created_at WHERE direction = 'inbound'`.execute(db);
  const contactColumns: [string, string][] = [
    ['wa_id', 'text'],
    ['bsuid', 'text'],
    ['first_touch', t.json],
  ];
  for (const [name, type] of contactColumns) {
    await db.schema.alterTable('contacts').addColumn(name, sql.raw(type)).execute();
  }
  // 1 when the name came from the WhatsApp profile (an integer: SQLite has no boolean).
  await sql`ALTER TABLE contacts ADD COLUMN name_from_whatsapp integer NOT NULL DEFAULT 0`.execute(db);
  await sql`CREATE UNIQUE INDEX contacts_bsuid ON contacts (workspace_id, bsuid) WHERE bsuid IS NOT NULL`.execute(db);
}
