import { readFileSync } from 'node:fs';
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** assets/pricing/meta-rate-card.json: Meta's USD rates by market and pricing category, with its source and date. */
interface RateCardFile {
  source: string;
  effective: string;
  verified: boolean;
  currency: 'USD';
  default_market: string;
  markets: Record<string, { countries: string[] } & Partial<Record<string, number>>>;
}

/** What a report says about the card it priced with. */
export interface RateCardInfo {
  source: string;
  effective: string;
  verified: boolean;
}

const CARD = JSON.parse(
  readFileSync(new URL('../../assets/pricing/meta-rate-card.json', import.meta.url), 'utf8'),
) as RateCardFile;

const MARKET_OF_COUNTRY = new Map(
  Object.entries(CARD.markets).flatMap(([market, entry]) => entry.countries.map((country) => [country, market])),
);

/**
 * Meta prices by calling code, so a country the card does not list but that shares its code with one
 * it does is priced there (Guernsey's +44 as the United Kingdom); a code two markets share (+1: North
 * America and the Caribbean) is left to the number's own country.
 */
const MARKET_OF_CALLING_CODE = (() => {
  const markets = new Map<string, Set<string>>();
  for (const [country, market] of MARKET_OF_COUNTRY) {
    const code = getCountryCallingCode(country as CountryCode);
    markets.set(code, (markets.get(code) ?? new Set()).add(market));
  }
  return new Map([...markets].filter(([, names]) => names.size === 1).map(([code, names]) => [code, [...names][0]!]));
})();

/**
 * Meta's webhook names categories Meta prices alike: Marketing Messages Lite is a marketing message
 * (its own rate card is the marketing one), and an authentication-international message is priced
 * under that key.
 */
const CARD_CATEGORY: Record<string, string> = { marketing_lite: 'marketing' };

export const RATE_CARD: RateCardInfo & { currency: 'USD' } = {
  source: CARD.source,
  effective: CARD.effective,
  verified: CARD.verified,
  currency: CARD.currency,
};

/**
 * The card's market for a phone number: Meta prices by the recipient's country calling code, so the
 * number's country (libphonenumber-js; +1 numbers by area code) names it. A number no country claims
 * is priced at the card's default market ("Other").
 */
export function marketOf(phone: string): string {
  const number = parsePhoneNumberFromString(phone);
  if (!number) return CARD.default_market;
  const byCountry = number.country && MARKET_OF_COUNTRY.get(number.country);
  return byCountry || (MARKET_OF_CALLING_CODE.get(number.countryCallingCode) ?? CARD.default_market);
}

/** The card's USD price of one message of Meta's pricing category to the market; null when the card has none. */
export function cardRate(market: string, category: string): number | null {
  const entry = CARD.markets[market] ?? CARD.markets[CARD.default_market]!;
  return entry[CARD_CATEGORY[category] ?? category] ?? null;
}
