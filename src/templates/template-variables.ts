import { extractPlaceholders, type ParameterFormat } from './placeholders.js';
import type { TranslationRow } from './template.repository.js';
import type { Button } from './template.schema.js';

/** The parts of a translation that decide which variables a send must give. */
export interface TranslationParts {
  body: string;
  header_type: string | null;
  header_content: string | null;
  buttons: Button[];
  parameter_format: ParameterFormat;
  /** Meta's components kept whole (see `other_components`). */
  other_components: OtherComponent[];
}

/** A component Parley keeps as Meta lists it; a limited-time offer says whether it expires. */
export interface OtherComponent {
  type: string;
  limited_time_offer?: { text?: string; has_expiration?: boolean };
}

/**
 * One value a send must give, keyed by the id `/api/v1/dropdowns/template-variables` lists:
 * the body's placeholder (`"1"`, `"first_name"`), `header_<placeholder>`, `button_<index>_<placeholder>`,
 * `button_<index>_coupon_code` for a copy-code button, or `offer_expiration_time_ms` for a limited-time
 * offer that expires.
 */
export interface VariableSlot {
  id: string;
  label: string;
  part: 'body' | 'header' | 'button' | 'offer';
  /** The placeholder inside its text, `coupon_code` or `expiration_time_ms`. */
  placeholder: string;
  /** The button's position (0-based), for a button slot. */
  button_index?: number;
}

export const COUPON_CODE = 'coupon_code';
export const OFFER_EXPIRATION = 'offer_expiration_time_ms';

/** Every variable of a translation, body first, then header, then buttons in order. */
export function variableSlots(parts: TranslationParts): VariableSlot[] {
  const format = parts.parameter_format;
  const body = extractPlaceholders(parts.body, format).map((p): VariableSlot => ({
    id: p,
    label: `{{${p}}}`,
    part: 'body',
    placeholder: p,
  }));
  const header = headerPlaceholders(parts).map((p): VariableSlot => ({
    id: `header_${p}`,
    label: `Header {{${p}}}`,
    part: 'header',
    placeholder: p,
  }));
  const buttons = buttonPlaceholders(parts.buttons, format).map(({ index, placeholder, text }): VariableSlot => ({
    id: `button_${index}_${placeholder}`,
    label: placeholder === COUPON_CODE ? `Button "${text}": coupon code` : `Button "${text}" {{${placeholder}}}`,
    part: 'button',
    placeholder,
    button_index: index,
  }));
  return [...body, ...header, ...offerSlots(parts.other_components), ...buttons];
}

/** Meta's limited-time offer with `has_expiration` takes the offer's end as a Unix time in milliseconds. */
function offerSlots(components: OtherComponent[]): VariableSlot[] {
  const expires = components.some((c) => isLimitedTimeOffer(c) && c.limited_time_offer?.has_expiration === true);
  return expires
    ? [
        {
          id: OFFER_EXPIRATION,
          label: 'Offer expires (Unix time, ms)',
          part: 'offer',
          placeholder: 'expiration_time_ms',
        },
      ]
    : [];
}

const isLimitedTimeOffer = (c: OtherComponent) => c.type.toUpperCase() === 'LIMITED_TIME_OFFER';

/** The placeholders of a TEXT header, in the order Meta expects their values. */
export function headerPlaceholders(
  parts: Pick<TranslationParts, 'header_type' | 'header_content' | 'parameter_format'>,
) {
  return parts.header_type === 'TEXT' ? extractPlaceholders(parts.header_content ?? '', parts.parameter_format) : [];
}

/**
 * The buttons that take a value when sent: a URL button's `{{…}}` suffix, a copy-code button's
 * coupon code. An OTP button takes none of its own: Meta wants the body's one-time code repeated.
 */
export function buttonPlaceholders(buttons: Button[], format: ParameterFormat) {
  return buttons.flatMap((button, index) => {
    if (button.type === 'COPY_CODE') return [{ index, placeholder: COUPON_CODE, text: button.text }];
    if (button.type !== 'URL') return [];
    // Meta numbers a URL button's suffix `{{1}}` even in a NAMED template; a name is read too.
    const url = button.url ?? '';
    const placeholders = new Set([...extractPlaceholders(url), ...extractPlaceholders(url, format)]);
    return [...placeholders].map((placeholder) => ({ index, placeholder, text: button.text }));
  });
}

/** A stored translation's parts, parsed. */
export function translationParts(row: TranslationRow): TranslationParts {
  return {
    body: row.body,
    header_type: row.header_type,
    header_content: row.header_content,
    buttons: JSON.parse(row.buttons) as Button[],
    parameter_format: row.parameter_format === 'NAMED' ? 'NAMED' : 'POSITIONAL',
    other_components: JSON.parse(row.other_components) as OtherComponent[],
  };
}

/** Meta's components Parley keeps but cannot send, by the name a refusal gives the missing capability. */
const CAPABILITIES: Record<string, string> = { CAROUSEL: 'carousel' };

/** What a translation needs that Parley cannot send yet: one entry per kept component it cannot fill. */
export function missingCapabilities(row: Pick<TranslationRow, 'other_components'>): string[] {
  const components = JSON.parse(row.other_components) as OtherComponent[];
  return components
    .filter((c) => !isLimitedTimeOffer(c))
    .map((c) => CAPABILITIES[c.type.toUpperCase()] ?? c.type.toLowerCase());
}
