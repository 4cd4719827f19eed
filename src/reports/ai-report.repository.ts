import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { jsonRows } from '../db/sql.js';
import { dayBuckets } from './cost-ledger.repository.js';
import { conversationOnNumber, inTeamAndLabel, onNumber, type ReportFilter } from './report-filter.js';

type Db = Kysely<Database>;
type Fragment = RawBuilder<unknown>;
type Count = number | string | null;

/** How long after its close a conversation's reopening still counts against the assistant's resolution. */
export const REOPEN_DAYS = 7;

/** The outcomes of the conversations the assistant handled (see ai-report.ts for each word's meaning). */
export interface OutcomeRow {
  handled: Count;
  answered: Count;
  handed_over: Count;
  closed_alone: Count;
  reopened: Count;
  awaiting: Count;
}

export interface TurnRow {
  turns: Count;
  replies: Count;
  hand_overs: Count;
  closes: Count;
  prompt_tokens: Count;
  completion_tokens: Count;
}

export interface LatencyRow {
  n: Count;
  model_p50: Count;
  model_p99: Count;
  overhead_p50: Count;
  overhead_p99: Count;
}

export interface RatingRow {
  grp: 'ai' | 'ai_and_person' | 'people';
  n: Count;
  total: Count;
  satisfied: Count;
}

/** Who counts as a person in a conversation: a member, an API token, the business in the WhatsApp Business app. */
const PEOPLE = sql`('user', 'api', 'business_app')`;

/**
 * The reads behind the AI report (tables assistant_turns, conversation_spans, messages, csat_surveys,
 * ai_usage, ai_settings; contacts, conversations and labels only to narrow; read only). The conversations
 * the assistant handled are the spans whose first turn falls in the range; each one's outcome is read
 * whenever it happened, up to `now`.
 */
export function aiReportRepository(db: Db, dialect: Dialect) {
  /** A stored timestamp column plus the reopening window, in the engine's own date arithmetic and form. */
  const reopenLimit = (column: string): Fragment =>
    dialect === 'postgres'
      ? sql`(${sql.ref(column)} + interval '${sql.raw(String(REOPEN_DAYS))} days')`
      : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.ref(column)}, '+${sql.raw(String(REOPEN_DAYS))} days')`;

  /** Each span the assistant took a turn in: when its first turn was, and whether it replied or handed over. */
  const turnsBySpan = (filter: ReportFilter) => sql`
    SELECT span_id, MIN(created_at) AS first_at,
      MAX(CASE WHEN action = 'hand_over' THEN 1 ELSE 0 END) AS handed_over,
      MAX(CASE WHEN action = 'reply' AND reply_message_id IS NOT NULL THEN 1 ELSE 0 END) AS answered
    FROM assistant_turns
    WHERE workspace_id = ${filter.workspaceId} AND span_id IS NOT NULL AND created_at < ${filter.span.end}
    GROUP BY span_id`;

  /** Whether a person wrote in the span (`s`) while it was open, or a member was assigned or closed it. */
  const personWrote = sql`(s.agent_id IS NOT NULL OR EXISTS (
    SELECT 1 FROM messages m WHERE m.workspace_id = s.workspace_id AND m.contact_id = s.contact_id
      AND m.direction = 'outbound' AND m.sender_type IN ${PEOPLE}
      AND m.created_at >= s.opened_at AND (s.closed_at IS NULL OR m.created_at <= s.closed_at)))`;

  /** The handled spans of the range with their outcomes as flags (1/0). */
  const handledSpans = (filter: ReportFilter, now: string) => sql`
    SELECT s.id, t.first_at, t.answered, t.handed_over,
      CASE WHEN s.closed_at IS NOT NULL AND t.handed_over = 0 AND NOT ${personWrote} THEN 1 ELSE 0 END AS closed_alone,
      CASE WHEN s.closed_at IS NOT NULL AND EXISTS (
        SELECT 1 FROM conversation_spans n WHERE n.contact_id = s.contact_id AND n.id <> s.id
          AND n.opened_at >= s.closed_at AND n.opened_at < ${reopenLimit('s.closed_at')}) THEN 1 ELSE 0 END AS reopened,
      CASE WHEN ${reopenLimit('s.closed_at')} > ${now} THEN 1 ELSE 0 END AS recent
    FROM (${turnsBySpan(filter)}) t JOIN conversation_spans s ON s.id = t.span_id
    WHERE t.first_at >= ${filter.span.start} AND t.first_at < ${filter.span.end}
      AND ${conversationScope(filter, 's.contact_id')}`;

  const outcomes = (rows: Fragment) => sql`COUNT(${rows}.id) AS handled, SUM(${rows}.answered) AS answered,
      SUM(${rows}.handed_over) AS handed_over, SUM(${rows}.closed_alone) AS closed_alone,
      SUM(CASE WHEN ${rows}.closed_alone = 1 AND ${rows}.reopened = 1 THEN 1 ELSE 0 END) AS reopened,
      SUM(CASE WHEN ${rows}.closed_alone = 1 AND ${rows}.reopened = 0 AND ${rows}.recent = 1 THEN 1 ELSE 0 END) AS awaiting`;

  return {
    /** The outcomes of the conversations handled in the range, together. */
    async outcomes(filter: ReportFilter, now: string): Promise<OutcomeRow> {
      const result = await sql<OutcomeRow>`SELECT ${outcomes(sql.raw('h'))}
        FROM (${handledSpans(filter, now)}) h`.execute(db);
      return result.rows[0]!;
    },

    /** The same, by the day (the workspace's) of each conversation's first turn: every day of the range. */
    async outcomesByDay(filter: ReportFilter, now: string): Promise<(OutcomeRow & { day: string })[]> {
      const days = jsonRows(dialect, dayBuckets(filter), { day: 'text', since: 'timestamptz', until: 'timestamptz' });
      const result = await sql<OutcomeRow & { day: string }>`SELECT v.day, ${outcomes(sql.raw('h'))}
        FROM ${days} LEFT JOIN (${handledSpans(filter, now)}) h ON h.first_at >= v.since AND h.first_at < v.until
        GROUP BY v.day ORDER BY v.day`.execute(db);
      return result.rows;
    },

    /** The handled conversations handed over, by the reasons of their hand-overs (a conversation once per reason). */
    async handOverReasons(filter: ReportFilter, now: string) {
      const result = await sql<{ reason: string; n: Count }>`
        SELECT a.reason, COUNT(DISTINCT a.span_id) AS n
        FROM assistant_turns a JOIN (${handledSpans(filter, now)}) h ON h.id = a.span_id
        WHERE a.workspace_id = ${filter.workspaceId} AND a.action = 'hand_over' AND a.reason IS NOT NULL
        GROUP BY a.reason ORDER BY n DESC, a.reason`.execute(db);
      return result.rows;
    },

    /** The turns taken in the range: how many of each action, and their tokens. */
    async turns(filter: ReportFilter): Promise<TurnRow> {
      const result = await sql<TurnRow>`
        SELECT COUNT(*) AS turns,
          SUM(CASE WHEN action = 'reply' THEN 1 ELSE 0 END) AS replies,
          SUM(CASE WHEN action = 'hand_over' THEN 1 ELSE 0 END) AS hand_overs,
          SUM(CASE WHEN action = 'close' THEN 1 ELSE 0 END) AS closes,
          SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens
        FROM assistant_turns a WHERE ${turnsInRange(filter)}`.execute(db);
      return result.rows[0]!;
    },

    /** Nearest-rank p50 and p99 of the model's time and of the rest of the turn's time (Parley's), over turns that asked it. */
    async latency(filter: ReportFilter): Promise<LatencyRow> {
      const ranked = (value: string) => sql`
        SELECT ${sql.raw(value)} AS v, ROW_NUMBER() OVER (ORDER BY ${sql.raw(value)}) AS rn, COUNT(*) OVER () AS n
        FROM assistant_turns a WHERE ${turnsInRange(filter)} AND a.model_ms IS NOT NULL`;
      const pick = (rows: string, p: 'p50' | 'p99') =>
        sql`(SELECT MAX(v) FROM ${sql.raw(rows)} WHERE rn = ${p === 'p50' ? sql`(n + 1) / 2` : sql`(99 * n + 99) / 100`})`;
      const result = await sql<LatencyRow>`
        WITH m AS (${ranked('a.model_ms')}), o AS (${ranked('a.total_ms - a.model_ms')})
        SELECT (SELECT COUNT(*) FROM m) AS n, ${pick('m', 'p50')} AS model_p50, ${pick('m', 'p99')} AS model_p99,
          ${pick('o', 'p50')} AS overhead_p50, ${pick('o', 'p99')} AS overhead_p99`.execute(db);
      return result.rows[0]!;
    },

    /**
     * Customers' ratings given in the range, by who handled the rated conversation: the assistant alone, the
     * assistant then a person, or people alone (no turn of the assistant in it).
     */
    async ratings(filter: ReportFilter): Promise<RatingRow[]> {
      const result = await sql<RatingRow>`
        WITH r AS (
          SELECT c.rating, CASE
            WHEN t.span_id IS NULL THEN 'people'
            WHEN t.handed_over = 1 OR ${personWrote} THEN 'ai_and_person'
            ELSE 'ai' END AS grp
          FROM csat_surveys c JOIN conversation_spans s ON s.id = c.span_id
            LEFT JOIN (${turnsBySpan(filter)}) t ON t.span_id = c.span_id
          WHERE c.workspace_id = ${filter.workspaceId} AND c.rating IS NOT NULL
            AND c.rated_at >= ${filter.span.start} AND c.rated_at < ${filter.span.end}
            AND ${conversationScope(filter, 'c.contact_id')})
        SELECT grp, COUNT(*) AS n, SUM(rating) AS total, SUM(CASE WHEN rating >= 4 THEN 1 ELSE 0 END) AS satisfied
        FROM r GROUP BY grp`.execute(db);
      return result.rows;
    },

    /** Messages the assistant sent within the range (sender `ai`: its replies, goodbyes and hand-over notices). */
    async messagesSent(filter: ReportFilter): Promise<Count> {
      const result = await sql<{ n: Count }>`
        SELECT COUNT(*) AS n FROM messages m
        WHERE m.workspace_id = ${filter.workspaceId} AND m.direction = 'outbound' AND m.sender_type = 'ai'
          AND m.created_at >= ${filter.span.start} AND m.created_at < ${filter.span.end}
          AND ${onNumber(filter, 'm')} AND ${inTeamAndLabel(filter, 'm.contact_id')}`.execute(db);
      return result.rows[0]!.n;
    },

    /** The usage ledger's months (UTC, YYYY-MM) given: tokens and calls by purpose. */
    usage: (workspaceId: string, months: string[]) =>
      db
        .selectFrom('ai_usage')
        .select(['month', 'purpose', 'calls', 'prompt_tokens', 'completion_tokens'])
        .where('workspace_id', '=', workspaceId)
        .where('month', 'in', months)
        .orderBy('month')
        .orderBy('purpose')
        .execute(),

    /** The prices per million tokens the workspace saved with its model. */
    prices: (workspaceId: string) =>
      db
        .selectFrom('ai_settings')
        .select(['input_price_per_million', 'output_price_per_million'])
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst(),
  };
}

/** Turns (`a`) taken within the range, in conversations the filter keeps. */
function turnsInRange(filter: ReportFilter): Fragment {
  return sql`a.workspace_id = ${filter.workspaceId} AND a.created_at >= ${filter.span.start}
    AND a.created_at < ${filter.span.end} AND ${conversationScope(filter, 'a.contact_id')}`;
}

/** The conversations a filter keeps, by their state now: the number they continue on, their team queue and label. */
function conversationScope(filter: ReportFilter, contact: string): Fragment {
  return sql`${conversationOnNumber(filter, contact)} AND ${inTeamAndLabel(filter, contact)}`;
}
