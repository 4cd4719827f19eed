import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';
import { errors } from '../shared/errors.js';
import { bareMimeType } from '../content/media-limits.js';

/** MP4's container (ISO base media, an `ftyp` box first): MP4, 3GP and M4A differ only in its brand. */
const ISO_MEDIA = ['video/mp4', 'video/x-m4v', 'video/3gpp', 'video/3gpp2', 'audio/mp4', 'audio/x-m4a'];
/** Word, Excel and PowerPoint's legacy files: OLE compound files, which tell their kind only deep inside. */
const OLE = ['application/x-cfb'];
const TEXT = 'text/plain';

/**
 * For each MIME type WhatsApp takes (media-limits.ts), what the file's bytes may be detected as
 * (`file-type`'s MIME types, parameters dropped). Plain text has no magic number: it is checked apart.
 */
export const DETECTABLE_AS: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['image/jpeg'],
  'image/png': ['image/png'],
  'image/webp': ['image/webp'],
  'video/mp4': ISO_MEDIA,
  'video/3gpp': ISO_MEDIA,
  'audio/mp4': ISO_MEDIA,
  'audio/ogg': ['audio/ogg', 'audio/opus'],
  'audio/amr': ['audio/amr'],
  'audio/mpeg': ['audio/mpeg'],
  'audio/aac': ['audio/aac'],
  'application/pdf': ['application/pdf'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': [
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': [
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ],
  'application/msword': OLE,
  'application/vnd.ms-excel': OLE,
  'application/vnd.ms-powerpoint': OLE,
  [TEXT]: [],
};

/**
 * Refuses a file whose bytes are not of the declared MIME type (a 422 `media_type_mismatch` naming
 * both), so what Parley keeps and serves is what it says it is: HTML declared as image/jpeg, a ZIP
 * behind a PNG (a polyglot) or a binary declared as text never get stored or sent.
 */
export async function checkBytesMatch(field: string, declared: string, bytes: Buffer): Promise<void> {
  const mimeType = bareMimeType(declared);
  const detected = await fileTypeFromBuffer(bytes);
  const detectedType = detected ? bareMimeType(detected.mime) : textTypeOf(bytes);
  const mismatch = (found: string | null, reason: string) => errors.mediaTypeMismatch(field, mimeType, found, reason);
  if (mimeType === TEXT) {
    if (detectedType === null) throw mismatch(null, 'the file is not UTF-8 text without NUL bytes');
    if (detected) throw mismatch(detectedType, `the file is ${detectedType}`);
    return;
  }
  if (detectedType === null) throw mismatch(null, 'the file is of no type Parley recognises');
  if (!(DETECTABLE_AS[mimeType] ?? []).includes(detectedType)) {
    throw mismatch(detectedType, `the file is ${detectedType}`);
  }
  if (mimeType !== 'image/png') return;
  const trailing = bytesAfterPng(bytes);
  if (trailing === null) throw mismatch(detectedType, 'the PNG has no end (IEND chunk) within the file');
  if (trailing > 0)
    throw mismatch(detectedType, `${trailing} bytes follow the PNG's end (IEND): another file hides there`);
}

/**
 * Text has no magic number: UTF-8 without NUL bytes is text, HTML when it opens with a tag (named
 * so a refusal says what was sent), else plain; null when the bytes are not text.
 */
function textTypeOf(bytes: Buffer): string | null {
  if (!isUtf8(bytes) || bytes.includes(0)) return null;
  const start = bytes
    .toString('utf8', 0, 64)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') ? 'text/html' : TEXT;
}

/**
 * How many bytes follow a PNG's IEND chunk, walking its chunks (PNG spec: an 8-byte signature, then
 * chunks of a 4-byte length, 4-byte type, data and 4-byte CRC); null when the file ends before IEND.
 */
export function bytesAfterPng(bytes: Buffer): number | null {
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    offset += 12 + length;
    if (type === 'IEND') return offset <= bytes.length ? bytes.length - offset : null;
  }
  return null;
}
