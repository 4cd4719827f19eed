import type { TeamFigures } from '../../../../src/reports/team-report.schema';
import { formatDuration, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { chartOptions, look, type BarChart } from './charts';

/** One agent's or team's figures under its name, as the table and the charts show it. */
export interface NamedFigures {
  key: string;
  name: string;
  figures: TeamFigures;
}

/** Conversations handled in the range beside those open now: a pair of bars per agent or team (who is behind). */
export function workloadChart(rows: NamedFigures[]): BarChart {
  const { accent, muted } = look();
  return {
    type: 'bar',
    data: {
      labels: rows.map((row) => row.name),
      datasets: [
        {
          type: 'bar',
          label: t('team-report:columns.handled'),
          data: rows.map((row) => row.figures.conversations_handled),
          backgroundColor: accent,
        },
        {
          type: 'bar',
          label: t('team-report:columns.open'),
          data: rows.map((row) => row.figures.backlog.open),
          backgroundColor: muted,
        },
      ],
    },
    options: chartOptions({ value: formatNumber, horizontal: true }),
  };
}

/** Median first response and resolution per agent or team; a row with nothing measured has no bar. */
export function speedChart(rows: NamedFigures[]): BarChart {
  const { accent, muted } = look();
  return {
    type: 'bar',
    data: {
      labels: rows.map((row) => row.name),
      datasets: [
        {
          type: 'bar',
          label: t('team-report:columns.firstResponseMedian'),
          data: rows.map((row) => row.figures.first_response.median_seconds),
          backgroundColor: accent,
        },
        {
          type: 'bar',
          label: t('team-report:columns.resolutionMedian'),
          data: rows.map((row) => row.figures.resolution.median_seconds),
          backgroundColor: muted,
        },
      ],
    },
    options: chartOptions({ value: formatDuration, horizontal: true }),
  };
}

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
