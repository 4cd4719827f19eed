import type { TemplateContent } from './template.js';

/** The kinds of media Meta sends as a message of their own type. */
export const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Meta's `context`: the message a reply quotes, by its WhatsApp id (wamid). */
export interface ReplyContext {
  message_id: string;
}

/**
 * Meta's media object: the id of a file uploaded to Meta (upload-media), or an https link Meta fetches;
 * a caption (image, video, document) and a filename (document) where Meta allows them.
 */
export interface MediaContent {
  id?: string;
  link?: string;
  caption?: string;
  filename?: string;
}

/** Meta's location object. */
export interface LocationContent {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** Meta's contact cards (`contacts[]`: name, phones, emails, …), kept as given: Meta validates the detail. */
export interface ContactsContent {
  contacts: Record<string, unknown>[];
}

/** Meta's reaction: an emoji on one message, by its wamid; an empty emoji removes the reaction. */
export interface ReactionContent {
  message_id: string;
  emoji: string;
}

/** Any kind may quote an earlier message (a reply): its wamid is stored with the content it is sent with. */
type Quoting<T> = T & { context?: ReplyContext };

/**
 * What a business sends, typed by kind. `content` is exactly what the message row stores (and the API
 * shows): enough to build the channel's request later without reading anything else again. The shapes
 * are Meta's own objects, as received messages store them, so the inbox shows both directions alike.
 * `reply_to_message_id` is the Parley id of the message a reply quotes (or a reaction is on).
 */
export type OutboundContent = OutboundKind & { reply_to_message_id?: string };

type OutboundKind =
  | { type: 'text'; content: Quoting<{ body: string; preview_url: boolean }> }
  | { type: 'interactive'; content: Quoting<{ interactive: Interactive; text: string }> }
  | { type: 'template'; content: Quoting<TemplateContent> }
  | { type: MediaType; content: Quoting<MediaContent> }
  | { type: 'location'; content: Quoting<LocationContent> }
  | { type: 'contacts'; content: Quoting<ContactsContent> }
  | { type: 'reaction'; content: ReactionContent };

export type OutboundType = OutboundContent['type'];

const OUTBOUND_TYPES: readonly string[] = [
  'text',
  'interactive',
  'template',
  ...MEDIA_TYPES,
  'location',
  'contacts',
  'reaction',
] satisfies OutboundType[];

export const textContent = (body: string, previewUrl = false): OutboundContent => ({
  type: 'text',
  content: { body, preview_url: previewUrl },
});

export const isMediaType = (type: string): type is MediaType => (MEDIA_TYPES as readonly string[]).includes(type);

/** A stored outbound message's content back in its typed form (the outbox reads it to send). */
export function storedContent(type: string, json: string): OutboundContent {
  const content = JSON.parse(json) as Record<string, unknown>;
  if (type === 'text')
    return { type, content: { ...content, preview_url: content.preview_url === true } } as OutboundContent;
  if (OUTBOUND_TYPES.includes(type)) return { type, content } as OutboundContent;
  throw new Error(`not an outbound message type: ${type}`);
}

/** Templates approved in a marketing category: the only kind an opted-out contact is never sent. */
export const isMarketing = (message: OutboundContent): boolean =>
  message.type === 'template' && message.content.category === 'MARKETING';

/** The optional text header and footer of an interactive message. */
interface InteractiveFrame {
  header?: { type: 'text'; text: string };
  footer?: { text: string };
}

/**
 * Meta's `parameters` of a Flow message: the Flow (`flow_id`), the token Parley made for this send (Meta
 * echoes it in the answer), the button's text, and how the Flow opens: on `screen` with `data`
 * (`navigate`), or asking the Flow's data endpoint (`data_exchange`).
 */
export interface FlowParameters {
  flow_message_version: '3';
  flow_token: string;
  flow_id: string;
  flow_cta: string;
  flow_action: 'navigate' | 'data_exchange';
  flow_action_payload?: { screen: string; data?: Record<string, unknown> };
}

/**
 * Reply buttons (up to 3), a list (up to 10 rows in sections), a call-to-action URL button or a call
 * permission request: Meta's `interactive` object ("Interactive reply buttons / list / CTA URL button
 * messages", "Obtain user call permissions").
 */
export type Interactive = InteractiveFrame &
  (
    | {
        type: 'button';
        body: { text: string };
        action: { buttons: { type: 'reply'; reply: { id: string; title: string } }[] };
      }
    | {
        type: 'list';
        body: { text: string };
        action: {
          button: string;
          sections: { title: string; rows: { id: string; title: string; description?: string }[] }[];
        };
      }
    | {
        type: 'cta_url';
        body: { text: string };
        action: { name: 'cta_url'; parameters: { display_text: string; url: string } };
      }
    | {
        /** A WhatsApp Flow (Meta's form) the customer opens with the `flow_cta` button (Meta's "Send a Flow"). */
        type: 'flow';
        body: { text: string };
        action: { name: 'flow'; parameters: FlowParameters };
      }
    | {
        /** Meta's call permission request: the customer answers whether the business may call them. */
        type: 'call_permission_request';
        body: { text: string };
        action: { name: 'call_permission_request' };
      }
  );
