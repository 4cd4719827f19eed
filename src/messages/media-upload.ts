import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { ChannelService } from '../channels/index.js';
import { Timestamp } from '../http/responses.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { mediaFileRepository } from '../media/media-file.repository.js';
import { mediaKey, type MediaStore } from '../media/media.store.js';
import { MEDIA_ID } from './media-ref.js';
import { checkBytesMatch } from './media-sniff.js';
import { mediaUploadRepository, type MediaUploadRow } from './media-upload.repository.js';
import { MEDIA_TYPES, type MediaType } from '../content/message-content.js';
import { checkMimeType, checkSize } from './outbound/media-limits.js';
import { bareMimeType, LARGEST_MEDIA_BYTES, MEDIA_LIMITS, mediaTypeTaking } from '../content/media-limits.js';
import { messageProblems } from './message.problems.js';

/** The largest upload-media body: the largest file Meta takes, in base64, and room for the other fields. */
export const UPLOAD_BODY_LIMIT = Math.ceil(LARGEST_MEDIA_BYTES / 3) * 4 + 64 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const UploadMediaBody = Type.Object({
  data: Type.String({
    minLength: 1,
    maxLength: UPLOAD_BODY_LIMIT,
    contentEncoding: 'base64',
    description: 'The file, base64-encoded',
  }),
  mime_type: Type.String({
    minLength: 3,
    maxLength: 255,
    examples: ['image/jpeg'],
    description: 'The file’s type; the bytes must be of this type',
  }),
  type: Type.Optional(
    Type.String({
      enum: [...MEDIA_TYPES],
      description: 'The kind of media message it is for; default: the kind that takes this MIME type',
    }),
  ),
  filename: Type.Optional(
    Type.String({ minLength: 1, maxLength: 240, description: 'The file name (shown under a document)' }),
  ),
});
export type UploadMediaInput = Static<typeof UploadMediaBody>;

export const UploadedMediaSchema = Type.Object(
  {
    media_id: Type.String({ description: "The channel's media id: give it to send-media-message as `media_id`" }),
    type: Type.String({ enum: [...MEDIA_TYPES] }),
    mime_type: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    sha256: Type.String({ description: 'SHA-256 of the file, hex' }),
    filename: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp(),
  },
  { $id: 'UploadedMedia' },
);
export type UploadedMedia = Static<typeof UploadedMediaSchema>;

/**
 * upload-media: a file checked against Meta's limits for its kind, uploaded to the workspace's channel
 * (Meta's media endpoint, or the simulator), kept in the media store for the inbox, and recorded so
 * send-media-message can name it by id.
 */
export function createMediaUploadService({ db, clock, newId }: Deps, channels: ChannelService, store: MediaStore) {
  return {
    async upload(caller: Caller, input: UploadMediaInput): Promise<UploadedMedia> {
      const mimeType = bareMimeType(input.mime_type);
      const type = input.type ? (input.type as MediaType) : kindOf(mimeType);
      checkMimeType('mime_type', type, mimeType);
      const bytes = decode(input.data);
      checkSize('data', type, bytes);
      await checkBytesMatch('data', mimeType, bytes);
      const filename = input.filename ?? `${type}-${newId()}`;
      const provider = await channels.providerOf(caller.workspaceId);
      const mediaId = await provider.uploadMedia({ bytes, mimeType, filename });
      if (!MEDIA_ID.test(mediaId)) throw new Error(`the channel answered an unusable media id: ${mediaId}`);
      await store.put(mediaKey(caller.workspaceId, mediaId), bytes, mimeType);
      const row: MediaUploadRow = {
        workspace_id: caller.workspaceId,
        media_id: mediaId,
        type,
        mime_type: mimeType,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        filename: input.filename ?? null,
        created_at: toStoredTimestamp(clock.now()),
      };
      await db.transaction().execute(async (trx) => {
        await mediaUploadRepository(trx).insert(row);
        const { workspace_id, media_id, mime_type, size, sha256, created_at } = row;
        const file = { workspace_id, media_id, message_id: null, mime_type, size, sha256, stored_at: created_at };
        await mediaFileRepository(trx).insert(file);
      });
      return presentUpload(row);
    },
  };
}

/** The first kind of media that takes this MIME type (image/webp is a sticker). */
function kindOf(mimeType: string): MediaType {
  const kind = mediaTypeTaking(mimeType);
  if (!kind) {
    throw errors.mediaNotAccepted(messageProblems.problem('mime_type', 'no_media_of_type', { mime_type: mimeType }), {
      accepted_mime_types: MEDIA_TYPES.flatMap((type) => MEDIA_LIMITS[type].mimeTypes),
    });
  }
  return kind;
}

function decode(data: string): Buffer {
  const compact = data.replace(/\s+/g, '');
  if (!BASE64.test(compact) || compact.length % 4 === 1)
    throw errors.invalid(messageProblems.problem('data', 'not_base64'));
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw errors.invalid(messageProblems.problem('data', 'empty_file'));
  return bytes;
}

function presentUpload(row: MediaUploadRow): UploadedMedia {
  return {
    media_id: row.media_id,
    type: row.type,
    mime_type: row.mime_type,
    size: row.size,
    sha256: row.sha256,
    filename: row.filename,
    created_at: formatTimestamp(row.created_at),
  };
}

export type MediaUploadService = ReturnType<typeof createMediaUploadService>;
