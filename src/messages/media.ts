import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { ChannelService } from '../channels/channel.service.js';
import { Uuid } from '../http/responses.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { mediaUploadRepository } from './media-upload.repository.js';
import { messageRepository } from './message.repository.js';

/** The inbound types whose content is Meta's media object (`{ id, mime_type, sha256, caption? }`). */
export const MEDIA_TYPES: readonly string[] = ['image', 'audio', 'video', 'document', 'sticker'];

/** Meta's media ids are numeric; the id becomes a file name, so nothing that could leave the folder passes. */
export const MEDIA_ID = /^[0-9A-Za-z_-]{1,128}$/;

/** The type a cached file is answered with when its message has no `mime_type` (Meta always sends one). */
const UNKNOWN_MIME_TYPE = 'application/octet-stream';

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
    path: Type.String({ description: 'The file, relative to DATA_DIR: `media/<workspace id>/<media id>`' }),
  },
  { $id: 'DownloadedMedia' },
);
export type DownloadedMedia = Static<typeof DownloadedMediaSchema>;

interface MediaRef {
  id: string;
  mimeType: string | null;
}

/** Received media: fetched from the Graph API into DATA_DIR on first request, served from there afterwards. */
export function createMediaService({ db, newId }: Deps, channels: ChannelService, dataDir: string) {
  return {
    /**
     * download-media: the message's media as a file under DATA_DIR. The first call fetches it from
     * Meta (while Meta still keeps it) and checks Meta's SHA-256; later calls read the file.
     */
    async download(caller: Caller, messageId: string): Promise<DownloadedMedia> {
      const row = await messageRepository(db).findById(caller.workspaceId, messageId);
      if (!row) throw errors.notFound('message', 'message_id');
      const media = mediaOf(row.type, row.content);
      const relative = path.posix.join('media', caller.workspaceId, media.id);
      const file = path.join(dataDir, relative);
      const present = (stored: StoredFile, mimeType: string): DownloadedMedia => ({
        message_id: row.id,
        media_id: media.id,
        mime_type: mimeType,
        size: stored.size,
        sha256: stored.sha256,
        path: relative,
      });

      const cached = await storedFile(file);
      // A file the team uploaded (upload-media) is named by id only in its message: its type is the upload's.
      const uploaded = media.mimeType ? undefined : await mediaUploadRepository(db).find(caller.workspaceId, media.id);
      if (cached) return present(cached, media.mimeType ?? uploaded?.mime_type ?? UNKNOWN_MIME_TYPE);
      // Media ids are fetched with the token of the number the message came in on.
      const fetched = await (await channels.providerOf(caller.workspaceId, row.channel_id)).fetchMedia(media.id);
      await writeAtomically(file, fetched.bytes, newId());
      return present({ size: fetched.bytes.length, sha256: fetched.sha256 }, media.mimeType ?? fetched.mimeType);
    },
  };
}

/** The media reference of a stored message, or a 422 naming why there is none. */
function mediaOf(type: string, content: string): MediaRef {
  if (!MEDIA_TYPES.includes(type)) throw errors.messageHasNoMedia(type, `a ${type} message carries no media`);
  const { id, mime_type } = JSON.parse(content) as Record<string, unknown>;
  if (typeof id !== 'string' || !MEDIA_ID.test(id)) {
    throw errors.messageHasNoMedia(type, `this ${type} message has no media id from Meta`);
  }
  return { id, mimeType: typeof mime_type === 'string' ? mime_type : null };
}

interface StoredFile {
  size: number;
  sha256: string;
}

/** The file's size and digest, or null when it has not been downloaded yet. */
async function storedFile(file: string): Promise<StoredFile | null> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of fs.createReadStream(file)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Writes beside the target, flushes, then renames: a reader sees the whole file or none. */
export async function writeAtomically(file: string, bytes: Buffer, unique: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${unique}.part`;
  try {
    const handle = await fs.promises.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

export type MediaService = ReturnType<typeof createMediaService>;
