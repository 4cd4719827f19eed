import { DateTime } from 'luxon';
import type { MessageRates } from './report.types.js';

/** Every calendar day from `from` to `to` (inclusive, YYYY-MM-DD). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = DateTime.fromISO(from); day.toISODate()! <= to; day = day.plus({ days: 1 }))
    days.push(day.toISODate()!);
  return days;
}

/** Money to four decimals: Meta's per-message rates are fractions of a cent. */
export const roundMoney = (amount: number): number => Math.round(amount * 10_000) / 10_000;

/** What `messages` of a pricing category would cost at the workspace's rates; `total` is null when no rate is set. */
export function estimatedCost(messages: number, category: string, rates: MessageRates) {
  const rate = rates.rates[category] ?? null;
  return {
    currency: rates.currency,
    category,
    messages,
    rate,
    total: rate === null ? null : roundMoney(messages * rate),
  };
}
