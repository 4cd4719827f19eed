import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Sending and receiving: each workspace's channel (no row = the built-in simulator), and the
 * outbox state on outbound messages. A message waiting to be sent has `next_attempt_at`; the
 * worker claims due ones by moving it forward (a lease), so a crash leaves them due again.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('channels')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('phone_number_id', 'text')
    .addColumn('waba_id', 'text')
    // AES-256-GCM ciphertext (see src/shared/secret-box.ts); never the token itself.
    .addColumn('access_token', 'text')
    .addColumn('messages_per_second', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // Webhooks are routed by phone number id: one workspace per number.
  await sql`CREATE UNIQUE INDEX channels_phone_number ON channels (phone_number_id)
    WHERE phone_number_id IS NOT NULL`.execute(db);

  await sql`ALTER TABLE messages ADD COLUMN attempts integer NOT NULL DEFAULT 0`.execute(db);
  await sql.raw(`ALTER TABLE messages ADD COLUMN next_attempt_at ${t.timestamp}`).execute(db);
  await sql`CREATE INDEX messages_outbox ON messages (next_attempt_at) WHERE next_attempt_at IS NOT NULL`.execute(db);
}
