import { reviewCampaign, type CampaignReviewInput } from '../campaigns/index.js';
import type { Deps } from '../db/deps.js';
import type { Caller } from '../shared/context.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { CampaignEstimate } from './cost.schema.js';
import { cardAt, loadPricing, priceOf } from './pricing.js';
import { timeZoneOf } from './report-filter.js';
import { roundMoney } from './report.figures.js';

type Market = CampaignEstimate['markets'][number];

/**
 * estimate-campaign: what create-campaign with the same body would cost, without creating anything.
 * The audience and messages are the confirm step's review (the dispatch's own composer), each priced
 * by the one rule at the rates in effect now, as if charged (a marketing message always is; a utility
 * one inside an open customer service window is free, which an estimate cannot know).
 */
export async function estimateCampaign(deps: Deps, caller: Caller, input: CampaignReviewInput) {
  const review = await reviewCampaign(deps.db, caller, input, deps.clock.now());
  const cost = await priceCampaign(deps, caller.workspaceId, review.category, review.phones);
  const estimate: CampaignEstimate = { ...cost, messaging_limit: review.messaging_limit, past_room: review.past_room };
  return { review, estimate };
}

async function priceCampaign(
  deps: Deps,
  workspaceId: string,
  category: string,
  phones: string[],
): Promise<Omit<CampaignEstimate, 'messaging_limit' | 'past_room'>> {
  const pricing = await loadPricing(deps.reads, workspaceId, await timeZoneOf(deps.reads, workspaceId));
  const card = cardAt(pricing, toStoredTimestamp(deps.clock.now()));
  const markets = new Map<string, Market>();
  for (const phone of phones) {
    const price = priceOf(pricing, card, category, phone);
    const entry = markets.get(price.market) ?? { ...price, messages: 0, amount: null };
    entry.messages += 1;
    markets.set(price.market, entry);
  }
  const list = [...markets.values()]
    .map((entry) => ({ ...entry, amount: entry.rate === null ? null : roundMoney(entry.rate * entry.messages) }))
    .sort((a, b) => b.messages - a.messages || a.market.localeCompare(b.market));
  return {
    currency: pricing.currency,
    category,
    messages: phones.length,
    amount: roundMoney(list.reduce((sum, entry) => sum + (entry.amount ?? 0), 0)),
    unpriced: list.reduce((sum, entry) => sum + (entry.rate === null ? entry.messages : 0), 0),
    markets: list,
  };
}
