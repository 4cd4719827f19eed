import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { conversationOnNumber, inTeamAndLabel, onNumber, type ReportFilter, type Span } from './report-filter.js';

type Db = Kysely<Database>;
type Fragment = RawBuilder<unknown>;

/** Who a report's rows are: the member a figure counts for, or the team whose queue the conversation is in. */
export type Grouping = 'agent' | 'team';

/** The key of the "everyone" row each statement adds beside its groups (no member or team id looks like it). */
export const EVERYONE = '*';

/** Median and 90th percentile (nearest rank) of a group's per-conversation seconds, and how many conversations. */
export interface SpreadRow {
  k: string | null;
  n: number | string;
  median: number | string | null;
  p90: number | string | null;
}

export interface CountRow {
  k: string | null;
  n: number | string;
}

export interface BacklogRow {
  k: string | null;
  n: number | string;
  oldest: string | Date | null;
  median: string | Date | null;
}

export interface RatingRow {
  k: string | null;
  n: number | string;
  total: number | string;
  satisfied: number | string;
}

/**
 * The reads behind the per-agent and per-team report (tables conversation_spans, messages, conversations,
 * contacts, conversation_label_links, csat_surveys, users, teams, team_members; read only). Each figure is
 * one grouped statement; percentiles are taken over per-conversation durations with window functions,
 * so no row of a million messages reaches JavaScript.
 */
export function teamReportRepository(db: Db, dialect: Dialect) {
  /** Whole seconds from one timestamp column to a later one, in the engine's own date arithmetic. */
  const seconds = (from: string, to: string): Fragment =>
    dialect === 'postgres'
      ? sql`CAST(ROUND(EXTRACT(EPOCH FROM (${sql.ref(to)} - ${sql.ref(from)}))) AS BIGINT)`
      : sql`CAST(ROUND((julianday(${sql.ref(to)}) - julianday(${sql.ref(from)})) * 86400) AS INTEGER)`;

  /** The group key as text (a uuid in PostgreSQL), so the everyone row's '*' fits the same column. */
  const keyOf = (grouping: Grouping, agentColumn: string): Fragment =>
    sql`CAST(${sql.ref(grouping === 'agent' ? agentColumn : 'v.team_id')} AS TEXT)`;

  /** Nearest-rank median and p90 per group of (k, secs) rows, plus the everyone row. */
  const spreadOf = (rows: Fragment) => sql<SpreadRow>`
    WITH d AS (${rows}),
    e AS (SELECT k, secs FROM d UNION ALL SELECT ${sql.lit(EVERYONE)} AS k, secs FROM d),
    r AS (SELECT k, secs, ROW_NUMBER() OVER (PARTITION BY k ORDER BY secs) AS rn, COUNT(*) OVER (PARTITION BY k) AS n FROM e)
    SELECT k, MAX(n) AS n,
      MAX(CASE WHEN rn = (n + 1) / 2 THEN secs END) AS median,
      MAX(CASE WHEN rn = (9 * n + 9) / 10 THEN secs END) AS p90
    FROM r GROUP BY k`;

  const inRange = (column: string, range: Span) =>
    sql`${sql.ref(column)} >= ${range.start} AND ${sql.ref(column)} < ${range.end}`;

  return {
    /** Opened → first reply, for every span first answered within the range (closed or not). */
    firstResponse: (filter: ReportFilter, grouping: Grouping) =>
      spreadOf(sql`
        SELECT ${keyOf(grouping, 's.first_responder_id')} AS k, ${seconds('s.opened_at', 's.first_response_at')} AS secs
        FROM conversation_spans s LEFT JOIN conversations v ON v.contact_id = s.contact_id
        WHERE s.workspace_id = ${filter.workspaceId} AND ${inRange('s.first_response_at', filter.span)}
          AND ${conversationScope(filter, 's.contact_id')}`).execute(db),

    /** Opened → closed, for every span closed within the range, counted for its agent. */
    resolution: (filter: ReportFilter, grouping: Grouping) =>
      spreadOf(sql`
        SELECT ${keyOf(grouping, 's.agent_id')} AS k, ${seconds('s.opened_at', 's.closed_at')} AS secs
        FROM conversation_spans s LEFT JOIN conversations v ON v.contact_id = s.contact_id
        WHERE s.workspace_id = ${filter.workspaceId} AND ${inRange('s.closed_at', filter.span)}
          AND ${conversationScope(filter, 's.contact_id')}`).execute(db),

    /** Spans a member answered first or closed within the range (each once per member, and once for everyone). */
    handled: (filter: ReportFilter, grouping: Grouping) => {
      const spans = (agentColumn: string, at: string) => sql`
        SELECT s.id, ${keyOf(grouping, agentColumn)} AS k
        FROM conversation_spans s LEFT JOIN conversations v ON v.contact_id = s.contact_id
        WHERE s.workspace_id = ${filter.workspaceId} AND ${inRange(at, filter.span)}
          AND ${conversationScope(filter, 's.contact_id')}`;
      return sql<CountRow>`
        WITH h AS (${spans('s.first_responder_id', 's.first_response_at')} UNION ${spans('s.agent_id', 's.closed_at')})
        SELECT k, COUNT(DISTINCT id) AS n FROM h GROUP BY k
        UNION ALL SELECT ${sql.lit(EVERYONE)} AS k, COUNT(DISTINCT id) AS n FROM h`.execute(db);
    },

    /** Messages members sent within the range (sender_type 'user'; not automations, campaigns or API tokens). */
    messagesSent: (filter: ReportFilter, grouping: Grouping) =>
      sql<CountRow>`
        SELECT ${keyOf(grouping, 'm.sender_id')} AS k, COUNT(*) AS n
        FROM messages m ${grouping === 'team' ? sql`LEFT JOIN conversations v ON v.contact_id = m.contact_id` : sql``}
        WHERE m.workspace_id = ${filter.workspaceId} AND m.sender_type = ${sql.lit('user')}
          AND ${inRange('m.created_at', filter.span)}
          AND ${onNumber(filter, 'm')}
          AND ${inTeamAndLabel(filter, 'm.contact_id')}
        GROUP BY ${keyOf(grouping, 'm.sender_id')}`.execute(db),

    /**
     * Conversations open now (a span not closed, not snoozed) by assignee or team queue: how many, the
     * oldest opening and the median one (youngest first, so its age is the median age).
     */
    backlog: (filter: ReportFilter, grouping: Grouping) =>
      sql<BacklogRow>`
        WITH d AS (
          SELECT ${keyOf(grouping, 'v.assignee_id')} AS k, s.opened_at AS at
          FROM conversation_spans s LEFT JOIN conversations v ON v.contact_id = s.contact_id
          WHERE s.workspace_id = ${filter.workspaceId} AND s.closed_at IS NULL AND v.snoozed_at IS NULL
            AND ${conversationScope(filter, 's.contact_id')}),
        e AS (SELECT k, at FROM d UNION ALL SELECT ${sql.lit(EVERYONE)} AS k, at FROM d),
        r AS (SELECT k, at, ROW_NUMBER() OVER (PARTITION BY k ORDER BY at DESC) AS rn, COUNT(*) OVER (PARTITION BY k) AS n FROM e)
        SELECT k, MAX(n) AS n, MIN(at) AS oldest, MAX(CASE WHEN rn = (n + 1) / 2 THEN at END) AS median
        FROM r GROUP BY k`.execute(db),

    /** Customers' ratings (csat_surveys) given within the range, counted for the agent of the rated conversation. */
    ratings: (filter: ReportFilter, grouping: Grouping) =>
      sql<RatingRow>`
        SELECT ${keyOf(grouping, 'c.agent_id')} AS k, COUNT(*) AS n, SUM(c.rating) AS total,
          SUM(CASE WHEN c.rating >= 4 THEN 1 ELSE 0 END) AS satisfied
        FROM csat_surveys c ${grouping === 'team' ? sql`LEFT JOIN conversations v ON v.contact_id = c.contact_id` : sql``}
        WHERE c.workspace_id = ${filter.workspaceId} AND c.rating IS NOT NULL AND ${inRange('c.rated_at', filter.span)}
          AND ${conversationScope(filter, 'c.contact_id')}
        GROUP BY ${keyOf(grouping, 'c.agent_id')}`.execute(db),

    /** The workspace's members (every one gets a row, figures or not); with a team filter, that team's. */
    members: (filter: ReportFilter) => {
      let query = db.selectFrom('users').select(['id', 'name']).where('workspace_id', '=', filter.workspaceId);
      if (filter.teamId !== null) {
        const teamId = filter.teamId;
        query = query.where('id', 'in', (eb) =>
          eb.selectFrom('team_members').select('user_id').where('team_id', '=', teamId),
        );
      }
      return query.execute();
    },

    /** The workspace's teams (with a team filter, that one). */
    teams: (filter: ReportFilter) => {
      let query = db.selectFrom('teams').select(['id', 'name']).where('workspace_id', '=', filter.workspaceId);
      if (filter.teamId !== null) query = query.where('id', '=', filter.teamId);
      return query.execute();
    },

    /** Names of members no longer listed (removed since) whose ids still appear in figures. */
    namesOf: (workspaceId: string, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('users')
            .select(['id', 'name'])
            .where('workspace_id', '=', workspaceId)
            .where('id', 'in', ids)
            .execute(),
  };
}

/** The conversations a filter keeps, by their state now: the number they continue on, their team queue and label. */
function conversationScope(filter: ReportFilter, contact: string): Fragment {
  return sql`${conversationOnNumber(filter, contact)} AND ${inTeamAndLabel(filter, contact)}`;
}
