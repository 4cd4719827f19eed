import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A file the media store holds, as `media_files` records it (size as a number on both engines). */
export interface MediaFileRow {
  workspace_id: string;
  media_id: string;
  message_id: string | null;
  mime_type: string;
  size: number;
  sha256: string;
  stored_at: string;
}

/** Bytes and files a workspace (or every workspace) keeps in the media store. */
export interface MediaUsage {
  bytes: number;
  files: number;
}

/** SQL for `media_files`: what the media store holds. */
export function mediaFileRepository(db: Kysely<Database>) {
  return {
    /** Records a stored file; a file recorded already (a retried job, a second opener) is kept as it is. */
    async insert(row: MediaFileRow): Promise<void> {
      await db
        .insertInto('media_files')
        .values(row)
        .onConflict((oc) => oc.columns(['workspace_id', 'media_id']).doNothing())
        .execute();
    },

    async find(workspaceId: string, mediaId: string): Promise<MediaFileRow | undefined> {
      const row = await db
        .selectFrom('media_files')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('media_id', '=', mediaId)
        .executeTakeFirst();
      return row && { ...row, size: Number(row.size) };
    },

    /** Up to `limit` of a workspace's files stored before `before`, oldest first. */
    async storedBefore(workspaceId: string, before: string, limit: number): Promise<MediaFileRow[]> {
      const rows = await db
        .selectFrom('media_files')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('stored_at', '<', before)
        .orderBy('stored_at')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ...row, size: Number(row.size) }));
    },

    async remove(workspaceId: string, mediaIds: string[]): Promise<void> {
      if (mediaIds.length === 0) return;
      await db
        .deleteFrom('media_files')
        .where('workspace_id', '=', workspaceId)
        .where('media_id', 'in', mediaIds)
        .execute();
    },

    /** What the store holds for one workspace, or for all of them. */
    async usage(workspaceId?: string): Promise<MediaUsage> {
      let query = db
        .selectFrom('media_files')
        .select((eb) => [
          eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'),
          eb.fn.countAll<number | string>().as('files'),
        ]);
      if (workspaceId) query = query.where('workspace_id', '=', workspaceId);
      const row = await query.executeTakeFirstOrThrow();
      return { bytes: Number(row.bytes), files: Number(row.files) };
    },
  };
}
