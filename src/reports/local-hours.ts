import { sql, type RawBuilder } from 'kysely';
import { IANAZone } from 'luxon';
import type { Dialect } from '../db/connection.js';

/**
 * Counting by the workspace's local hour on both engines. PostgreSQL converts each timestamptz to the
 * zone itself (`AT TIME ZONE` knows every DST rule). SQLite stores ISO text in UTC and has no zones, so
 * it groups by the UTC hour (a cheap `substr`, no date parsing per row) and each UTC hour is moved to
 * its local hour here: a zone's offset is constant within a UTC hour when the zone's offsets are whole
 * hours. Zones with half- or quarter-hour offsets (India, Nepal, Lord Howe) are grouped by UTC
 * quarter-hour instead, which their offsets never split.
 */

/** A local hour: `YYYY-MM-DDTHH` in the workspace's time zone. */
export type LocalHour = string;

export interface HourBucketing {
  /** The SQL expression grouping a timestamp column: the local hour (PostgreSQL) or a UTC bucket (SQLite). */
  expression(column: string): RawBuilder<string>;
  /** The local hour of one bucket the expression produced. */
  localHour(bucket: string): LocalHour;
}

/** How to bucket timestamps by local hour for the engine and the zone, over instants from `start` to `end`. */
export function hourBucketing(dialect: Dialect, timeZone: string, start: string, end: string): HourBucketing {
  if (dialect === 'postgres') {
    return {
      expression: (column) => sql<string>`to_char(${sql.ref(column)} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD"T"HH24')`,
      localHour: (bucket) => bucket,
    };
  }
  const zone = IANAZone.create(timeZone);
  const quarters = !wholeHourOffsets(zone, start, end);
  const cache = new Map<string, LocalHour>();
  return {
    expression: (column) =>
      quarters
        ? sql<string>`substr(${sql.ref(column)}, 1, 14) || (cast(substr(${sql.ref(column)}, 15, 2) as integer) / 15 * 15)`
        : sql<string>`substr(${sql.ref(column)}, 1, 13)`,
    localHour(bucket) {
      let local = cache.get(bucket);
      if (local === undefined) {
        const minutes = quarters ? Number(bucket.slice(14)) : 0;
        const utc = Date.parse(`${bucket.slice(0, 13)}:00:00Z`) + minutes * 60_000;
        local = new Date(utc + zone.offset(utc) * 60_000).toISOString().slice(0, 13);
        cache.set(bucket, local);
      }
      return local;
    },
  };
}

/** Whether every offset the zone has in the years of [start, end) is a whole number of hours (summer and winter). */
function wholeHourOffsets(zone: IANAZone, start: string, end: string): boolean {
  const first = Number(start.slice(0, 4));
  const last = Number(end.slice(0, 4));
  for (let year = first; year <= last; year += 1) {
    for (const month of [0, 6]) if (zone.offset(Date.UTC(year, month, 1)) % 60 !== 0) return false;
  }
  return true;
}
