import type { Interactive, MediaContent, MediaType, OutboundContent } from '../../content/message-content.js';
import { errors } from '../../shared/errors.js';
import { isPrivateHost } from '../../shared/public-address.js';
import type { SendContactsInput, SendInteractiveInput, SendLocationInput, SendMediaInput } from '../message.schema.js';
import { messageProblems } from '../message.problems.js';

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
    throw errors.invalid(messageProblems.problem(field, 'https_url'));
  }
  if (url.protocol !== 'https:') throw errors.invalid(messageProblems.problem(field, 'https_url'));
  if (isPrivateHost(url)) throw errors.invalid(messageProblems.problem(field, 'private_address'));
}

/** Captions are shown under images, videos and documents only; a file name under documents only. */
export function mediaContent(input: SendMediaInput, type: MediaType): OutboundContent {
  if ((input.media_id === undefined) === (input.media_url === undefined)) {
    throw errors.invalid(messageProblems.problem('media_id', 'one_media_source'));
  }
  if (input.media_url !== undefined) checkPublicHttpsUrl('media_url', input.media_url);
  if (input.caption !== undefined && (type === 'audio' || type === 'sticker')) {
    throw errors.invalid(
      messageProblems.problem('caption', type === 'audio' ? 'no_caption_on_audio' : 'no_caption_on_sticker'),
    );
  }
  if (input.filename !== undefined && type !== 'document') {
    throw errors.invalid(messageProblems.problem('filename', 'filename_only_document'));
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
  call_permission_request: [],
} as const;

/** Meta's call permission request is its body and Meta's own buttons: no header or footer. */
const BODY_ONLY: readonly string[] = ['call_permission_request'];

/** Reply buttons, a list, a CTA URL button or a call permission request, with their optional text header and footer. */
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
  for (const field of ['header', 'footer'] as const) {
    if (BODY_ONLY.includes(kind) && input[field] !== undefined)
      throw errors.invalid(messageProblems.problem(field, 'not_for_type', { type: kind }));
  }
  for (const [other, fields] of Object.entries(INTERACTIVE_FIELDS)) {
    for (const field of fields) {
      const given = input[field] !== undefined;
      if (other === kind && !given)
        throw errors.invalid(messageProblems.problem(field, 'required_for_type', { type: kind }));
      if (other !== kind && given)
        throw errors.invalid(messageProblems.problem(field, 'only_for_type', { type: other }));
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
        'button_id_repeats',
      );
      unique(
        'buttons',
        buttons.map((b) => b.title),
        'button_title_repeats',
      );
      const replies = buttons.map(({ id, title }) => ({ type: 'reply' as const, reply: { id, title } }));
      return { type: 'button', action: { buttons: replies } } satisfies Partial<Interactive>;
    }
    case 'list': {
      const sections = input.sections!;
      const rows = sections.flatMap((section) => section.rows);
      if (rows.length > LIST_MAX_ROWS) {
        throw errors.invalid(
          messageProblems.problem('sections', 'list_too_many_rows', { max: LIST_MAX_ROWS, given: rows.length }),
        );
      }
      unique(
        'sections',
        rows.map((row) => row.id),
        'row_id_repeats',
      );
      return { type: 'list', action: { button: input.button!, sections } } satisfies Partial<Interactive>;
    }
    case 'cta_url':
      checkPublicHttpsUrl('url', input.url!);
      return {
        type: 'cta_url',
        action: { name: 'cta_url', parameters: { display_text: input.display_text!, url: input.url! } },
      } satisfies Partial<Interactive>;
    case 'call_permission_request':
      return {
        type: 'call_permission_request',
        action: { name: 'call_permission_request' },
      } satisfies Partial<Interactive>;
  }
}

/** Each value once; `code` names what repeats (a button's id or title, a row's id). */
function unique(
  field: string,
  values: string[],
  code: 'button_id_repeats' | 'button_title_repeats' | 'row_id_repeats',
): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw errors.invalid(messageProblems.problem(field, code, { value }));
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
