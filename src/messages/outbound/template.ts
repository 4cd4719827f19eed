import { AppError, errors } from '../../shared/errors.js';
import {
  fillPlaceholders,
  displayedTranslation,
  type TemplateRow,
  type TranslationRow,
  COUPON_CODE,
  OFFER_EXPIRATION,
  missingCapabilities,
  translationParts,
  variableSlots,
  type TranslationParts,
  type VariableSlot,
} from '../../templates/index.js';
import type { SendTemplateInput } from '../message.schema.js';
import { templateVariableValues } from './template-variables.js';
import { messageProblems } from '../message.problems.js';
import type { TemplateContent } from '../../content/template.js';

const MEDIA_HEADERS = ['IMAGE', 'VIDEO', 'DOCUMENT'];
const HTTPS_URL = /^https:\/\/\S+$/;

/** Checks a send-template-message request against the template and renders what to store. */
export function templateContent(
  template: TemplateRow,
  translations: TranslationRow[],
  input: SendTemplateInput,
): TemplateContent {
  const translation = chooseTranslation(translations, input.language);
  if (translation.status !== 'APPROVED') {
    throw errors.templateNotApproved(translation.language, translation.status);
  }
  const missing = missingCapabilities(translation);
  if (missing.length > 0) throw errors.templateNotSendable(missing);
  const parts = translationParts(translation);
  const slots = variableSlots(parts);
  const values = templateVariableValues(slots, input);
  const named = parts.parameter_format === 'NAMED';
  const body = slots.filter((slot) => slot.part === 'body');
  const buttons = slots.filter((slot) => slot.part === 'button');
  const coupons = buttons
    .filter((slot) => slot.placeholder === COUPON_CODE)
    .map((slot) => ({ index: slot.button_index!, coupon_code: values.get(slot.id)! }));
  return {
    template_id: template.id,
    template_name: template.name,
    category: template.category,
    language: translation.language,
    body_parameters: body.map((slot) => values.get(slot.id)!),
    ...(named && { body_parameter_names: body.map((slot) => slot.placeholder) }),
    header: mediaHeader(parts, input.header_media_url) ?? textHeader(slots, values, named),
    url_button_parameters: [
      ...buttons
        .filter((slot) => slot.placeholder !== COUPON_CODE)
        .map((slot) => ({ index: slot.button_index!, text: values.get(slot.id)! })),
      ...otpButtons(parts, body, values),
    ],
    ...(coupons.length > 0 && { copy_code_parameters: coupons }),
    ...flowButtons(parts),
    ...offerExpiration(values),
    text: fillPlaceholders(
      parts.body,
      parts.parameter_format,
      new Map(body.map((slot) => [slot.placeholder, values.get(slot.id)!])),
    ),
    ...shownParts(parts, translation.footer, slots, values),
  };
}

/**
 * Checks only a template's media header link, as a send would (https; required unless the template
 * has its own sample), for automations saved now and sent later; the field is named at `field`.
 */
export function checkHeaderMedia(
  translations: TranslationRow[],
  input: Pick<SendTemplateInput, 'language' | 'header_media_url'>,
  field: string,
): void {
  const translation = translations.find((t) => t.language.toLowerCase() === input.language?.toLowerCase());
  const chosen = translation ?? displayedTranslation(translations);
  if (!chosen) return;
  try {
    mediaHeader(translationParts(chosen), input.header_media_url);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const fieldErrors = error.fieldErrors.map((problem) => ({ ...problem, field }));
    throw new AppError(error.status, error.code, error.message, fieldErrors, error.extra);
  }
}

/** What the thread shows of a template besides its body: the text header filled in, the footer, the buttons. */
function shownParts(
  parts: TranslationParts,
  footer: string | null,
  slots: VariableSlot[],
  values: Map<string, string>,
) {
  const header = slots.filter((slot) => slot.part === 'header');
  const headerValues = new Map(header.map((slot) => [slot.placeholder, values.get(slot.id)!]));
  return {
    header_text:
      parts.header_type === 'TEXT' && parts.header_content
        ? fillPlaceholders(parts.header_content, parts.parameter_format, headerValues)
        : null,
    footer: footer || null,
    buttons: parts.buttons.map((button) => ({ type: button.type, text: button.text })),
  };
}

function chooseTranslation(translations: TranslationRow[], language: string | undefined): TranslationRow {
  if (!language) return displayedTranslation(translations)!;
  const match = translations.find((t) => t.language.toLowerCase() === language.toLowerCase());
  if (!match) {
    throw errors.templateLanguageUnavailable(
      language,
      translations.map((t) => t.language),
    );
  }
  return match;
}

/**
 * A media header's link: the request's `header_media_url`, else the template's own sample
 * (`header_content`, Meta's `header_handle` when synced) when it is an https URL.
 */
function mediaHeader(parts: TranslationParts, url: string | undefined): TemplateContent['header'] {
  if (!parts.header_type || !MEDIA_HEADERS.includes(parts.header_type)) return null;
  const type = parts.header_type.toLowerCase() as 'image' | 'video' | 'document';
  if (url !== undefined) {
    if (!HTTPS_URL.test(url)) throw errors.invalid(messageProblems.problem('header_media_url', 'https_url'));
    return { type, link: url };
  }
  if (parts.header_content && HTTPS_URL.test(parts.header_content)) return { type, link: parts.header_content };
  throw errors.headerMediaRequired(parts.header_type);
}

function textHeader(slots: VariableSlot[], values: Map<string, string>, named: boolean): TemplateContent['header'] {
  const header = slots.filter((slot) => slot.part === 'header');
  if (header.length === 0) return null;
  return {
    type: 'text',
    parameters: header.map((slot) => values.get(slot.id)!),
    ...(named && { parameter_names: header.map((slot) => slot.placeholder) }),
  };
}

/** Meta's authentication templates: the OTP button repeats the body's one-time code as a url parameter. */
function otpButtons(parts: TranslationParts, body: VariableSlot[], values: Map<string, string>) {
  const code = body[0] && values.get(body[0].id);
  if (code === undefined) return [];
  return parts.buttons.flatMap((button, index) => (button.type === 'OTP' ? [{ index, text: code }] : []));
}

/** A FLOW button's Flow; its `flow_token` is the queued message's own (queue.ts gives it). */
function flowButtons(parts: TranslationParts): Pick<TemplateContent, 'flow_button_parameters'> {
  const flows = parts.buttons.flatMap((button, index) =>
    button.type === 'FLOW' ? [{ index, meta_flow_id: button.flow_id ?? '' }] : [],
  );
  return flows.length > 0 ? { flow_button_parameters: flows } : {};
}

function offerExpiration(values: Map<string, string>): Pick<TemplateContent, 'offer_expiration_time_ms'> {
  const value = values.get(OFFER_EXPIRATION);
  if (value === undefined) return {};
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw errors.invalid(messageProblems.problem('variables', 'offer_expiration_time', { variable: OFFER_EXPIRATION }));
  }
  return { offer_expiration_time_ms: Number(value.trim()) };
}
