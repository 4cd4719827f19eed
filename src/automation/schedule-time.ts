import { Type } from '@sinclair/typebox';
import { DateTime } from 'luxon';

/** ISO 8601 durations of weeks, days, hours, minutes, seconds (months and years vary in length). */
const DURATION_PATTERN =
  '^P(?!$)(?:(\\d+)W)?(?:(\\d+)D)?(?:T(?=\\d)(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+(?:\\.\\d+)?)S)?)?$';
const DURATION = new RegExp(DURATION_PATTERN);
const UNIT_MS = [7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000];

export const DurationSchema = Type.String({
  pattern: DURATION_PATTERN,
  description: 'ISO 8601 duration: PT30M, PT2H, P1D, P1DT12H, P2W',
});

/** Milliseconds of an ISO 8601 duration (PnW, PnDTnHnMnS); throws a RangeError on anything else. */
export function durationMs(iso: string): number {
  const match = DURATION.exec(iso);
  if (!match) throw new RangeError(`"${iso}" is not an ISO 8601 duration of weeks, days, hours, minutes, seconds`);
  const ms = Math.round(UNIT_MS.reduce((sum, unit, i) => sum + unit * Number(match[i + 1] ?? 0), 0));
  if (!Number.isSafeInteger(ms)) throw new RangeError(`"${iso}" is too long a duration`);
  return ms;
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
