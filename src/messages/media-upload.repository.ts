import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MediaUploadTable } from '../db/schema.js';

export type MediaUploadRow = Selectable<MediaUploadTable>;

/** SQL for the files a workspace uploaded to its channel. */
export function mediaUploadRepository(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<MediaUploadTable>): Promise<void> {
      await db.insertInto('media_uploads').values(row).execute();
    },

    find: (workspaceId: string, mediaId: string): Promise<MediaUploadRow | undefined> =>
      db
        .selectFrom('media_uploads')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('media_id', '=', mediaId)
        .executeTakeFirst(),
  };
}
