import { DateTime } from 'luxon';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { localHours, type LocalHour } from './local-hours.js';
import { resolveReportFilter, type ReportFilter, type ReportQuery } from './report-filter.js';
import { daysOf } from './report.figures.js';
import { volumeRepository, type HourCounts } from './volume.repository.js';
import { VOLUME_MEASURES, type VolumeDay, type VolumeMeasure, type VolumeReport } from './volume.schema.js';

/** Counts per local hour of each measure, over the range and the previous period together. */
type Counts = Record<VolumeMeasure, Map<LocalHour, number>>;

/**
 * The volume report: per day, conversations opened and closed and messages received and sent, with
 * the previous period of the same length; and the messages customers sent by hour of the week.
 */
export function createVolumeReport(deps: Pick<Deps, 'reads' | 'dialect' | 'clock'>) {
  const { reads, dialect, clock } = deps;
  return {
    /** The report for the caller's workspace and the query (400 naming the field for a bad one). */
    async report(caller: Caller, query: ReportQuery): Promise<{ filter: ReportFilter; report: VolumeReport }> {
      const filter = await resolveReportFilter(reads, clock, caller.workspaceId, query);
      const hours = localHours(filter.timeZone, { start: filter.previous.start, end: filter.span.end });
      const repository = volumeRepository(reads, dialect, filter);
      const [messages, spans] = await Promise.all([repository.messages(hours), repository.spans(hours)]);
      const counts: Counts = {
        conversations_opened: countByLocalHour(spans, 'first'),
        conversations_closed: countByLocalHour(spans, 'second'),
        messages_received: countByLocalHour(messages, 'first'),
        messages_sent: countByLocalHour(messages, 'second'),
      };
      return { filter, report: volumeOf(filter, counts) };
    },
  };
}

export type VolumeReportService = ReturnType<typeof createVolumeReport>;

/** One count per local hour (a DST autumn's repeated hour comes twice under one key: added up). */
function countByLocalHour(rows: HourCounts[], column: 'first' | 'second'): Map<LocalHour, number> {
  const counts = new Map<LocalHour, number>();
  for (const row of rows) counts.set(row.hour, (counts.get(row.hour) ?? 0) + Number(row[column]));
  return counts;
}

function volumeOf(filter: ReportFilter, counts: Counts): VolumeReport {
  const previousDays = daysOf(shiftDay(filter.from, -filter.days.length), shiftDay(filter.from, -1));
  const byDay = Object.fromEntries(
    VOLUME_MEASURES.map((measure) => [measure, sumBy(counts[measure], (hour) => hour.slice(0, 10))]),
  ) as Record<VolumeMeasure, Map<string, number>>;
  const dayRow = (day: string): VolumeDay => ({
    day,
    ...(Object.fromEntries(VOLUME_MEASURES.map((measure) => [measure, byDay[measure].get(day) ?? 0])) as Record<
      VolumeMeasure,
      number
    >),
  });
  const days = filter.days.map(dayRow);
  const previous_days = previousDays.map(dayRow);
  const sum = (rows: VolumeDay[], measure: VolumeMeasure) => rows.reduce((n, row) => n + row[measure], 0);
  const totals = Object.fromEntries(
    VOLUME_MEASURES.map((measure) => [measure, change(sum(days, measure), sum(previous_days, measure))]),
  ) as VolumeReport['totals'];
  return {
    range: {
      from: filter.from,
      to: filter.to,
      time_zone: filter.timeZone,
      previous_from: previousDays[0]!,
      previous_to: previousDays.at(-1)!,
    },
    days,
    previous_days,
    hours_of_week: hoursOfWeek(counts.messages_received, filter.from),
    totals,
  };
}

/** The 168 weekday × hour cells of the range (local hours before `from` belong to the previous period). */
function hoursOfWeek(received: Map<LocalHour, number>, from: string): VolumeReport['hours_of_week'] {
  const cells = sumBy(
    new Map([...received].filter(([hour]) => hour.slice(0, 10) >= from)),
    (hour) => `${new Date(`${hour.slice(0, 10)}T00:00:00Z`).getUTCDay()} ${Number(hour.slice(11, 13))}`,
  );
  const result: VolumeReport['hours_of_week'] = [];
  for (let weekday = 0; weekday < 7; weekday += 1) {
    for (let hour = 0; hour < 24; hour += 1) {
      result.push({ weekday, hour, messages_received: cells.get(`${weekday} ${hour}`) ?? 0 });
    }
  }
  return result;
}

function sumBy(counts: Map<string, number>, keyOf: (key: string) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [key, n] of counts) sums.set(keyOf(key), (sums.get(keyOf(key)) ?? 0) + n);
  return sums;
}

function change(current: number, previous: number) {
  return {
    current,
    previous,
    change: current - previous,
    change_ratio: previous === 0 ? null : Math.round(((current - previous) / previous) * 10_000) / 10_000,
  };
}

const shiftDay = (day: string, by: number) => DateTime.fromISO(day).plus({ days: by }).toISODate()!;
