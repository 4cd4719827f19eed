import { DateTime } from 'luxon';
import { tokenCost } from '../ai-models/index.js';
import type { Deps } from '../db/deps.js';
import type { Caller } from '../shared/context.js';
import { toStoredTimestamp } from '../shared/time.js';
import { aiReportRepository, type OutcomeRow, type RatingRow } from './ai-report.repository.js';
import type { AiReport } from './ai-report.schema.js';
import { costLedgerRows } from './cost-ledger.repository.js';
import { tallyCost } from './cost-tally.js';
import { loadPricing } from './pricing.js';
import { resolveReportFilter, type ReportFilter, type ReportQuery } from './report-filter.js';
import type { CsvCell } from './report-response.js';

const count = (value: number | string | null | undefined): number => Number(value ?? 0);
const orNull = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);
const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

/**
 * The AI report (GET /api/v1/reports/ai): the conversations the assistant handled and how they ended,
 * why it handed over, its turns and their time, customers' ratings of its conversations beside people's,
 * its tokens and their cost, and what Meta charged for its messages. Computed when asked, from the
 * assistant's turns, the conversation spans, the ratings and the usage ledger; nothing is kept for it.
 */
export function createAiReport(deps: Deps) {
  const repository = aiReportRepository(deps.reads, deps.dialect);

  async function metaCost(filter: ReportFilter) {
    const pricing = await loadPricing(deps.reads, filter.workspaceId, filter.timeZone);
    const rows = await costLedgerRows(deps.reads, deps.dialect, filter, pricing, 'channel', 'ai');
    return { currency: pricing.currency, cost: tallyCost(pricing, rows) };
  }

  async function usageByMonth(filter: ReportFilter) {
    const [rows, prices] = await Promise.all([
      repository.usage(filter.workspaceId, monthsOf(filter)),
      repository.prices(filter.workspaceId),
    ]);
    return rows.map((row) => {
      const tokens = { promptTokens: count(row.prompt_tokens), completionTokens: count(row.completion_tokens) };
      return {
        month: row.month,
        purpose: row.purpose,
        calls: count(row.calls),
        prompt_tokens: tokens.promptTokens,
        completion_tokens: tokens.completionTokens,
        cost: prices ? tokenCost(tokens, prices) : null,
      };
    });
  }

  return {
    async report(caller: Caller, query: ReportQuery): Promise<{ filter: ReportFilter; report: AiReport }> {
      const filter = await resolveReportFilter(deps.reads, deps.clock, caller.workspaceId, query);
      const now = toStoredTimestamp(deps.clock.now());
      const [outcomes, days, reasons, turns, latency, ratings, prices, usage, meta, sent] = await Promise.all([
        repository.outcomes(filter, now),
        repository.outcomesByDay(filter, now),
        repository.handOverReasons(filter, now),
        repository.turns(filter),
        repository.latency(filter),
        repository.ratings(filter),
        repository.prices(filter.workspaceId),
        usageByMonth(filter),
        metaCost(filter),
        repository.messagesSent(filter),
      ]);
      const conversations = outcomesOf(outcomes);
      const tokens = { promptTokens: count(turns.prompt_tokens), completionTokens: count(turns.completion_tokens) };
      const report: AiReport = {
        from: filter.from,
        to: filter.to,
        time_zone: filter.timeZone,
        conversations: {
          ...conversations,
          resolution_rate: share(conversations.resolved_without_person, conversations.handled),
          hand_over_rate: share(conversations.handed_over, conversations.handled),
        },
        hand_over_reasons: reasons.map((row) => ({ reason: row.reason, conversations: count(row.n) })),
        days: days.map((row) => ({ day: row.day, ...outcomesOf(row) })),
        turns: {
          total: count(turns.turns),
          replies: count(turns.replies),
          hand_overs: count(turns.hand_overs),
          closes: count(turns.closes),
          model_ms: { p50: orNull(latency.model_p50), p99: orNull(latency.model_p99) },
          overhead_ms: { p50: orNull(latency.overhead_p50), p99: orNull(latency.overhead_p99) },
        },
        csat: {
          ai: satisfaction(ratings, 'ai'),
          ai_and_person: satisfaction(ratings, 'ai_and_person'),
          people: satisfaction(ratings, 'people'),
        },
        tokens: {
          prompt: tokens.promptTokens,
          completion: tokens.completionTokens,
          cost: prices ? tokenCost(tokens, prices) : null,
        },
        usage_by_month: usage,
        meta: { messages: count(sent), ...meta },
      };
      return { filter, report };
    },
  };
}

export type AiReportService = ReturnType<typeof createAiReport>;

/** The outcome counts of a row; "resolved" is what was closed alone and neither reopened nor still in its window. */
function outcomesOf(row: OutcomeRow) {
  const closedAlone = count(row.closed_alone);
  const reopened = count(row.reopened);
  const awaiting = count(row.awaiting);
  return {
    handled: count(row.handled),
    answered: count(row.answered),
    handed_over: count(row.handed_over),
    resolved_without_person: closedAlone - reopened - awaiting,
    reopened,
    awaiting_reopen_window: awaiting,
  };
}

function satisfaction(rows: RatingRow[], group: RatingRow['grp']): AiReport['csat']['ai'] {
  const row = rows.find((one) => one.grp === group);
  const ratings = count(row?.n);
  return {
    ratings,
    average: ratings === 0 ? null : Math.round((count(row?.total) / ratings) * 10) / 10,
    satisfied_share: share(count(row?.satisfied), ratings),
  };
}

/** The UTC months (YYYY-MM) the range's instants touch: the usage ledger counts by them. */
function monthsOf(filter: ReportFilter): string[] {
  const months: string[] = [];
  let month = DateTime.fromISO(filter.span.start, { zone: 'utc' }).startOf('month');
  const end = DateTime.fromISO(filter.span.end, { zone: 'utc' });
  while (month < end) {
    months.push(month.toFormat('yyyy-MM'));
    month = month.plus({ months: 1 });
  }
  return months;
}

/** The report as CSV: one figure a row (its name, its value). */
export function aiReportRows(report: AiReport): CsvCell[][] {
  const { conversations: c, turns, csat, tokens, meta } = report;
  const figures: [string, CsvCell][] = [
    ...Object.entries(c).map(([name, value]): [string, CsvCell] => [`conversations_${name}`, value]),
    ...report.hand_over_reasons.map((row): [string, CsvCell] => [`handed_over_${row.reason}`, row.conversations]),
    ['turns', turns.total],
    ['turns_replies', turns.replies],
    ['turns_hand_overs', turns.hand_overs],
    ['turns_closes', turns.closes],
    ['model_ms_p50', turns.model_ms.p50],
    ['model_ms_p99', turns.model_ms.p99],
    ['overhead_ms_p50', turns.overhead_ms.p50],
    ['overhead_ms_p99', turns.overhead_ms.p99],
    ...(['ai', 'ai_and_person', 'people'] as const).flatMap((group): [string, CsvCell][] => [
      [`csat_${group}_ratings`, csat[group].ratings],
      [`csat_${group}_average`, csat[group].average],
      [`csat_${group}_satisfied_share`, csat[group].satisfied_share],
    ]),
    ['prompt_tokens', tokens.prompt],
    ['completion_tokens', tokens.completion],
    ['token_cost', tokens.cost],
    ['meta_messages', meta.messages],
    [`meta_cost_${meta.currency.toLowerCase()}`, meta.cost.amount],
  ];
  return [['figure', 'value'], ...figures];
}
