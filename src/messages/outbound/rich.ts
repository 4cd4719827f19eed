import type { Interactive } from '../../channels/whatsapp-payloads.js';
import { errors } from '../../shared/errors.js';
import { isPrivateHost, PRIVATE_TARGET } from '../../shared/public-address.js';
import type { SendContactsInput, SendInteractiveInput, SendLocationInput, SendMediaInput } from '../message.schema.js';
import type { MediaContent, MediaType, OutboundContent } from './content.js';

/**
 * The rich message kinds of the API (media, interactive, location, contacts) checked against Meta's
 * rules for each and turned into the content a message row stores. Pure: the service looks up what
 * they refer to (an upload, a quoted message) first.
 */

/** Meta fetches a media link itself; it must be https, and never a private or loopback address. */
export function checkPublicHttpsUrl(field: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.validation(field, 'must be an https URL');
  }
  if (url.protocol !== 'https:') throw errors.validation(field, 'must be an https URL');
  if (isPrivateHost(url)) throw errors.validation(field, PRIVATE_TARGET);
}

/** Captions are shown under images, videos and documents only; a file name under documents only. */
export function mediaContent(input: SendMediaInput, type: MediaType): OutboundContent {
  if ((input.media_id === undefined) === (input.media_url === undefined)) {
    throw errors.validation('media_id', 'give exactly one of media_id (from upload-media) and media_url');
  }
  if (input.media_url !== undefined) checkPublicHttpsUrl('media_url', input.media_url);
  if (input.caption !== undefined && (type === 'audio' || type === 'sticker')) {
    throw errors.validation('caption', `WhatsApp shows no caption under ${type === 'audio' ? 'an' : 'a'} ${type}`);
  }
  if (input.filename !== undefined && type !== 'document') {
    throw errors.validation('filename', 'only a document has a file name');
  }
  const media: MediaContent = {
    ...(input.media_id !== undefined ? { id: input.media_id } : { link: input.media_url }),
    ...(input.caption !== undefined && { caption: input.caption }),
    ...(input.filename !== undefined && { filename: input.filename }),
  };
  return { type, content: media };
}

/** Meta's limit on the rows of a list message, across all its sections. */
const LIST_MAX_ROWS = 10;

/** Each kind's own fields: given for it, absent for the others (a field Meta would ignore is a mistake). */
const INTERACTIVE_FIELDS = {
  button: ['buttons'],
  list: ['button', 'sections'],
  cta_url: ['display_text', 'url'],
} as const;

/** Reply buttons, a list or a CTA URL button, with their optional text header and footer. */
export function interactiveContent(input: SendInteractiveInput): OutboundContent {
  const kind = input.type as keyof typeof INTERACTIVE_FIELDS;
  checkInteractiveFields(input, kind);
  const frame = {
    ...(input.header !== undefined && { header: { type: 'text' as const, text: input.header } }),
    body: { text: input.body },
    ...(input.footer !== undefined && { footer: { text: input.footer } }),
  };
  return { type: 'interactive', content: { interactive: { ...frame, ...actionOf(input, kind) }, text: input.body } };
}

function checkInteractiveFields(input: SendInteractiveInput, kind: keyof typeof INTERACTIVE_FIELDS): void {
  for (const [other, fields] of Object.entries(INTERACTIVE_FIELDS)) {
    for (const field of fields) {
      const given = input[field] !== undefined;
      if (other === kind && !given) throw errors.validation(field, `is required for type ${kind}`);
      if (other !== kind && given) throw errors.validation(field, `is only for type ${other}`);
    }
  }
}

function actionOf(input: SendInteractiveInput, kind: keyof typeof INTERACTIVE_FIELDS) {
  switch (kind) {
    case 'button': {
      const buttons = input.buttons!;
      unique(
        'buttons',
        buttons.map((b) => b.id),
        'id',
      );
      unique(
        'buttons',
        buttons.map((b) => b.title),
        'title',
      );
      const replies = buttons.map(({ id, title }) => ({ type: 'reply' as const, reply: { id, title } }));
      return { type: 'button', action: { buttons: replies } } satisfies Partial<Interactive>;
    }
    case 'list': {
      const sections = input.sections!;
      const rows = sections.flatMap((section) => section.rows);
      if (rows.length > LIST_MAX_ROWS) {
        throw errors.validation('sections', `a list has at most ${LIST_MAX_ROWS} rows in all; ${rows.length} given`);
      }
      unique(
        'sections',
        rows.map((row) => row.id),
        'row id',
      );
      return { type: 'list', action: { button: input.button!, sections } } satisfies Partial<Interactive>;
    }
    case 'cta_url':
      checkPublicHttpsUrl('url', input.url!);
      return {
        type: 'cta_url',
        action: { name: 'cta_url', parameters: { display_text: input.display_text!, url: input.url! } },
      } satisfies Partial<Interactive>;
  }
}

function unique(field: string, values: string[], what: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw errors.validation(field, `each ${what} must be unique; "${value}" repeats`);
    seen.add(value);
  }
}

export function locationContent(input: SendLocationInput): OutboundContent {
  const { latitude, longitude, name, address } = input;
  return {
    type: 'location',
    content: { latitude, longitude, ...(name !== undefined && { name }), ...(address !== undefined && { address }) },
  };
}

export function contactsContent(input: SendContactsInput): OutboundContent {
  return { type: 'contacts', content: { contacts: input.contacts } };
}
