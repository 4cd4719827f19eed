import type { PublicAnswer } from '../../api/client';
import { formatDuration, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { chartOptions, look, type BarChart } from './charts';

/** One agent's, one team's or everyone's figures, as GET /v1/reports/agents and /teams answer them. */
export type TeamFigures = PublicAnswer<'/v1/reports/agents'>['everyone'];

/** One agent's or team's figures under its name, as the table and the charts show it. */
export interface NamedFigures {
  key: string;
  name: string;
  figures: TeamFigures;
}

/** One bar of each row: its name in the legend, and its value (null: nothing measured, no bar). */
interface Series {
  label: string;
  value: (figures: TeamFigures) => number | null;
}

/** Two bars per agent or team, in the accent and the muted colour, `value` wording the figures. */
function pairOfBars(rows: NamedFigures[], series: [Series, Series], value: (figure: number) => string): BarChart {
  const { accent, muted } = look();
  const colours = [accent, muted];
  return {
    type: 'bar',
    data: {
      labels: rows.map((row) => row.name),
      datasets: series.map((one, i) => ({
        type: 'bar' as const,
        label: one.label,
        data: rows.map((row) => one.value(row.figures)),
        backgroundColor: colours[i],
      })),
    },
    options: chartOptions({ value, horizontal: true }),
  };
}

/** Conversations handled in the range beside those open now, per agent or team (who is behind). */
export const workloadChart = (rows: NamedFigures[]): BarChart =>
  pairOfBars(
    rows,
    [
      { label: t('team-report:columns.handled'), value: (figures) => figures.conversations_handled },
      { label: t('team-report:columns.open'), value: (figures) => figures.backlog.open },
    ],
    formatNumber,
  );

/** Median first response and resolution per agent or team (who is slow). */
export const speedChart = (rows: NamedFigures[]): BarChart =>
  pairOfBars(
    rows,
    [
      {
        label: t('team-report:columns.firstResponseMedian'),
        value: (figures) => figures.first_response.median_seconds,
      },
      { label: t('team-report:columns.resolutionMedian'), value: (figures) => figures.resolution.median_seconds },
    ],
    formatDuration,
  );

/** What the workload chart shows, in a sentence: who handled the most (its image's name for screen readers). */
export function workloadSummary(rows: NamedFigures[]): string {
  const most = rows.reduce<NamedFigures | null>(
    (best, row) => (row.figures.conversations_handled > (best?.figures.conversations_handled ?? 0) ? row : best),
    null,
  );
  if (!most) return t('team-report:charts.noneHandled');
  return t('team-report:charts.mostHandled', {
    name: most.name,
    handled: formatNumber(most.figures.conversations_handled),
  });
}

/** What the speed chart shows, in a sentence: whose first replies came fastest. */
export function speedSummary(rows: NamedFigures[]): string {
  const timed = rows.filter((row) => row.figures.first_response.median_seconds !== null);
  const fastest = timed.reduce<NamedFigures | null>(
    (best, row) =>
      best === null || row.figures.first_response.median_seconds! < best.figures.first_response.median_seconds!
        ? row
        : best,
    null,
  );
  if (!fastest) return t('team-report:charts.noneAnswered');
  return t('team-report:charts.fastest', {
    name: fastest.name,
    duration: formatDuration(fastest.figures.first_response.median_seconds),
  });
}
