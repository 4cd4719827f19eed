/**
 * Meta's documented JSON for POST /{phone-number-id}/messages.
 *
 * `to` is the contact's E.164 number as Parley stores it, with its '+'. Meta's reference gives
 * "+16505551234" as the example and recommends the plus sign with the country code: without it,
 * Meta may prepend the business number's own country code and the message goes astray.
 */

import type {
  ContactsContent,
  Interactive,
  LocationContent,
  MediaContent,
  MediaType,
  ReactionContent,
} from '../content/message-content.js';
import type { TemplateContent } from '../content/template.js';

/** A business-scoped user id (Meta's BSUID, e.g. `US.13491208655302741918`): a user known without a phone number. */
const BSUID = /^[A-Z]{2}\.[0-9A-Za-z]+$/;

/**
 * Who a message goes to: a phone number in `to`, or a user Meta named only by BSUID in `recipient`
 * (Meta's parameter for user ids; a contact's address is its BSUID until Meta shares the number).
 */
function addressed(to: string) {
  return BSUID.test(to) ? { recipient: to } : { to };
}

/** A message addressed to a WhatsApp group instead (Meta's Groups API: `recipient_type: group`, the group id in `to`). */
export function toGroupPayload(payload: object, groupId: string): object {
  const addressed: Record<string, unknown> = { ...payload, recipient_type: 'group', to: groupId };
  delete addressed.recipient;
  return addressed;
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

/** A text parameter; `name` is the placeholder's name in a NAMED template (Meta's `parameter_name`). */
export interface TemplateParam {
  text: string;
  name?: string;
}

export type TemplateHeader =
  { type: 'text'; params: TemplateParam[] } | { type: 'image' | 'video' | 'document'; link: string };

export type TemplateButtonParam =
  /** A URL button's dynamic suffix (also an OTP button's code); a quick reply's payload. */
  | { index: number; subType: 'url' | 'quick_reply'; param: string }
  /** A copy-code button's coupon code. */
  | { index: number; subType: 'copy_code'; couponCode: string }
  /** A FLOW button's flow_token: the send's, echoed in the customer's answer. */
  | { index: number; subType: 'flow'; flowToken: string };

export interface TemplateMessage {
  name: string;
  /** The translation's language code, e.g. en_US. */
  language: string;
  header?: TemplateHeader;
  bodyParams: TemplateParam[];
  /** A limited-time offer's end (Unix time, ms). */
  offerExpirationMs?: number;
  buttonParams: TemplateButtonParam[];
}

/** An approved template with its parameters; components without parameters are left out, as Meta expects. */
export function templatePayload(to: string, template: TemplateMessage) {
  const components = [
    headerComponent(template.header),
    bodyComponent(template.bodyParams),
    offerComponent(template.offerExpirationMs),
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

/** Meta's text parameter; a named one as in Meta's "named parameters" send example. */
function textParameter({ text, name }: TemplateParam) {
  return name === undefined ? { type: 'text', text } : { type: 'text', parameter_name: name, text };
}

function headerComponent(header: TemplateHeader | undefined) {
  if (!header) return null;
  if (header.type === 'text') {
    return header.params.length > 0 ? { type: 'header', parameters: header.params.map(textParameter) } : null;
  }
  return { type: 'header', parameters: [{ type: header.type, [header.type]: { link: header.link } }] };
}

function bodyComponent(params: TemplateParam[]) {
  return params.length > 0 ? { type: 'body', parameters: params.map(textParameter) } : null;
}

/** Meta's "Sending limited-time offer templates": the offer's expiry, between the body and the buttons. */
function offerComponent(expirationMs: number | undefined) {
  if (expirationMs === undefined) return null;
  return {
    type: 'limited_time_offer',
    parameters: [{ type: 'limited_time_offer', limited_time_offer: { expiration_time_ms: expirationMs } }],
  };
}

function buttonComponent(button: TemplateButtonParam) {
  switch (button.subType) {
    case 'copy_code':
      // As Meta's limited-time offer send example writes it: sub_type copy_code, the index as a number.
      return {
        type: 'button',
        sub_type: 'copy_code',
        index: button.index,
        parameters: [{ type: 'coupon_code', coupon_code: button.couponCode }],
      };
    case 'quick_reply':
      return quickReplyOrUrl(button, { type: 'payload', payload: button.param });
    // Meta's "Sending a Flow" (flows/guides/sendingaflow): a template's FLOW button takes the send's token.
    case 'flow':
      return {
        type: 'button',
        sub_type: 'flow',
        index: String(button.index),
        parameters: [{ type: 'action', action: { flow_token: button.flowToken } }],
      };
    case 'url':
      return quickReplyOrUrl(button, textParameter({ text: button.param }));
  }
}

function quickReplyOrUrl(button: { index: number; subType: 'url' | 'quick_reply' }, parameter: object) {
  return { type: 'button', sub_type: button.subType, index: String(button.index), parameters: [parameter] };
}

/** An interactive message (like text, only inside the 24-hour customer service window). */
export function interactivePayload(to: string, interactive: Interactive) {
  return messagePayload(to, 'interactive', interactive);
}

/** A stored template message's content as the parameters of Meta's template message. */
export function templateMessage(content: TemplateContent): TemplateMessage {
  const params = (texts: string[], names: string[] | undefined): TemplateParam[] =>
    texts.map((text, i) => (names?.[i] === undefined ? { text } : { text, name: names[i] }));
  const header = content.header;
  const buttons: TemplateButtonParam[] = [
    ...content.url_button_parameters.map((b) => ({ index: b.index, subType: 'url' as const, param: b.text })),
    ...(content.copy_code_parameters ?? []).map((b) => ({
      index: b.index,
      subType: 'copy_code' as const,
      couponCode: b.coupon_code,
    })),
    ...(content.flow_button_parameters ?? []).map((b) => ({
      index: b.index,
      subType: 'flow' as const,
      flowToken: b.flow_token!,
    })),
  ];
  return {
    name: content.template_name,
    language: content.language,
    ...(header && {
      header:
        header.type === 'text' ? { type: 'text', params: params(header.parameters, header.parameter_names) } : header,
    }),
    bodyParams: params(content.body_parameters, content.body_parameter_names),
    ...(content.offer_expiration_time_ms !== undefined && { offerExpirationMs: content.offer_expiration_time_ms }),
    buttonParams: buttons.sort((a, b) => a.index - b.index),
  };
}
