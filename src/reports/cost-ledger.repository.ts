import { sql, type Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { jsonRows } from '../db/sql.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { PricedRow } from './cost-tally.js';
import { pricingColumns, type Pricing } from './pricing.js';
import { inTeamAndLabel, onNumber, type ReportFilter } from './report-filter.js';

/** What the ledger adds up by. */
export type LedgerGrouping = 'day' | 'channel' | 'campaign';

/** Messages counted alike within one group: a day (YYYY-MM-DD), a channel's id or a campaign's id (null: none). */
export type LedgerRow = PricedRow & { grp: string | null };

/**
 * The cost ledger's read (messages; contacts for the recipient's number; conversations and labels only
 * to narrow): the outbound messages of the range that Meta's status webhooks priced, counted by group,
 * pricing, card in effect and recipient number prefix (enough to find the market), in one statement.
 * By day, the workspace's days are a table of instants joined on the (workspace, direction,
 * created_at) index, as the volume report reads hours.
 */
export async function costLedgerRows(
  db: Kysely<Database>,
  dialect: Dialect,
  filter: ReportFilter,
  pricing: Pricing,
  grouping: LedgerGrouping,
  /** Only the messages of this sender type (the AI report: the assistant's, `ai`); every sender when absent. */
  senderType?: 'ai',
): Promise<LedgerRow[]> {
  const sender = senderType === undefined ? sql`` : sql` AND m.sender_type = ${senderType}`;
  const outbound = sql`m.workspace_id = ${filter.workspaceId} AND m.direction = 'outbound'${sender}`;
  const range =
    grouping === 'day'
      ? sql`${jsonRows(dialect, dayBuckets(filter), { day: 'text', since: 'timestamptz', until: 'timestamptz' })}
          JOIN messages m ON ${outbound} AND m.created_at >= v.since AND m.created_at < v.until`
      : sql`messages m`;
  const inSpan =
    grouping === 'day'
      ? sql`1 = 1`
      : sql`${outbound} AND m.created_at >= ${filter.span.start} AND m.created_at < ${filter.span.end}`;
  const group = { day: sql`v.day`, channel: sql`m.channel_id`, campaign: sql`m.campaign_id` }[grouping];
  const columns = Object.entries(pricingColumns(dialect, pricing)).map(
    ([name, column]) => sql`${column} AS ${sql.ref(name)}`,
  );
  const result = await sql<LedgerRow>`SELECT ${group} AS grp, ${sql.join(columns)},
      substr(c.phone, 1, 5) AS prefix, min(c.phone) AS phone, count(*) AS n
    FROM ${range} JOIN contacts c ON c.id = m.contact_id
    WHERE ${inSpan} AND m.delivery IS NOT NULL
      AND ${onNumber(filter, 'm')} AND ${inTeamAndLabel(filter, 'm.contact_id')}
    GROUP BY grp, category, billable, pricing_type, card, prefix`.execute(db);
  return result.rows;
}

/** The report's days as instants [since, until) in the workspace's time zone. */
export function dayBuckets(filter: ReportFilter) {
  const instant = (day: DateTime) => toStoredTimestamp(day.toJSDate());
  return filter.days.map((day) => {
    const start = DateTime.fromISO(day, { zone: filter.timeZone });
    return { day, since: instant(start), until: instant(start.plus({ days: 1 })) };
  });
}

/** The names the ledger shows for its groups: a number's display phone number, a campaign's name. */
export async function ledgerNames(
  db: Kysely<Database>,
  workspaceId: string,
  grouping: LedgerGrouping,
): Promise<Map<string, { key: string; name: string | null }>> {
  if (grouping === 'day') return new Map();
  const rows =
    grouping === 'channel'
      ? await db
          .selectFrom('channels')
          .select(['id', 'phone_number_id as key', 'display_phone_number as name'])
          .where('workspace_id', '=', workspaceId)
          .execute()
      : await db
          .selectFrom('campaigns')
          .select(['id', 'id as key', 'name'])
          .where('workspace_id', '=', workspaceId)
          .execute();
  return new Map(rows.map((row) => [row.id, { key: row.key ?? row.id, name: row.name }]));
}
