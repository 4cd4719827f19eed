import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { jsonRows } from '../db/sql.js';
import type { HourBucket } from './local-hours.js';
import { conversationOnNumber, inTeamAndLabel, onNumber, type ReportFilter } from './report-filter.js';

type Db = Kysely<Database>;

/** Two counts of one local hour (see local-hours.ts). */
export interface HourCounts {
  hour: string;
  first: number | string;
  second: number | string;
}

/**
 * The volume report's reads (messages, conversation_spans; conversations, conversation_label_links and
 * contacts only to narrow). Each is one statement over the hours of the range: per hour, two counts,
 * each an index range scan — the (workspace, direction, created_at) index for messages, the
 * (workspace, opened_at) and (workspace, closed_at) ones for spans.
 */
export function volumeRepository(db: Db, dialect: Dialect, filter: ReportFilter) {
  const hoursOf = (buckets: HourBucket[]) =>
    jsonRows(dialect, buckets, { hour: 'text', since: 'timestamptz', until: 'timestamptz' });
  const ws = filter.workspaceId;

  return {
    /** Per hour: messages customers sent (first) and messages sent to customers (second). */
    async messages(buckets: HourBucket[]): Promise<HourCounts[]> {
      const count = (direction: 'inbound' | 'outbound') => sql`(SELECT count(*) FROM messages m
        WHERE m.workspace_id = ${ws} AND m.direction = ${direction}
          AND m.created_at >= v.since AND m.created_at < v.until
          AND ${onNumber(filter, 'm')} AND ${inTeamAndLabel(filter, 'm.contact_id')})`;
      const result = await sql<HourCounts>`SELECT v.hour, ${count('inbound')} AS first, ${count('outbound')} AS second
        FROM ${hoursOf(buckets)}`.execute(db);
      return result.rows;
    },

    /** Per hour: conversations opened (first) and closed (second). */
    async spans(buckets: HourBucket[]): Promise<HourCounts[]> {
      const count = (column: 'opened_at' | 'closed_at') => sql`(SELECT count(*) FROM conversation_spans s
        WHERE s.workspace_id = ${ws} AND s.${sql.raw(column)} >= v.since AND s.${sql.raw(column)} < v.until
          AND ${conversationOnNumber(filter, 's.contact_id')} AND ${inTeamAndLabel(filter, 's.contact_id')})`;
      const result =
        await sql<HourCounts>`SELECT v.hour, ${count('opened_at')} AS first, ${count('closed_at')} AS second
        FROM ${hoursOf(buckets)}`.execute(db);
      return result.rows;
    },
  };
}
