import { errors } from '../shared/errors.js';
import { normalizePhone } from '../shared/phone.js';
import { contactProblems } from './contact.problems.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_TAG_LENGTH = 64;

/** E.164 form of a phone field, or a 400 naming the field. */
export function parsePhone(value: string, field = 'phone'): string {
  const phone = normalizePhone(value);
  if (!phone) throw errors.invalid(contactProblems.problem(field, 'phone_format'));
  return phone;
}

/** A lower-cased email, null for `""`, or a 400. */
export function parseEmail(value: string, field = 'email'): string | null {
  const email = value.trim().toLowerCase();
  if (email === '') return null;
  if (!EMAIL_PATTERN.test(email)) throw errors.invalid(contactProblems.problem(field, 'email_format'));
  return email;
}

/** A trimmed name, null for `""`. */
export function parseName(value: string): string | null {
  const name = value.trim();
  return name === '' ? null : name;
}

/** Tag names from `"vip, fr"` or `["vip","fr"]`: trimmed, non-empty, de-duplicated ignoring case. */
export function parseTagNames(value: string | string[], field = 'tags'): string[] {
  const parts = (Array.isArray(value) ? value : value.split(',')).map((name) => name.trim()).filter(Boolean);
  const seen = new Map<string, string>();
  for (const name of parts) {
    if (name.length > MAX_TAG_LENGTH)
      throw errors.invalid(contactProblems.problem(field, 'tag_name_too_long', { max: MAX_TAG_LENGTH }));
    if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()];
}

/** A shallow merge where `null` removes a key (JSON merge patch, one level deep). */
export function mergeAttributes(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** Empty strings from integration tools mean "not given". */
export function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
