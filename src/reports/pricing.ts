import { sql, type Kysely, type RawBuilder } from 'kysely';
import { DateTime } from 'luxon';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { toStoredTimestamp } from '../shared/time.js';
import { cardCategory, cardRate, marketIn, marketOf, RATE_CARD } from './rate-card.js';
import { reportRepository } from './report.repository.js';

/** A rate card the workspace imported, in effect from `since` (the start of its day) until the next one. */
export interface ImportedCard {
  effective_from: string;
  since: string;
  currency: string;
  source: string;
  /** Market → pricing category → price per charged message. */
  rates: Record<string, Record<string, number>>;
}

/** Everything that prices a workspace's messages, read once per report. */
export interface Pricing {
  /** The one currency the workspace prices in: its cards', else its rates', else USD. */
  currency: string;
  /** Its own rate per pricing category (Reports → Message rates). */
  rates: Record<string, number>;
  /** Its imported cards, the newest first. */
  cards: ImportedCard[];
  /** Whether Meta's shipped USD card may price what the workspace's own rates leave out. */
  shippedCard: boolean;
}

/** Which of the three sources priced a message (see `priceOf`). */
export type RateSource = 'rate_card' | 'workspace_rate' | 'meta_card';

/** One message's price: its market, the rate (null: no source has one) and where the rate came from. */
export interface Price {
  market: string;
  rate: number | null;
  source: RateSource | null;
}

/** Reads the workspace's rates and cards; a card's day starts at midnight in the workspace's time zone. */
export async function loadPricing(db: Kysely<Database>, workspaceId: string, timeZone: string): Promise<Pricing> {
  const repository = reportRepository(db);
  const [ratesRow, cardRows] = await Promise.all([repository.rates(workspaceId), repository.rateCards(workspaceId)]);
  const cards = cardRows.map((row) => ({
    effective_from: row.effective_from,
    since: toStoredTimestamp(DateTime.fromISO(row.effective_from, { zone: timeZone }).toJSDate()),
    currency: row.currency,
    source: row.source,
    rates: JSON.parse(row.rates) as ImportedCard['rates'],
  }));
  const currency = cards[0]?.currency ?? ratesRow?.currency ?? RATE_CARD.currency;
  return {
    currency,
    rates: ratesRow ? (JSON.parse(ratesRow.rates) as Record<string, number>) : {},
    cards,
    shippedCard: currency === RATE_CARD.currency,
  };
}

/**
 * The one pricing rule, for every report, the ledger and the estimate. A message of a pricing category
 * to a phone number, sent while `card` was in effect, costs:
 * 1. the card's rate for the number's market and the category, else
 * 2. the workspace's own rate for the category (every market alike), else
 * 3. Meta's shipped USD card, when the workspace prices in USD (dollars are never added to euros).
 */
export function priceOf(pricing: Pricing, card: ImportedCard | undefined, category: string, phone: string): Price {
  if (card) {
    const market = marketIn(card.rates, phone);
    const rate = card.rates[market]?.[cardCategory(category)];
    if (rate !== undefined) return { market, rate, source: 'rate_card' };
  }
  const market = marketOf(phone);
  const own = pricing.rates[category];
  if (own !== undefined) return { market, rate: own, source: 'workspace_rate' };
  const shipped = pricing.shippedCard ? cardRate(market, category) : null;
  return { market, rate: shipped, source: shipped === null ? null : 'meta_card' };
}

/** The card in effect at an instant (stored timestamp form). */
export function cardAt(pricing: Pricing, at: string): ImportedCard | undefined {
  return pricing.cards.find((card) => card.since <= at);
}

/** The card a query's `card` column names (see `cardInEffectSql`). */
export function cardFrom(pricing: Pricing, effectiveFrom: string | null): ImportedCard | undefined {
  return pricing.cards.find((card) => card.effective_from === effectiveFrom);
}

/** A text field of a JSON column (messages.delivery, messages.error), on either engine. */
export function jsonText(dialect: Dialect, column: string, path: string[]): RawBuilder<string | null> {
  if (dialect === 'postgres') {
    const steps = path.slice(0, -1).map((key) => sql` -> ${key}`);
    return sql<string | null>`(${sql.ref(column)}${sql.join(steps, sql``)} ->> ${path.at(-1)!})`;
  }
  return sql<string | null>`json_extract(${sql.ref(column)}, ${`$.${path.join('.')}`})`;
}

/**
 * What prices the messages `m` of a query, to select and group by: Meta's pricing of each (category,
 * billable, type, from its status webhooks) and the card in effect when it was queued (its
 * `effective_from`; null before the first card).
 */
export function pricingColumns(dialect: Dialect, pricing: Pricing) {
  const branches = pricing.cards.map((card) => sql`WHEN m.created_at >= ${card.since} THEN ${card.effective_from}`);
  const card =
    branches.length === 0 ? sql<string | null>`NULL` : sql<string | null>`(CASE ${sql.join(branches, sql` `)} END)`;
  return {
    category: jsonText(dialect, 'm.delivery', ['pricing', 'category']),
    billable: jsonText(dialect, 'm.delivery', ['pricing', 'billable']),
    pricing_type: jsonText(dialect, 'm.delivery', ['pricing', 'type']),
    card,
  };
}

/**
 * Whether Meta charges for a message. Since per-message pricing (July 2025) its status's `pricing.type`
 * says so: `regular` is charged, `free_customer_service` and `free_entry_point` are not. `billable` is
 * deprecated and may be absent; a status without a type (before July 2025) is read by it, as either
 * engine reads it out of JSON (true, 'true' or 1).
 */
export function isCharged(pricingType: string | null, billable: unknown): boolean {
  if (pricingType !== null) return pricingType === 'regular';
  return billable === true || billable === 1 || billable === 'true' || billable === '1';
}
