import { MEDIA_TYPES, type MediaType } from './message-content.js';

const KB = 1024;
const MB = 1024 * KB;

/**
 * Meta's "Supported media types" (WhatsApp Cloud API, media reference): the MIME types WhatsApp takes
 * for each kind of media message, and the largest file. Checked before a file is uploaded or a
 * message queued, so the customer never gets a failed send for a file Meta was always going to refuse;
 * the dashboard checks a chosen file against them too, before uploading it.
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
  // 100 KB for a static sticker; 500 KB for an animated one (STATIC_STICKER_MAX_BYTES).
  sticker: { mimeTypes: ['image/webp'], maxBytes: 500 * KB },
  video: { mimeTypes: ['video/3gpp', 'video/mp4'], maxBytes: 16 * MB },
};

export const STATIC_STICKER_MAX_BYTES = 100 * KB;

/** The largest upload any kind allows (a document's). */
export const LARGEST_MEDIA_BYTES = Math.max(...Object.values(MEDIA_LIMITS).map((limit) => limit.maxBytes));

/** The MIME type without parameters (`audio/ogg; codecs=opus` → `audio/ogg`), lower-cased. */
export const bareMimeType = (mimeType: string): string => mimeType.split(';')[0]!.trim().toLowerCase();

/** The first kind of media that takes this MIME type (image/webp is a sticker); undefined when none does. */
export const mediaTypeTaking = (mimeType: string): MediaType | undefined =>
  MEDIA_TYPES.find((type) => MEDIA_LIMITS[type].mimeTypes.includes(bareMimeType(mimeType)));
