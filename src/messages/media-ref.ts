import { errors } from '../shared/errors.js';

/** The inbound types whose content is Meta's media object (`{ id, mime_type, sha256, caption? }`). */
export const MEDIA_TYPES: readonly string[] = ['image', 'audio', 'video', 'document', 'sticker'];

/** Meta's media ids are numeric; the id becomes a file name, so nothing that could leave the folder passes. */
export const MEDIA_ID = /^[0-9A-Za-z_-]{1,128}$/;

/** The media a message names: Meta's media id and, for a received file, the type Meta gave it. */
export interface MediaRef {
  id: string;
  mimeType: string | null;
}

/** The media reference of a stored message, or a 422 naming why there is none. */
export function mediaOf(type: string, content: string): MediaRef {
  if (!MEDIA_TYPES.includes(type)) throw errors.messageHasNoMedia(type, `a ${type} message carries no media`);
  const { id, mime_type } = JSON.parse(content) as Record<string, unknown>;
  if (typeof id !== 'string' || !MEDIA_ID.test(id)) {
    throw errors.messageHasNoMedia(type, `this ${type} message has no media id from Meta`);
  }
  return { id, mimeType: typeof mime_type === 'string' ? mime_type : null };
}

/** True when an inbound message of this type and content names a file Parley should keep. */
export function carriesMedia(type: string, content: Record<string, unknown>): boolean {
  return MEDIA_TYPES.includes(type) && typeof content.id === 'string' && MEDIA_ID.test(content.id);
}
