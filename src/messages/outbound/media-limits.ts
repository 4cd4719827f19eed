import { errors } from '../../shared/errors.js';
import type { MediaType } from '../../content/message-content.js';
import { messageProblems } from '../message.problems.js';

const KB = 1024;
const MB = 1024 * KB;

/**
 * Meta's "Supported media types" (WhatsApp Cloud API, media reference): the MIME types WhatsApp takes
 * for each kind of media message, and the largest file. Checked before a file is uploaded or a
 * message queued, so the customer never gets a failed send for a file Meta was always going to refuse.
 */
export const MEDIA_LIMITS: Record<MediaType, { mimeTypes: readonly string[]; maxBytes: number }> = {
  audio: { mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'], maxBytes: 16 * MB },
  document: {
    mimeTypes: [
      'text/plain',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/pdf',
    ],
    maxBytes: 100 * MB,
  },
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * MB },
  // 100 KB for a static sticker; 500 KB for an animated one (see stickerMaxBytes).
  sticker: { mimeTypes: ['image/webp'], maxBytes: 500 * KB },
  video: { mimeTypes: ['video/3gpp', 'video/mp4'], maxBytes: 16 * MB },
};

const STATIC_STICKER_MAX_BYTES = 100 * KB;

/** The largest upload any kind allows (a document's). */
export const LARGEST_MEDIA_BYTES = Math.max(...Object.values(MEDIA_LIMITS).map((limit) => limit.maxBytes));

/** The MIME type without parameters (`audio/ogg; codecs=opus` → `audio/ogg`), lower-cased. */
export const bareMimeType = (mimeType: string): string => mimeType.split(';')[0]!.trim().toLowerCase();

/** A WebP file whose VP8X header sets the animation flag (WebP container spec: byte 20, bit 1). */
function isAnimatedWebp(bytes: Buffer): boolean {
  return bytes.toString('latin1', 12, 16) === 'VP8X' && ((bytes[20] ?? 0) & 0x02) !== 0;
}

function maxBytesOf(type: MediaType, bytes: Buffer | null): number {
  if (type === 'sticker' && bytes && !isAnimatedWebp(bytes)) return STATIC_STICKER_MAX_BYTES;
  return MEDIA_LIMITS[type].maxBytes;
}

/** Refuses a MIME type the kind does not take (a 422 naming `field` and the accepted types). */
export function checkMimeType(field: string, type: MediaType, mimeType: string): void {
  const accepted = MEDIA_LIMITS[type].mimeTypes;
  if (!accepted.includes(bareMimeType(mimeType))) {
    const problem = messageProblems.problem(field, 'type_not_accepted', {
      accepted: accepted.join(', '),
      media_type: type,
      mime_type: mimeType,
    });
    throw errors.mediaNotAccepted(problem, { media_type: type, accepted_mime_types: accepted });
  }
}

/** Refuses a file over Meta's size limit for its kind (for a sticker: static or animated). */
export function checkSize(field: string, type: MediaType, bytes: Buffer): void {
  const max = maxBytesOf(type, bytes);
  if (bytes.length > max) {
    const problem = messageProblems.problem(field, 'file_too_large', {
      media_type: type,
      max_bytes: max,
      size: bytes.length,
    });
    throw errors.mediaNotAccepted(problem, {
      media_type: type,
      max_bytes: max,
      size: bytes.length,
    });
  }
}
