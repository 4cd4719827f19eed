import { Type } from '@sinclair/typebox';
import { DateTime, Duration as LuxonDuration } from 'luxon';

/** ISO 8601 durations of days, weeks, hours, minutes, seconds (months and years vary in length). */
const DURATION_PATTERN = '^P(?!$)(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$';

export const DurationSchema = Type.String({
  pattern: DURATION_PATTERN,
  description: 'ISO 8601 duration: PT30M, PT2H, P1D, P1DT12H, P2W',
});

/** Milliseconds of an ISO 8601 duration; throws on anything else. */
export function durationMs(iso: string): number {
  if (!new RegExp(DURATION_PATTERN).test(iso)) throw new Error(`not an ISO 8601 duration: ${iso}`);
  return LuxonDuration.fromISO(iso).toMillis();
}

const HHMM = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'Wall-clock time, HH:MM (24 h)' });

export const SendingHoursSchema = Type.Object(
  {
    start: HHMM,
    end: HHMM,
    days: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
        minItems: 1,
        maxItems: 7,
        uniqueItems: true,
        description: 'ISO weekdays, 1 = Monday … 7 = Sunday (default: every day)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "When steps that ask for it may run, in the workspace's time zone (start inclusive, end exclusive)",
  },
);

export interface SendingHours {
  start: string;
  end: string;
  days?: number[] | undefined;
}

/**
 * The first instant at or after `at` inside the sending hours, in `timeZone` (an IANA name).
 * Wall-clock arithmetic goes through Luxon, so a DST change moves the instant, not the hour.
 */
export function nextSendingTime(at: Date, hours: SendingHours, timeZone: string): Date {
  const local = DateTime.fromJSDate(at, { zone: timeZone });
  const [startHour, startMinute] = hours.start.split(':').map(Number) as [number, number];
  const [endHour, endMinute] = hours.end.split(':').map(Number) as [number, number];
  for (let offset = 0; offset <= 7; offset++) {
    const day = local.startOf('day').plus({ days: offset });
    if (hours.days && !hours.days.includes(day.weekday)) continue;
    const opens = day.set({ hour: startHour, minute: startMinute });
    const closes = day.set({ hour: endHour, minute: endMinute });
    if (local < opens) return opens.toJSDate();
    if (local < closes) return at;
  }
  return at; // unreachable with at least one day allowed and start < end
}

/** A time zone Luxon (and so the ICU data) knows. */
export function isTimeZone(name: string): boolean {
  return DateTime.now().setZone(name).isValid;
}
