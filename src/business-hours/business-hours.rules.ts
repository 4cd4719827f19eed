import { errors } from '../shared/errors.js';
import { businessHoursProblems } from './business-hours.problems.js';

/** The weekdays, in the order the API and the dashboard list them. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Open from `opens` until `closes`, local "HH:MM" (`closes` may be "24:00", the end of the day). */
export interface Interval {
  opens: string;
  closes: string;
}

/** A workspace's business hours as the rules read them. */
export interface BusinessHours {
  enabled: boolean;
  time_zone: string;
  /** A weekday without intervals is closed all day. */
  weekly: Record<Weekday, Interval[]>;
  /** Local dates ("YYYY-MM-DD") closed all day, whatever the weekday says. */
  holidays: string[];
  away_message: string;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The local date, weekday and minute of the day of `at` in a time zone. */
export function localMoment(at: Date, timeZone: string): { date: string; weekday: Weekday; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    weekday: part('weekday').toLowerCase() as Weekday,
    minute: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

/** Whether the business is open at `at`: not a holiday, and inside one of the weekday's intervals. */
export function isOpen(hours: Pick<BusinessHours, 'time_zone' | 'weekly' | 'holidays'>, at: Date): boolean {
  const local = localMoment(at, hours.time_zone);
  if (hours.holidays.includes(local.date)) return false;
  return hours.weekly[local.weekday].some(
    (interval) => minutesOf(interval.opens) <= local.minute && local.minute < minutesOf(interval.closes),
  );
}

/** Refuses (400, naming the field) an unknown time zone, an empty or reversed interval, or overlapping ones. */
export function checkBusinessHours(hours: Pick<BusinessHours, 'time_zone' | 'weekly' | 'holidays'>): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: hours.time_zone });
  } catch {
    throw errors.invalid(businessHoursProblems.problem('time_zone', 'time_zone'));
  }
  for (const day of WEEKDAYS) checkDay(day, hours.weekly[day]);
  for (const date of hours.holidays) {
    const parsed = new Date(`${date}T00:00:00Z`);
    if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date)
      throw errors.invalid(businessHoursProblems.problem('holidays', 'not_a_date', { date }));
  }
}

function checkDay(day: Weekday, intervals: Interval[]): void {
  const sorted = [...intervals].sort((a, b) => minutesOf(a.opens) - minutesOf(b.opens));
  sorted.forEach((interval, i) => {
    if (minutesOf(interval.opens) >= minutesOf(interval.closes)) {
      const { opens, closes } = interval;
      throw errors.invalid(businessHoursProblems.problem(`weekly.${day}`, 'closes_before_opening', { opens, closes }));
    }
    const next = sorted[i + 1];
    if (next && minutesOf(next.opens) < minutesOf(interval.closes)) {
      const { opens, closes } = interval;
      throw errors.invalid(
        businessHoursProblems.problem(`weekly.${day}`, 'intervals_overlap', { opens, closes, next_opens: next.opens }),
      );
    }
  });
}
