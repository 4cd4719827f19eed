import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/** Meta keeps received media for 30 days: older messages' files cannot be fetched any more. */
const META_RETENTION_DAYS = 30;

/**
 * Every media file is kept (src/media/):
 * - `media_files`: what the media store holds, one row per file (received or uploaded), by workspace
 *   and media id; `message_id` is the received message it came with. Storage use and retention read it.
 * - `messages.media_state` / `media_error`: a received file's state as get-message shows it (pending,
 *   stored, failed, expired) and why the last download failed.
 * - `workspaces.media_retention_days`: keep files this many days; null: forever.
 * Received media of the last 30 days (what Meta may still have) gets a download job now.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('media_files')
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('message_id', t.id)
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('stored_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('media_files_pk', ['workspace_id', 'media_id'])
    .execute();
  await db.schema.createIndex('media_files_age').on('media_files').columns(['workspace_id', 'stored_at']).execute();
  await db.schema.alterTable('messages').addColumn('media_state', 'text').execute();
  await db.schema.alterTable('messages').addColumn('media_error', 'text').execute();
  await db.schema.alterTable('workspaces').addColumn('media_retention_days', 'integer').execute();
  await queueRecentDownloads(db, dialect);
}

async function queueRecentDownloads(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const now = new Date();
  const since = new Date(now.getTime() - META_RETENTION_DAYS * 86_400_000).toISOString();
  const recent = sql`direction = 'inbound' AND type IN ('image', 'audio', 'video', 'document', 'sticker')
    AND created_at >= ${since}`;
  const newId =
    dialect === 'postgres'
      ? sql`gen_random_uuid()`
      : sql`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-8' ||
          substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
  await sql`INSERT INTO jobs (id, workspace_id, kind, subject_id, payload, due_at, leased_until, created_at)
    SELECT ${newId}, workspace_id, 'media_download', id, '{}', ${now.toISOString()}, NULL, ${now.toISOString()}
    FROM messages WHERE ${recent}`.execute(db);
  await sql`UPDATE messages SET media_state = 'pending' WHERE ${recent}`.execute(db);
}
