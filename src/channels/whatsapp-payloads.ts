/**
 * Meta's documented JSON for POST /{phone-number-id}/messages.
 *
 * `to` is the contact's E.164 number as Parley stores it, with its '+'. Meta's reference gives
 * "+16505551234" as the example and recommends the plus sign with the country code: without it,
 * Meta may prepend the business number's own country code and the message goes astray.
 */

/** A business-scoped user id (Meta's BSUID, e.g. `US.13491208655302741918`): a user known without a phone number. */
const BSUID = /^[A-Z]{2}\.[0-9A-Za-z]+$/;

/**
 * Who a message goes to: a phone number in `to`, or a user Meta named only by BSUID in `recipient`
 * (Meta's parameter for user ids; a contact's address is its BSUID until Meta shares the number).
 */
function addressed(to: string) {
  return BSUID.test(to) ? { recipient: to } : { to };
}

/** A free-form text message (only allowed within the 24-hour customer service window). */
export function textPayload(to: string, body: string, previewUrl: boolean) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...addressed(to),
    type: 'text',
    text: { preview_url: previewUrl, body },
  };
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

/** Reply buttons (up to 3) or a list (up to 10 rows in sections): Meta's `interactive` object. */
export type Interactive =
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
    };

/** An interactive message (like text, only inside the 24-hour customer service window). */
export function interactivePayload(to: string, interactive: Interactive) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...addressed(to),
    type: 'interactive',
    interactive,
  };
}
