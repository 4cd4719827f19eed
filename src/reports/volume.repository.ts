import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { jsonRows } from '../db/sql.js';
import type { HourBucket } from './local-hours.js';
import { onNumber, type ReportFilter } from './report-filter.js';

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
          AND ${onNumber(filter, 'm')}
          ${narrowing(filter, sql`m.contact_id`)})`;
      const result = await sql<HourCounts>`SELECT v.hour, ${count('inbound')} AS first, ${count('outbound')} AS second
        FROM ${hoursOf(buckets)}`.execute(db);
      return result.rows;
    },

    /** Per hour: conversations opened (first) and closed (second). */
    async spans(buckets: HourBucket[]): Promise<HourCounts[]> {
      // A conversation's number: the one its contact last wrote to (where the conversation continues).
      const channel =
        filter.channelId === null
          ? sql``
          : sql`AND s.contact_id IN (SELECT id FROM contacts
              WHERE workspace_id = ${ws} AND conversation_channel_id = ${filter.channelId})`;
      const count = (column: 'opened_at' | 'closed_at') => sql`(SELECT count(*) FROM conversation_spans s
        WHERE s.workspace_id = ${ws} AND s.${sql.raw(column)} >= v.since AND s.${sql.raw(column)} < v.until
          ${channel} ${narrowing(filter, sql`s.contact_id`)})`;
      const result =
        await sql<HourCounts>`SELECT v.hour, ${count('opened_at')} AS first, ${count('closed_at')} AS second
        FROM ${hoursOf(buckets)}`.execute(db);
      return result.rows;
    },
  };
}

/** Keeps the rows of conversations (by contact) in the filter's team queue and carrying its label. */
function narrowing(filter: ReportFilter, contact: RawBuilder<unknown>): RawBuilder<SqlBool> {
  const team =
    filter.teamId === null
      ? sql``
      : sql`AND ${contact} IN (SELECT contact_id FROM conversations
          WHERE workspace_id = ${filter.workspaceId} AND team_id = ${filter.teamId})`;
  const label =
    filter.labelId === null
      ? sql``
      : sql`AND ${contact} IN (SELECT contact_id FROM conversation_label_links
          WHERE workspace_id = ${filter.workspaceId} AND label_id = ${filter.labelId})`;
  return sql<SqlBool>`${team} ${label}`;
}
