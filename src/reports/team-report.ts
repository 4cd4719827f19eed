import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { resolveReportFilter, type ReportFilter, type ReportQuery } from './report-filter.js';
import type { CsvCell } from './report-response.js';
import {
  EVERYONE,
  teamReportRepository,
  type BacklogRow,
  type CountRow,
  type Grouping,
  type RatingRow,
  type SpreadRow,
} from './team-report.repository.js';
import type { AgentReport, TeamFigures, TeamReport } from './team-report.schema.js';

/** Each statement's rows by group key (null: no member or no team; EVERYONE: the total). */
type ByKey<T> = Map<string | null, T>;

interface Measured {
  handled: ByKey<CountRow>;
  sent: ByKey<CountRow>;
  firstResponse: ByKey<SpreadRow>;
  resolution: ByKey<SpreadRow>;
  backlog: ByKey<BacklogRow>;
  ratings: ByKey<RatingRow>;
}

/**
 * Per-agent and per-team figures (GET /api/v1/reports/agents, /teams): conversations handled, messages
 * sent, first response and resolution (median, p90), the open backlog and its age, and satisfaction.
 */
export function createTeamReport(deps: Deps) {
  const repository = teamReportRepository(deps.reads, deps.dialect);

  /** Runs every figure's statement for one grouping (they are independent reads). */
  async function measure(filter: ReportFilter, grouping: Grouping): Promise<Measured> {
    const [handled, sent, firstResponse, resolution, backlog, ratings] = await Promise.all([
      repository.handled(filter, grouping),
      repository.messagesSent(filter, grouping),
      repository.firstResponse(filter, grouping),
      repository.resolution(filter, grouping),
      repository.backlog(filter, grouping),
      repository.ratings(filter, grouping),
    ]);
    return {
      handled: byKey(handled.rows),
      sent: byKey(sent.rows),
      firstResponse: byKey(firstResponse.rows),
      resolution: byKey(resolution.rows),
      backlog: byKey(backlog.rows),
      ratings: byKey(ratings.rows),
    };
  }

  const figuresOf = (measured: Measured, key: string | null) => figures(measured, key, deps.clock.now());

  return {
    /** One row per member (every member listed, figures or not), one for "no one" when it has figures, and everyone. */
    async agents(caller: Caller, query: ReportQuery): Promise<{ filter: ReportFilter; report: AgentReport }> {
      const filter = await resolveReportFilter(deps.reads, deps.clock, caller.workspaceId, query);
      const [measured, members] = await Promise.all([measure(filter, 'agent'), repository.members(filter)]);
      const named = new Map<string, string | null>(members.map((member) => [member.id, member.name]));
      const others = keysOf(measured).filter((key): key is string => key !== null && !named.has(key));
      for (const row of await repository.namesOf(caller.workspaceId, others)) named.set(row.id, row.name);
      for (const id of others) if (!named.has(id)) named.set(id, null);
      const agents = [...named]
        .map(([id, name]) => ({ agent: { id, name }, ...figuresOf(measured, id) }))
        .sort((a, b) => (a.agent.name ?? '\uffff').localeCompare(b.agent.name ?? '\uffff'));
      const nobody = keysOf(measured).includes(null) ? [{ agent: null, ...figuresOf(measured, null) }] : [];
      const report = { ...rangeOf(filter), everyone: figuresOf(measured, EVERYONE), agents: [...agents, ...nobody] };
      return { filter, report };
    },

    /** One row per team (every team listed), one for conversations in no team's queue when it has figures, and everyone. */
    async teams(caller: Caller, query: ReportQuery): Promise<{ filter: ReportFilter; report: TeamReport }> {
      const filter = await resolveReportFilter(deps.reads, deps.clock, caller.workspaceId, query);
      const [measured, teams] = await Promise.all([measure(filter, 'team'), repository.teams(filter)]);
      const rows = teams
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((team) => ({ team: { id: team.id, name: team.name }, ...figuresOf(measured, team.id) }));
      const none = keysOf(measured).includes(null) ? [{ team: null, ...figuresOf(measured, null) }] : [];
      const report = { ...rangeOf(filter), everyone: figuresOf(measured, EVERYONE), teams: [...rows, ...none] };
      return { filter, report };
    },
  };
}

export type TeamReportService = ReturnType<typeof createTeamReport>;

const rangeOf = (filter: ReportFilter) => ({ from: filter.from, to: filter.to, time_zone: filter.timeZone });

function byKey<T extends { k: string | null }>(rows: T[]): ByKey<T> {
  return new Map(rows.map((row) => [row.k, row]));
}

/** Every group key some figure has (the everyone row aside). */
function keysOf(measured: Measured): (string | null)[] {
  const keys = new Set<string | null>();
  for (const rows of Object.values(measured) as ByKey<unknown>[]) for (const key of rows.keys()) keys.add(key);
  keys.delete(EVERYONE);
  return [...keys];
}

const count = (value: number | string | null | undefined): number => Number(value ?? 0);
const orNull = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);
const secondsSince = (at: string | Date | null | undefined, now: Date): number | null =>
  at === null || at === undefined ? null : Math.max(0, Math.round((now.getTime() - new Date(at).getTime()) / 1000));

/** One row's figures from the statements' rows (messages and ratings are summed for everyone: each has one key). */
function figures(measured: Measured, key: string | null, now: Date): TeamFigures {
  const sum = <T>(rows: ByKey<T>, of: (row: T) => number) =>
    key === EVERYONE ? [...rows.values()].reduce((total, row) => total + of(row), 0) : of(rows.get(key)!);
  const sent = key === EVERYONE || measured.sent.has(key) ? sum(measured.sent, (row) => count(row.n)) : 0;
  const rated = key === EVERYONE || measured.ratings.has(key);
  const ratings = rated ? sum(measured.ratings, (row) => count(row.n)) : 0;
  const total = rated ? sum(measured.ratings, (row) => count(row.total)) : 0;
  const satisfied = rated ? sum(measured.ratings, (row) => count(row.satisfied)) : 0;
  const backlog = measured.backlog.get(key);
  return {
    conversations_handled: count(measured.handled.get(key)?.n),
    messages_sent: sent,
    first_response: spreadOf(measured.firstResponse.get(key)),
    resolution: spreadOf(measured.resolution.get(key)),
    backlog: {
      open: count(backlog?.n),
      oldest_seconds: secondsSince(backlog?.oldest, now),
      median_age_seconds: secondsSince(backlog?.median, now),
    },
    csat: {
      ratings,
      average: ratings === 0 ? null : Math.round((total / ratings) * 10) / 10,
      satisfied_share: ratings === 0 ? null : Math.round((satisfied / ratings) * 1000) / 1000,
    },
  };
}

function spreadOf(row: SpreadRow | undefined): TeamFigures['first_response'] {
  return { conversations: count(row?.n), median_seconds: orNull(row?.median), p90_seconds: orNull(row?.p90) };
}

const FIGURE_COLUMNS = [
  'conversations_handled',
  'messages_sent',
  'first_responses',
  'first_response_median_seconds',
  'first_response_p90_seconds',
  'resolutions',
  'resolution_median_seconds',
  'resolution_p90_seconds',
  'open_conversations',
  'oldest_open_seconds',
  'median_open_age_seconds',
  'csat_ratings',
  'csat_average',
  'csat_satisfied_share',
];

function figureCells(row: TeamFigures): CsvCell[] {
  const { first_response: first, resolution, backlog, csat } = row;
  return [
    row.conversations_handled,
    row.messages_sent,
    first.conversations,
    first.median_seconds,
    first.p90_seconds,
    resolution.conversations,
    resolution.median_seconds,
    resolution.p90_seconds,
    backlog.open,
    backlog.oldest_seconds,
    backlog.median_age_seconds,
    csat.ratings,
    csat.average,
    csat.satisfied_share,
  ];
}

/** The agents report as CSV: a header, one row per member (and "no one"), then everyone. */
export function agentRows(report: AgentReport): CsvCell[][] {
  return [
    ['agent_id', 'agent', ...FIGURE_COLUMNS],
    ...report.agents.map((row) => [
      row.agent?.id ?? '',
      row.agent ? (row.agent.name ?? '') : '(no one)',
      ...figureCells(row),
    ]),
    ['', '(everyone)', ...figureCells(report.everyone)],
  ];
}

/** The teams report as CSV: a header, one row per team (and "no team"), then everyone. */
export function teamRows(report: TeamReport): CsvCell[][] {
  return [
    ['team_id', 'team', ...FIGURE_COLUMNS],
    ...report.teams.map((row) => [row.team?.id ?? '', row.team?.name ?? '(no team)', ...figureCells(row)]),
    ['', '(everyone)', ...figureCells(report.everyone)],
  ];
}
