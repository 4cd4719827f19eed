import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Normalises a phone number to E.164, or returns null when it is not a valid number.
 * Numbers are international: a leading `00` or a missing `+` is read as the international prefix.
 */
export function normalizePhone(input: string): string | null {
  const trimmed = input.trim();
  if (!/^[+\d\s().\-/]{3,40}$/.test(trimmed)) return null;
  const international = trimmed.startsWith('+') ? trimmed : '+' + trimmed.replace(/^00/, '');
  const parsed = parsePhoneNumberFromString(international);
  return parsed?.isValid() ? parsed.number : null;
}
