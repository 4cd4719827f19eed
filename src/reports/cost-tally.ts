import type { Cost, PricingInfo } from './cost.schema.js';
import { cardFrom, isCharged, priceOf, type Pricing } from './pricing.js';
import { RATE_CARD } from './rate-card.js';
import { roundMoney } from './report.figures.js';

/** Messages counted alike: Meta's pricing of them, the card in effect when sent, one recipient's number. */
export interface PricedRow {
  category: string | null;
  pricing_type: string | null;
  billable: unknown;
  /** The imported card in effect when they were sent (its effective_from), or null. */
  card: string | null;
  phone: string;
  n: number | string;
}

/** What the rows' charged messages cost, each priced by the one rule, by category. */
export function tallyCost(pricing: Pricing, rows: PricedRow[]): Cost {
  const categories = new Map<string, Cost['categories'][number]>();
  for (const row of rows) {
    if (!isCharged(row.pricing_type, row.billable)) continue;
    const category = row.category ?? 'unknown';
    const entry = categories.get(category) ?? { category, billable: 0, priced: 0, amount: 0 };
    const n = Number(row.n);
    const { rate } = priceOf(pricing, cardFrom(pricing, row.card), category, String(row.phone));
    entry.billable += n;
    if (rate !== null) {
      entry.priced += n;
      entry.amount += n * rate;
    }
    categories.set(category, entry);
  }
  const list = [...categories.values()].map((entry) => ({ ...entry, amount: roundMoney(entry.amount) }));
  const billable = list.reduce((sum, entry) => sum + entry.billable, 0);
  const priced = list.reduce((sum, entry) => sum + entry.priced, 0);
  return {
    amount: roundMoney(list.reduce((sum, entry) => sum + entry.amount, 0)),
    billable,
    unpriced: billable - priced,
    categories: list.sort((a, b) => b.billable - a.billable || a.category.localeCompare(b.category)),
  };
}

/** What a report says about the rates it priced with. */
export function pricingInfo(pricing: Pricing): PricingInfo {
  return {
    rate_cards: pricing.cards.map(({ effective_from, source }) => ({ effective_from, source })),
    workspace_rates: Object.keys(pricing.rates).sort(),
    rate_card: pricing.shippedCard ? `${RATE_CARD.source} Effective ${RATE_CARD.effective}.` : null,
    rate_card_verified: RATE_CARD.verified,
  };
}
