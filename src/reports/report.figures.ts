import { DateTime } from 'luxon';
import type { MessageRates } from './report.types.js';

/** The p-th percentile (0 < p ≤ 1) by nearest rank: a value that occurred, never an interpolation; null when empty. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/** Median and 90th percentile in whole seconds. */
export function spread(seconds: number[]): { median_seconds: number | null; p90_seconds: number | null } {
  return { median_seconds: percentile(seconds, 0.5), p90_seconds: percentile(seconds, 0.9) };
}

/** Seconds from one stored timestamp to a later one. */
export const secondsBetween = (from: string, to: string): number =>
  Math.round((Date.parse(to) - Date.parse(from)) / 1000);

/** Every calendar day from `from` to `to` (inclusive, YYYY-MM-DD). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = DateTime.fromISO(from); day.toISODate()! <= to; day = day.plus({ days: 1 }))
    days.push(day.toISODate()!);
  return days;
}

/** The calendar day (YYYY-MM-DD) a stored instant falls on in the time zone. */
export const dayIn = (stored: string, timeZone: string): string =>
  DateTime.fromISO(new Date(stored).toISOString(), { zone: timeZone }).toISODate()!;

/** How many of the instants fall on each day, every day of the range listed (zero included). */
export function countByDay(days: string[], instants: string[], timeZone: string): Map<string, number> {
  const counts = new Map(days.map((day) => [day, 0]));
  for (const instant of instants) {
    const day = dayIn(instant, timeZone);
    if (counts.has(day)) counts.set(day, counts.get(day)! + 1);
  }
  return counts;
}

/** Meta's pricing, as a status webhook reported it for a message. */
export interface Pricing {
  billable: boolean | null;
  category: string | null;
}

/** The pricing stored with a message's delivery facts, if Meta reported any. */
export function pricingOf(delivery: string | null): Pricing | null {
  if (!delivery) return null;
  return (JSON.parse(delivery) as { pricing?: Pricing | null }).pricing ?? null;
}

/** Counts billable messages by Meta's category; not billable or unpriced messages cost nothing. */
export function billableByCategory(deliveries: (string | null)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const delivery of deliveries) {
    const pricing = pricingOf(delivery);
    if (!pricing?.billable) continue;
    const category = pricing.category ?? 'unknown';
    counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  return counts;
}

/** What the billable messages cost at the workspace's rates (a category without a rate costs nothing, and says so). */
export function costOf(billable: Map<string, number>, rates: Record<string, number>): number {
  let cost = 0;
  for (const [category, count] of billable) cost += count * (rates[category] ?? 0);
  return roundMoney(cost);
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
