/**
 * Messaging limits per business portfolio (Meta, since October 2025): the unique customers a portfolio's
 * numbers may reach with business-initiated messages in a moving 24 hours — 250, 2,000, 10,000, 100,000
 * or unlimited. Meta states it in `business_capability_update` (an integer, -1 for unlimited) and in
 * `phone_number_quality_update` (`TIER_2K`…`TIER_UNLIMITED`); Parley keeps it per WABA, its model of
 * the portfolio's numbers.
 */

/** The limit Meta last stated for a WABA's portfolio, as the channels show it. */
export interface PortfolioLimit {
  /** Unique customers per moving 24 hours, or `unlimited`. */
  customers_per_24h: number | 'unlimited';
  /** Meta's event when a number's update said it: UPGRADE, DOWNGRADE, FLAGGED, UNFLAGGED, ONBOARDING…; null for a capability update. */
  event: string | null;
  /** The limit before, as Meta put it (`old_limit`), when it said. */
  previous: string | null;
  /** Business numbers the portfolio may have (`max_phone_numbers_per_business`), when Meta said. */
  max_phone_numbers: number | null;
  updated_at: string;
}

const TIER = /^TIER_(\d+)(K?)$/;

/** Meta's limit in either of its spellings (2000, "2000", -1, "TIER_2K", "TIER_UNLIMITED"); null when it names none. */
export function customersPer24h(value: unknown): PortfolioLimit['customers_per_24h'] | null {
  if (value === -1 || value === '-1' || value === 'TIER_UNLIMITED' || value === 'UNLIMITED') return 'unlimited';
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : null;
  if (typeof value !== 'string') return null;
  if (/^\d+$/.test(value)) return Number(value) > 0 ? Number(value) : null;
  const tier = TIER.exec(value);
  return tier ? Number(tier[1]) * (tier[2] === 'K' ? 1000 : 1) : null;
}

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const countOf = (value: unknown) => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
};

/** What a `business_capability_update` says of the portfolio's limit; null when it names none. */
export function limitOfCapabilityUpdate(value: Record<string, unknown>, at: string): PortfolioLimit | null {
  // max_daily_conversation_per_phone is the field Meta is removing (February 2026) in its favour.
  const limit = customersPer24h(value.max_daily_conversations_per_business ?? value.max_daily_conversation_per_phone);
  if (limit === null) return null;
  const phones = countOf(value.max_phone_numbers_per_business);
  return { customers_per_24h: limit, event: null, previous: null, max_phone_numbers: phones, updated_at: at };
}

/** What a `phone_number_quality_update` says of the portfolio's limit; null when it names none. */
export function limitOfQualityUpdate(
  value: Record<string, unknown>,
  previous: PortfolioLimit | null,
  at: string,
): PortfolioLimit | null {
  // current_limit is the field Meta is removing (February 2026) in favour of the portfolio's.
  const limit = customersPer24h(value.max_daily_conversations_per_business ?? value.current_limit);
  if (limit === null) return null;
  return {
    customers_per_24h: limit,
    event: textOf(value.event),
    previous: textOf(value.old_limit),
    max_phone_numbers: previous?.max_phone_numbers ?? null,
    updated_at: at,
  };
}
