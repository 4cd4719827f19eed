import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Normalises a phone number to E.164, or returns null when it is not a valid number.
 * Numbers are international: a leading `00` or a missing `+` is read as the international prefix.
 */
export function normalizePhone(input: string): string | null {
  const cached = recent.get(input);
  if (cached !== undefined) return cached;
  const normalized = parse(input);
  if (recent.size >= CACHE_SIZE) recent.delete(recent.keys().next().value!);
  recent.set(input, normalized);
  return normalized;
}

/** Parsing with full metadata costs tens of µs; integrations send the same numbers again and again. */
const CACHE_SIZE = 10_000;
const recent = new Map<string, string | null>();

function parse(input: string): string | null {
  const trimmed = input.trim();
  if (!/^[+\d\s().\-/]{3,40}$/.test(trimmed)) return null;
  const international = trimmed.startsWith('+') ? trimmed : '+' + trimmed.replace(/^00/, '');
  const parsed = parsePhoneNumberFromString(international);
  return parsed?.isValid() ? parsed.number : null;
}
