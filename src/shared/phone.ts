import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';

/**
 * Normalises a phone number to E.164, or returns null when it is not a valid number.
 * Numbers are international: a leading `00` or a missing `+` is read as the international prefix,
 * unless a `defaultCountry` is given, which reads a number without `+` or `00` as a national one
 * (`020 7946 0958` with GB is `+442079460958`).
 */
export function normalizePhone(input: string, defaultCountry?: CountryCode): string | null {
  const key = defaultCountry ? `${defaultCountry}:${input}` : input;
  const cached = recent.get(key);
  if (cached !== undefined) return cached;
  const normalized = parse(input, defaultCountry);
  if (recent.size >= CACHE_SIZE) recent.delete(recent.keys().next().value!);
  recent.set(key, normalized);
  return normalized;
}

/** The countries a default country may be: ISO 3166-1 alpha-2 codes with their calling code. */
export function phoneCountries(): { code: CountryCode; calling_code: string }[] {
  return getCountries().map((code) => ({ code, calling_code: getCountryCallingCode(code) }));
}

/** The country code as CountryCode when libphonenumber knows it. */
export function isPhoneCountry(code: string): code is CountryCode {
  return (getCountries() as string[]).includes(code);
}

/** Parsing with full metadata costs tens of µs; integrations send the same numbers again and again. */
const CACHE_SIZE = 10_000;
const recent = new Map<string, string | null>();

function parse(input: string, defaultCountry: CountryCode | undefined): string | null {
  const trimmed = input.trim();
  if (!/^[+\d\s().\-/]{3,40}$/.test(trimmed)) return null;
  if (defaultCountry && !/^(\+|00)/.test(trimmed)) {
    const national = parsePhoneNumberFromString(trimmed, defaultCountry);
    return national?.isValid() ? national.number : null;
  }
  const international = trimmed.startsWith('+') ? trimmed : '+' + trimmed.replace(/^00/, '');
  const parsed = parsePhoneNumberFromString(international);
  return parsed?.isValid() ? parsed.number : null;
}
