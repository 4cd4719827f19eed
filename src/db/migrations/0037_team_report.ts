import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Indexes for the per-agent and per-team report (src/reports/team-report.repository.ts), so it reads
 * only its range's rows at a million messages: members' messages by time (partial, covering the
 * columns the report groups and filters by) and spans by first response. Open spans are found by
 * conversation_spans_closed (closed_at IS NULL).
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await sql`CREATE INDEX messages_sent_by_member ON messages
    (workspace_id, created_at, sender_id, channel_id, contact_id) WHERE sender_type = 'user'`.execute(db);
  await sql`CREATE INDEX conversation_spans_first_response ON conversation_spans
    (workspace_id, first_response_at) WHERE first_response_at IS NOT NULL`.execute(db);
}
