import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The volume report's messages by hour, narrowed to a number, a team or a label, from the index alone:
 * messages_feed orders by the same columns but holds neither the number (channel_id) nor the contact
 * the narrowing asks about, so each of a million messages in the range was read from the table
 * (1.3 s on both engines; 0.3 s unnarrowed).
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await sql`CREATE INDEX messages_volume ON messages
    (workspace_id, direction, created_at, channel_id, contact_id)`.execute(db);
}
