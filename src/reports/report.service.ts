import { DateTime } from 'luxon';
import { deliveryCounts } from '../messages/delivery-counts.js';
import { repliedCounts } from '../campaigns/campaign.service.js';
import type { MessageError } from '../messages/message.repository.js';
import { plainReason } from '../messages/error-reasons.js';
import type { Caller, Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import {
  billableByCategory,
  costOf,
  countByDay,
  daysOf,
  roundMoney,
  secondsBetween,
  spread,
} from './report.figures.js';
import { reportRepository, type Span } from './report.repository.js';
import { satisfactionByAgent } from './report.satisfaction.js';
import type { MessageRates, Report } from './report.types.js';

/** The longest range one report covers: a year and a day (a leap year's whole). */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** No WhatsApp message costs this much in any currency Meta bills in; a larger number is a typing slip. */
const MAX_RATE = 100_000;

/** Calendar days in the workspace's time zone, both included. */
export interface ReportRange {
  from?: string | undefined;
  to?: string | undefined;
}

const NO_RATES: MessageRates = { currency: 'USD', rates: {} };

/** The Reports page: conversations, response times, messages, campaigns and what Meta charges, over a date range. */
export function createReportService(deps: Deps) {
  const { db, clock } = deps;
  const repository = () => reportRepository(db);

  async function rates(workspaceId: string): Promise<MessageRates> {
    const row = await repository().rates(workspaceId);
    return row ? { currency: row.currency, rates: JSON.parse(row.rates) as Record<string, number> } : NO_RATES;
  }

  /** The range's days and instants; refused (400, naming the field) when a date is not one or the range runs backwards or too long. */
  function resolveRange(range: ReportRange, timeZone: string) {
    const today = DateTime.fromJSDate(clock.now(), { zone: timeZone }).toISODate()!;
    const to = dateOf('to', range.to, timeZone) ?? today;
    const from =
      dateOf('from', range.from, timeZone) ??
      DateTime.fromISO(to)
        .minus({ days: DEFAULT_DAYS - 1 })
        .toISODate()!;
    if (from > to) throw errors.validation('from', 'must be on or before the end date');
    const days = daysOf(from, to);
    if (days.length > MAX_DAYS) throw errors.validation('from', `must be at most ${MAX_DAYS} days before the end date`);
    const instant = (day: string) => toStoredTimestamp(DateTime.fromISO(day, { zone: timeZone }).toJSDate());
    const span: Span = { start: instant(from), end: instant(DateTime.fromISO(to).plus({ days: 1 }).toISODate()!) };
    return { from, to, days, span };
  }

  return {
    rates: (caller: Caller) => rates(caller.workspaceId),

    /** Sets the workspace's prices per billable message (replacing the previous ones). */
    async saveRates(caller: Caller, input: MessageRates): Promise<MessageRates> {
      checkRates(input);
      await repository().saveRates(
        caller.workspaceId,
        input.currency,
        JSON.stringify(input.rates),
        toStoredTimestamp(clock.now()),
      );
      return input;
    },

    /** Every table of the Reports page for the range. */
    async report(caller: Caller, range: ReportRange): Promise<Report> {
      const { workspaceId } = caller;
      const timeZone = await repository().timeZone(workspaceId);
      const { from, to, days, span } = resolveRange(range, timeZone);
      const workspaceRates = await rates(workspaceId);
      const closed = await repository().closed(workspaceId, span);
      return {
        range: { from, to, time_zone: timeZone },
        conversations: await conversationsByDay(workspaceId, { days, span, timeZone }, closed),
        response_times: responseTimes(closed),
        satisfaction: satisfactionByAgent(await repository().ratings(workspaceId, span)),
        messages: await messagesByStatus(workspaceId, span),
        campaigns: await campaigns(workspaceId, span, workspaceRates),
        costs: await costs(workspaceId, span, workspaceRates),
      };
    },
  };

  /** Conversations opened and closed on each day of the range (in the workspace's time zone). */
  async function conversationsByDay(
    workspaceId: string,
    range: { days: string[]; span: Span; timeZone: string },
    closedRows: ClosedSpan[],
  ) {
    const { days, span, timeZone } = range;
    const opened = countByDay(
      days,
      (await repository().opened(workspaceId, span)).map((row) => row.at),
      timeZone,
    );
    const closed = countByDay(
      days,
      closedRows.map((row) => row.closed_at!),
      timeZone,
    );
    return days.map((day) => ({ day, opened: opened.get(day)!, closed: closed.get(day)! }));
  }
  async function messagesByStatus(workspaceId: string, span: Span) {
    const rows = await repository().messageCounts(workspaceId, span);
    return rows
      .map((row) => ({ direction: row.direction, status: row.status, count: Number(row.n) }))
      .sort((a, b) => a.direction.localeCompare(b.direction) || b.count - a.count);
  }

  /** Each campaign dispatched in the range: how far its messages got, why some failed, and what Meta charged. */
  async function campaigns(workspaceId: string, span: Span, workspaceRates: MessageRates) {
    const list = await repository().campaigns(workspaceId, span);
    const ids = list.map((campaign) => campaign.id);
    const messages = await repository().campaignMessages(workspaceId, ids);
    const replied = new Map(
      (ids.length ? await repliedCounts(db, ids) : []).map((row) => [row.campaign_id, Number(row.n)]),
    );
    return list.map((campaign) => {
      const own = messages.filter((message) => message.campaign_id === campaign.id);
      const counts = deliveryCounts(own.map((message) => ({ status: message.status, n: 1 })));
      return {
        id: campaign.id,
        name: campaign.name,
        sent_at: formatTimestamp(campaign.sent_at),
        sent: counts.sent,
        delivered: counts.delivered,
        read: counts.read,
        replied: replied.get(campaign.id) ?? 0,
        failed: counts.failed,
        failure_reasons: failureReasons(
          own.filter((message) => message.status === 'failed').map((message) => message.error),
        ),
        cost: costOf(billableByCategory(own.map((message) => message.delivery)), workspaceRates.rates),
      };
    });
  }

  /** Billable messages of the range by Meta's category, priced at the workspace's rates. */
  async function costs(workspaceId: string, span: Span, workspaceRates: MessageRates) {
    const billable = billableByCategory((await repository().priced(workspaceId, span)).map((row) => row.delivery));
    const categories = [...billable].map(([category, count]) => {
      const rate = workspaceRates.rates[category] ?? null;
      return { category, billable: count, rate, cost: rate === null ? null : roundMoney(count * rate) };
    });
    return { currency: workspaceRates.currency, categories, total: costOf(billable, workspaceRates.rates) };
  }
}

type ClosedSpan = Awaited<ReturnType<ReturnType<typeof reportRepository>['closed']>>[number];

/**
 * First-response and resolution times of the conversations closed in the range: everyone first, then
 * per agent. A first response counts for the member who sent it; a resolution for the closing agent.
 */
function responseTimes(rows: ClosedSpan[]) {
  const agents = new Map<string, { id: string; name: string }>();
  const meet = (id: string | null, name: string | null) => {
    if (id && !agents.has(id)) agents.set(id, { id, name: name ?? 'Removed member' });
  };
  for (const row of rows) {
    meet(row.first_responder_id, row.first_responder_name);
    meet(row.agent_id, row.agent_name);
  }
  const figures = (agent: { id: string; name: string } | null) => {
    const closed = agent ? rows.filter((row) => row.agent_id === agent.id) : rows;
    const answered = (agent ? rows.filter((row) => row.first_responder_id === agent.id) : rows).filter(
      (row) => row.first_response_at,
    );
    return {
      agent,
      conversations: closed.length,
      answered: answered.length,
      first_response: spread(answered.map((row) => secondsBetween(row.opened_at, row.first_response_at!))),
      resolution: spread(closed.map((row) => secondsBetween(row.opened_at, row.closed_at!))),
    };
  };
  return [figures(null), ...[...agents.values()].map(figures)];
}

/** Why messages failed, grouped by Meta's error code and told in plain words; the most frequent first. */
function failureReasons(stored: (string | null)[]) {
  const byCode = new Map<string, { code: number | null; title: string; reason: string; count: number }>();
  for (const text of stored) {
    const error: MessageError = text
      ? (JSON.parse(text) as MessageError)
      : { code: null, title: 'No reason given', details: null };
    const key = String(error.code);
    const entry = byCode.get(key) ?? {
      code: error.code,
      title: error.title,
      reason: plainReason(error.code) ?? error.title,
      count: 0,
    };
    entry.count += 1;
    byCode.set(key, entry);
  }
  return [...byCode.values()].sort((a, b) => b.count - a.count);
}

/** A YYYY-MM-DD date the time zone has, or undefined when none was given; anything else is a 400 on the field. */
function dateOf(field: 'from' | 'to', value: string | undefined, timeZone: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!DATE.test(value) || !DateTime.fromISO(value, { zone: timeZone }).isValid) {
    throw errors.validation(field, 'must be a date such as 2026-03-31');
  }
  return value;
}

export type ReportService = ReturnType<typeof createReportService>;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Refuses (400, naming the field) a currency that is not an ISO 4217 code or a negative or absurd rate. */
function checkRates(input: MessageRates): void {
  if (!CURRENCIES.has(input.currency)) {
    throw errors.validation('currency', 'must be a currency code of three letters, such as USD or EUR');
  }
  for (const [category, rate] of Object.entries(input.rates)) {
    if (!(rate >= 0 && rate <= MAX_RATE)) {
      throw errors.validation(`rates/${category}`, `must be a price from 0 to ${MAX_RATE}`);
    }
  }
}
