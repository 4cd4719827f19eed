import { sampleMediaId, SIMULATOR_SAMPLES, readSample } from '../channels/index.js';
import { errors } from '../shared/errors.js';
import { TEXT_MAX_LENGTH, type SimulateInboundInput } from './message.schema.js';
import { messageProblems } from './message.problems.js';

export type SimulatedMessage = Omit<SimulateInboundInput, 'phone'>;

const KINDS = ['text', 'button_reply', 'list_reply', 'media', 'location', 'contact_card'] as const;

/**
 * What the simulated contact sent, stored as the webhook parser stores Meta's: a text's `{ body }`, a
 * tap as Meta's `interactive` object without its `type` (`{ button_reply: { id, title } }`), a sample
 * file as Meta's media object (`{ id, mime_type, sha256, caption?, filename? }`), a location, or a
 * contact card as Meta's `contacts` array.
 */
export async function simulatedContent(
  input: SimulatedMessage,
  newId: () => string,
): Promise<{ type: string; content: Record<string, unknown> }> {
  const given = KINDS.filter((kind) => input[kind] !== undefined);
  if (given.length !== 1)
    throw errors.invalid(messageProblems.problem('text', 'simulate_one_kind', { kinds: KINDS.join(', ') }));
  if (input.caption !== undefined && input.media !== 'image' && input.media !== 'document') {
    throw errors.invalid(messageProblems.problem('caption', 'caption_only_image_or_document'));
  }
  if (input.button_reply) return { type: 'interactive', content: { button_reply: input.button_reply } };
  if (input.list_reply) return { type: 'interactive', content: { list_reply: input.list_reply } };
  if (input.location) return { type: 'location', content: { ...input.location } };
  if (input.contact_card) return { type: 'contacts', content: { contacts: [contactCard(input.contact_card)] } };
  if (input.media) return mediaContent(input.media, input.caption, newId);
  if (!input.text!.trim() || input.text!.length > TEXT_MAX_LENGTH) {
    throw errors.invalid(messageProblems.problem('text', 'text_length', { max: TEXT_MAX_LENGTH }));
  }
  return { type: 'text', content: { body: input.text } };
}

async function mediaContent(kind: keyof typeof SIMULATOR_SAMPLES, caption: string | undefined, newId: () => string) {
  const sample = SIMULATOR_SAMPLES[kind];
  const { sha256 } = await readSample(kind);
  const content = {
    id: sampleMediaId(kind, newId()),
    mime_type: sample.mimeType,
    sha256,
    ...(caption !== undefined && { caption }),
    ...('filename' in sample && { filename: sample.filename }),
  };
  return { type: kind, content };
}

/** Meta's contact card: a formatted name and one phone (its `wa_id` the digits, as WhatsApp users have). */
function contactCard(card: { name: string; phone: string }) {
  const [first, ...rest] = card.name.trim().split(/\s+/);
  return {
    name: { formatted_name: card.name, first_name: first, ...(rest.length > 0 && { last_name: rest.join(' ') }) },
    phones: [{ phone: card.phone, wa_id: card.phone.replace(/\D/g, ''), type: 'CELL' }],
  };
}
