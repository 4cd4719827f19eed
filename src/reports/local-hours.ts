import { DateTime, IANAZone } from 'luxon';
import type { Span } from './report-filter.js';

const HOUR = 3_600_000;

/** A local hour: `YYYY-MM-DDTHH` in the workspace's time zone. */
export type LocalHour = string;

/** One hour of the workspace's clock as an instant range [since, until) in stored form. */
export interface HourBucket {
  hour: LocalHour;
  since: string;
  until: string;
}

/**
 * Every local hour from `span.start` to `span.end` (both local midnights) as instants. Computed here
 * with the zone's rules (luxon), so both engines count by the same boundaries: a DST spring day has 23
 * of them, an autumn day 25 (its repeated hour twice, under one key), and India's hours start at :30 UTC.
 * The database then counts each range with an index seek instead of grouping a million rows by a
 * computed key (a temporary B-tree that took seconds in SQLite).
 */
export function localHours(timeZone: string, span: Span): HourBucket[] {
  const zone = IANAZone.create(timeZone);
  const end = Date.parse(span.end);
  const buckets: HourBucket[] = [];
  let at = Date.parse(span.start);
  let offset = zone.offset(at);
  while (at < end) {
    let next = at + HOUR;
    const nextOffset = zone.offset(next);
    // The offset changes (DST): the next local hour starts where the zone's rules say.
    if (nextOffset !== offset) next = DateTime.fromMillis(at, { zone }).plus({ hours: 1 }).startOf('hour').toMillis();
    buckets.push({
      hour: new Date(at + offset * 60_000).toISOString().slice(0, 13),
      since: new Date(at).toISOString(),
      until: new Date(Math.min(next, end)).toISOString(),
    });
    at = next;
    offset = nextOffset === offset ? offset : zone.offset(at);
  }
  return buckets;
}
