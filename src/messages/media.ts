import type { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../http/responses.js';
import { mediaFileRepository, type MediaFileRow } from '../media/media-file.repository.js';
import { mediaKey, type MediaStore } from '../media/media.store.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import type { MediaDownloader } from './media-download.js';
import { mediaOf } from './media-ref.js';
import { messageRepository, type MessageRow } from './message.repository.js';

export const DownloadMediaBody = Type.Object({
  message_id: Uuid('Parley message id of a received image, audio, video, document or sticker'),
});

export const DownloadedMediaSchema = Type.Object(
  {
    message_id: Uuid(),
    media_id: Type.String({ description: "Meta's media id" }),
    mime_type: Type.String({ examples: ['image/jpeg'] }),
    size: Type.Integer({ description: 'Bytes' }),
    sha256: Type.String({ description: 'SHA-256 of the file, hex' }),
    path: Type.String({
      description:
        'Where the file is kept: relative to DATA_DIR (`media/<workspace id>/<media id>`) on the filesystem store, `s3://<bucket>/<prefix><workspace id>/<media id>` on an object store (MEDIA_STORAGE=s3)',
    }),
  },
  { $id: 'DownloadedMedia' },
);
export type DownloadedMedia = Static<typeof DownloadedMediaSchema>;

/**
 * Media of messages, served from the media store: a received file is downloaded there in the
 * background as it arrives (media-download.ts); one not stored yet is fetched when first asked for.
 */
export function createMediaService({ db }: Deps, store: MediaStore, downloader: MediaDownloader) {
  /** The message's file as the store holds it, fetched from Meta now if it is not there yet. */
  async function storedFile(caller: Caller, messageId: string): Promise<{ row: MessageRow; file: MediaFileRow }> {
    const row = await messageRepository(db).findById(caller.workspaceId, messageId);
    if (!row) throw errors.notFound('message', 'message_id');
    const media = mediaOf(row.type, row.content);
    const kept = await mediaFileRepository(db).find(caller.workspaceId, media.id);
    if (kept) return { row, file: kept };
    if (row.media_state === 'expired') {
      throw errors.conflict("This message's file was deleted after the workspace's media retention period", {
        media_id: media.id,
      });
    }
    const file = await downloader.fetchInto({ ...row, workspace_id: caller.workspaceId });
    await db.transaction().execute((trx) => downloader.record(trx, file));
    return { row, file };
  }

  const present = (row: MessageRow, file: MediaFileRow): DownloadedMedia => ({
    message_id: row.id,
    media_id: file.media_id,
    mime_type: file.mime_type,
    size: file.size,
    sha256: file.sha256,
    path: store.locate(mediaKey(file.workspace_id, file.media_id)),
  });

  return {
    /**
     * download-media: the message's media as the store keeps it. A file not stored yet is fetched
     * from Meta now (while Meta still keeps it) and checked against Meta's SHA-256.
     */
    async download(caller: Caller, messageId: string): Promise<DownloadedMedia> {
      const { row, file } = await storedFile(caller, messageId);
      return present(row, file);
    },

    /** The message's media and its bytes as a stream from the store (the dashboard shows it). */
    async open(caller: Caller, messageId: string): Promise<{ file: DownloadedMedia; body: Readable }> {
      const { row, file } = await storedFile(caller, messageId);
      const body = await store.get(mediaKey(file.workspace_id, file.media_id));
      if (!body) throw errors.conflict('The media store no longer has this file', { media_id: file.media_id });
      return { file: present(row, file), body };
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
