import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { cardAt, isCharged, loadPricing, priceOf, type RateSource } from './pricing.js';
import { timeZoneOf } from './report-filter.js';
import { roundMoney } from './report.figures.js';

/** A sent message as stored: `delivery` keeps Meta's pricing from its status webhooks (JSON). */
export interface PricedMessage {
  id: string;
  /** When it was queued (stored timestamp form): the card in effect then prices it. */
  created_at: string;
  delivery?: string | null;
}

type MetaPricing = { category: string | null; type: string | null; billable: boolean | null } | null;

/** What one charged message cost; `amount` null when no source has a rate for its market and category. */
export interface MessageCost {
  category: string;
  market: string;
  amount: number | null;
  currency: string;
  source: RateSource | null;
}

/**
 * What each charged message to one phone number cost, by the one pricing rule (pricing.ts), the same
 * figure the cost ledger adds up. Messages Meta did not charge (free service or entry point) or has not
 * priced yet get none; when none is charged nothing is read.
 */
export async function messageCosts(
  db: Kysely<Database>,
  workspaceId: string,
  phone: string,
  messages: PricedMessage[],
): Promise<Map<string, MessageCost>> {
  const charged = messages.flatMap((message) => {
    const meta = message.delivery ? (JSON.parse(message.delivery) as { pricing: MetaPricing }).pricing : null;
    return meta && isCharged(meta.type, meta.billable) ? [{ ...message, category: meta.category ?? 'unknown' }] : [];
  });
  if (charged.length === 0) return new Map();
  const pricing = await loadPricing(db, workspaceId, await timeZoneOf(db, workspaceId));
  return new Map(
    charged.map(({ id, created_at, category }) => {
      const { market, rate, source } = priceOf(pricing, cardAt(pricing, created_at), category, phone);
      const amount = rate === null ? null : roundMoney(rate);
      return [id, { category, market, amount, currency: pricing.currency, source }];
    }),
  );
}
