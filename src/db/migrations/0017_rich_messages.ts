import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Rich messages: the files a workspace uploaded to its channel (upload-media), which a media message
 * then names by the channel's media id; and whether the inbox shows the customer a typing indicator
 * when a team member opens their conversation.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('media_uploads')
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // Meta's media id (or the simulator's own); the file is kept at DATA_DIR/media/<workspace>/<media id>.
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('media_uploads_pk', ['workspace_id', 'media_id'])
    .execute();
  // A workspace without a row uses the defaults (no typing indicator).
  await db.schema
    .createTable('inbox_settings')
    .addColumn('workspace_id', t.id, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    // 1: opening a conversation shows the customer a typing indicator along with the read receipt.
    .addColumn('typing_indicator', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
