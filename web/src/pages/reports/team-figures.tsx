import { useCallback, useMemo } from 'preact/hooks';
import { v1, type PublicAnswer } from '../../api/client';
import { formatDuration, formatNumber, formatPercent } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { ErrorNote, useAsync } from '../../ui';
import { ChartCanvas } from './charts';
import { reportUrl, type ReportQueryState } from './report-query';
import {
  speedChart,
  speedSummary,
  workloadChart,
  workloadSummary,
  type NamedFigures,
  type TeamFigures as Figures,
} from './team-charts';

type AgentReport = PublicAnswer<'/v1/reports/agents'>;

/**
 * The Reports page's per-agent and per-team figures (GET /api/v1/reports/agents and /teams with the
 * page's filter): who handled what, how fast, what is still open and how customers rated it.
 */
export function TeamFigures({ query }: { query: ReportQueryState }) {
  const key = JSON.stringify(query);
  const agents = useAsync(() => v1.get('/v1/reports/agents', { query }), [key]);
  const teams = useAsync(() => v1.get('/v1/reports/teams', { query }), [key]);
  const agentRows = useMemo(
    () =>
      agents.data?.agents.map((row) => ({ key: row.agent?.id ?? '', name: agentName(row.agent), figures: row })) ?? [],
    [agents.data],
  );
  const teamRows = useMemo(
    () =>
      teams.data?.teams.map((row) => ({
        key: row.team?.id ?? '',
        name: row.team?.name ?? t('team-report:noTeam'),
        figures: row,
      })) ?? [],
    [teams.data],
  );
  return (
    <section class="report-section" aria-labelledby="team-figures-title">
      <h2 id="team-figures-title">{t('team-report:title')}</h2>
      <p class="muted">{t('team-report:intro')}</p>
      <ErrorNote error={agents.error ?? teams.error} />
      <Grouping per="agents" rows={agentRows} everyone={agents.data?.everyone} query={query} />
      <Grouping per="teams" rows={teamRows} everyone={teams.data?.everyone} query={query} />
    </section>
  );
}

const GROUPINGS = {
  agents: {
    caption: () => t('team-report:agentsCaption'),
    who: () => t('team-report:columns.agent'),
    download: () => t('team-report:downloadAgents'),
  },
  teams: {
    caption: () => t('team-report:teamsCaption'),
    who: () => t('team-report:columns.team'),
    download: () => t('team-report:downloadTeams'),
  },
};

/** The figures per agent or per team: charts, the table (once loaded), and its CSV. */
function Grouping(props: {
  per: 'agents' | 'teams';
  rows: NamedFigures[];
  everyone?: Figures;
  query: ReportQueryState;
}) {
  const words = GROUPINGS[props.per];
  return (
    <>
      {props.everyone && (
        <>
          <FiguresCharts rows={props.rows} per={props.per} />
          <FiguresTable caption={words.caption()} who={words.who()} rows={props.rows} everyone={props.everyone} />
        </>
      )}
      <p>
        <a href={reportUrl(props.per, props.query, 'csv')} download>
          {words.download()}
        </a>
      </p>
    </>
  );
}

/** The rows as two charts, each titled: how much each handled beside what is open now, and how fast. */
function FiguresCharts({ rows, per }: { rows: NamedFigures[]; per: 'agents' | 'teams' }) {
  const workload = useCallback(() => workloadChart(rows), [rows]);
  const speed = useCallback(() => speedChart(rows), [rows]);
  if (rows.length === 0) return null;
  const workloadTitle = t(`team-report:charts.workload.${per}`);
  const speedTitle = t(`team-report:charts.speed.${per}`);
  return (
    <div class="report-charts">
      <figure>
        <figcaption>{workloadTitle}</figcaption>
        <ChartCanvas config={workload} rows={rows.length} label={`${workloadTitle}. ${workloadSummary(rows)}`} />
      </figure>
      <figure>
        <figcaption>{speedTitle}</figcaption>
        <ChartCanvas config={speed} rows={rows.length} label={`${speedTitle}. ${speedSummary(rows)}`} />
      </figure>
    </div>
  );
}

function agentName(agent: AgentReport['agents'][number]['agent']): string {
  if (!agent) return t('team-report:noOne');
  return agent.name ?? t('team-report:removedMember');
}

/** One table: a row per agent or team, then everyone; each row headed by its name. */
function FiguresTable(props: { caption: string; who: string; rows: NamedFigures[]; everyone: Figures }) {
  const columns = [
    props.who,
    t('team-report:columns.handled'),
    t('team-report:columns.sent'),
    t('team-report:columns.firstResponseMedian'),
    t('team-report:columns.firstResponseP90'),
    t('team-report:columns.resolutionMedian'),
    t('team-report:columns.resolutionP90'),
    t('team-report:columns.open'),
    t('team-report:columns.oldest'),
    t('team-report:columns.medianAge'),
    t('team-report:columns.ratings'),
    t('team-report:columns.average'),
    t('team-report:columns.satisfied'),
  ];
  // Thirteen columns scroll sideways on a narrow screen: the region is focusable so keyboards can scroll it.
  return (
    <div class="table-wrap" role="region" aria-label={props.caption} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <FiguresRow key={row.key} name={row.name} figures={row.figures} />
          ))}
        </tbody>
        <tfoot>
          <FiguresRow name={t('team-report:everyone')} figures={props.everyone} />
        </tfoot>
      </table>
    </div>
  );
}

function FiguresRow({ name, figures }: { name: string; figures: Figures }) {
  const { first_response: first, resolution, backlog, csat } = figures;
  const cells = [
    formatNumber(figures.conversations_handled),
    formatNumber(figures.messages_sent),
    formatDuration(first.median_seconds),
    formatDuration(first.p90_seconds),
    formatDuration(resolution.median_seconds),
    formatDuration(resolution.p90_seconds),
    formatNumber(backlog.open),
    formatDuration(backlog.oldest_seconds),
    formatDuration(backlog.median_age_seconds),
    formatNumber(csat.ratings),
    csat.average === null ? t('team-report:none') : formatNumber(csat.average, { maximumFractionDigits: 1 }),
    csat.satisfied_share === null ? t('team-report:none') : formatPercent(csat.satisfied_share),
  ];
  return (
    <tr>
      <th scope="row">{name}</th>
      {cells.map((cell, index) => (
        <td key={index}>{cell}</td>
      ))}
    </tr>
  );
}
