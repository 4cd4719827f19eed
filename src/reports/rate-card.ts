import { readFileSync } from 'node:fs';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

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

/** The key a rate card prices a pricing category of Meta's webhook under. */
export const cardCategory = (category: string): string => CARD_CATEGORY[category] ?? category;

/** The card's USD price of one message of Meta's pricing category to the market; null when the card has none. */
export function cardRate(market: string, category: string): number | null {
  const entry = CARD.markets[market] ?? CARD.markets[CARD.default_market]!;
  return entry[cardCategory(category)] ?? null;
}

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * The markets a rate card may name, by their name in lower case: the shipped card's (its regional
 * groups among them), and every country by its English name, since Meta moves markets out of their
 * groups onto their own rates (Bangladesh, Kuwait… from 2026-10-01).
 */
const MARKET_NAMES = new Map<string, string>([
  ...getCountries().map((country): [string, string] => {
    const name = COUNTRY_NAMES.of(country) ?? country;
    return [name.toLowerCase(), name];
  }),
  ...Object.keys(CARD.markets).map((market): [string, string] => [market.toLowerCase(), market]),
]);

/** A market's name as Parley keeps it (the shipped card's spelling, or the country's English name); null if none. */
export function canonicalMarket(name: string): string | null {
  return MARKET_NAMES.get(name.trim().toLowerCase()) ?? null;
}

/**
 * The market of an imported card that prices a phone number: its own country when the card names it
 * (a market Meta took out of a group), else the shipped card's market for the number.
 */
export function marketIn(markets: Record<string, unknown>, phone: string): string {
  const country = parsePhoneNumberFromString(phone)?.country;
  const own = country && COUNTRY_NAMES.of(country);
  return own && own in markets ? own : marketOf(phone);
}
