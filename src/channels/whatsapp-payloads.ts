/**
 * Meta's documented JSON for POST /{phone-number-id}/messages.
 *
 * `to` is the contact's E.164 number as Parley stores it, with its '+'. Meta's reference gives
 * "+16505551234" as the example and recommends the plus sign with the country code: without it,
 * Meta may prepend the business number's own country code and the message goes astray.
 */

import type {
  ContactsContent,
  LocationContent,
  MediaContent,
  MediaType,
  ReactionContent,
} from '../messages/outbound/content.js';

/** A business-scoped user id (Meta's BSUID, e.g. `US.13491208655302741918`): a user known without a phone number. */
const BSUID = /^[A-Z]{2}\.[0-9A-Za-z]+$/;

/**
 * Who a message goes to: a phone number in `to`, or a user Meta named only by BSUID in `recipient`
 * (Meta's parameter for user ids; a contact's address is its BSUID until Meta shares the number).
 */
function addressed(to: string) {
  return BSUID.test(to) ? { recipient: to } : { to };
}

/** Meta's envelope around one message object: `{ type, [type]: object }` to one user. */
function messagePayload(to: string, type: string, object: object) {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', ...addressed(to), type, [type]: object };
}

/** A free-form text message (only allowed within the 24-hour customer service window). */
export function textPayload(to: string, body: string, previewUrl: boolean) {
  return messagePayload(to, 'text', { preview_url: previewUrl, body });
}

/**
 * A media message (Meta's "Media messages": `{ type: 'image', image: { id | link, caption } }`); the
 * object is Meta's own, as stored.
 */
export function mediaPayload(to: string, type: MediaType, media: MediaContent) {
  return messagePayload(to, type, media);
}

/**
 * A location pin. Meta's "Location messages" reference documents latitude and longitude as strings of
 * decimal degrees (`"latitude": "37.44216251868683"`); Parley keeps them as numbers, as webhooks carry them.
 */
export function locationPayload(to: string, location: LocationContent) {
  return messagePayload(to, 'location', {
    ...location,
    latitude: String(location.latitude),
    longitude: String(location.longitude),
  });
}

/** Contact cards (Meta's "Contacts messages": `contacts: [{ name: { formatted_name, … }, phones, … }]`). */
export function contactsPayload(to: string, contacts: ContactsContent['contacts']) {
  return messagePayload(to, 'contacts', contacts);
}

/** An emoji on one of the conversation's messages (Meta's "Reaction messages"); "" removes it. */
export function reactionPayload(to: string, reaction: ReactionContent) {
  return messagePayload(to, 'reaction', reaction);
}

export type TemplateHeader = { type: 'text'; text: string[] } | { type: 'image' | 'video' | 'document'; link: string };

export interface TemplateButtonParam {
  /** The button's position in the template, 0-based. */
  index: number;
  subType: 'url' | 'quick_reply';
  /** The URL suffix for a url button; the payload returned on tap for a quick_reply button. */
  param: string;
}

export interface TemplateMessage {
  name: string;
  /** The translation's language code, e.g. en_US. */
  language: string;
  header?: TemplateHeader;
  bodyParams: string[];
  buttonParams: TemplateButtonParam[];
}

/** An approved template with its parameters; components without parameters are left out, as Meta expects. */
export function templatePayload(to: string, template: TemplateMessage) {
  const components = [
    headerComponent(template.header),
    bodyComponent(template.bodyParams),
    ...template.buttonParams.map(buttonComponent),
  ].filter((component) => component !== null);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...addressed(to),
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(components.length > 0 && { components }),
    },
  };
}

function textParameter(text: string) {
  return { type: 'text', text };
}

function headerComponent(header: TemplateHeader | undefined) {
  if (!header) return null;
  if (header.type === 'text') {
    return header.text.length > 0 ? { type: 'header', parameters: header.text.map(textParameter) } : null;
  }
  return { type: 'header', parameters: [{ type: header.type, [header.type]: { link: header.link } }] };
}

function bodyComponent(params: string[]) {
  return params.length > 0 ? { type: 'body', parameters: params.map(textParameter) } : null;
}

function buttonComponent(button: TemplateButtonParam) {
  const parameter =
    button.subType === 'quick_reply' ? { type: 'payload', payload: button.param } : textParameter(button.param);
  return { type: 'button', sub_type: button.subType, index: String(button.index), parameters: [parameter] };
}

/** The optional text header and footer of an interactive message. */
interface InteractiveFrame {
  header?: { type: 'text'; text: string };
  footer?: { text: string };
}

/**
 * Reply buttons (up to 3), a list (up to 10 rows in sections) or a call-to-action URL button: Meta's
 * `interactive` object ("Interactive reply buttons / list / CTA URL button messages").
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
  );

/** An interactive message (like text, only inside the 24-hour customer service window). */
export function interactivePayload(to: string, interactive: Interactive) {
  return messagePayload(to, 'interactive', interactive);
}
