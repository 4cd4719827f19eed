import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Several numbers per workspace: channels get an id of their own (the table is rebuilt, since SQLite
 * cannot change a primary key) and one of them is the workspace's default; an existing channel
 * becomes its workspace's default, unchanged. Messages record the channel they went out or came in
 * on, contacts the channel they last wrote to, campaigns the number they send from.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('channels_v2')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('phone_number_id', 'text')
    .addColumn('waba_id', 'text')
    // AES-256-GCM ciphertext (see src/shared/secret-box.ts); never the token itself.
    .addColumn('access_token', 'text')
    .addColumn('messages_per_second', 'integer', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    // What Meta says about the number: kept from describeNumber and phone_number_quality_update webhooks.
    .addColumn('display_phone_number', 'text')
    .addColumn('verified_name', 'text')
    .addColumn('quality_rating', 'text')
    .addColumn('messaging_limit_tier', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  const existing = await sql<Record<string, unknown>>`SELECT * FROM channels`.execute(db);
  for (const row of existing.rows) {
    await sql`INSERT INTO channels_v2 (id, workspace_id, provider, phone_number_id, waba_id, access_token,
        messages_per_second, is_default, created_at, updated_at)
      VALUES (${randomUUID()}, ${row.workspace_id}, ${row.provider}, ${row.phone_number_id}, ${row.waba_id},
        ${row.access_token}, ${row.messages_per_second}, 1, ${row.created_at}, ${row.updated_at})`.execute(db);
  }
  await db.schema.dropTable('channels').execute();
  await db.schema.alterTable('channels_v2').renameTo('channels').execute();
  await db.schema.createIndex('channels_workspace').on('channels').column('workspace_id').execute();
  // Webhooks are routed by phone number id: a Cloud number belongs to one workspace.
  await sql`CREATE UNIQUE INDEX channels_cloud_number ON channels (phone_number_id)
    WHERE provider = 'whatsapp-cloud'`.execute(db);
  // A send names its number: one channel per number within a workspace (simulated numbers included).
  await sql`CREATE UNIQUE INDEX channels_workspace_number ON channels (workspace_id, phone_number_id)
    WHERE phone_number_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX channels_default ON channels (workspace_id) WHERE is_default = 1`.execute(db);

  // No foreign keys: a removed channel's messages keep naming it (history), and routing ignores it.
  await db.schema.alterTable('messages').addColumn('channel_id', t.id).execute();
  await db.schema.alterTable('contacts').addColumn('conversation_channel_id', t.id).execute();
  await db.schema.alterTable('campaigns').addColumn('channel_id', t.id).execute();
}
