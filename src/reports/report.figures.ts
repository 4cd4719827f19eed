import { DateTime } from 'luxon';

/** Every calendar day from `from` to `to` (inclusive, YYYY-MM-DD). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = DateTime.fromISO(from); day.toISODate()! <= to; day = day.plus({ days: 1 }))
    days.push(day.toISODate()!);
  return days;
}

/** Money to four decimals: Meta's per-message rates are fractions of a cent. */
export const roundMoney = (amount: number): number => Math.round(amount * 10_000) / 10_000;
