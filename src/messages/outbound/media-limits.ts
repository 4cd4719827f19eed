import { errors } from '../../shared/errors.js';
import type { MediaType } from '../../content/message-content.js';
import { bareMimeType, MEDIA_LIMITS, STATIC_STICKER_MAX_BYTES } from '../../content/media-limits.js';
import { messageProblems } from '../message.problems.js';

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
