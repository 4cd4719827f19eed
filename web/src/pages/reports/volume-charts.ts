import type { PublicSchema } from '../../api/public';
import { formatDay, formatNumber, formatWeekday } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { chartOptions, look, type BarChart } from './charts';

type VolumeReport = PublicSchema<'VolumeReport'>;

/** Messages received and sent per day (bars) with the previous period's received messages (a dashed line). */
export function dayChart(report: VolumeReport): BarChart {
  const { accent, muted, text } = look();
  return {
    type: 'bar',
    data: {
      labels: report.days.map((day) => formatDay(day.day, 'short')),
      datasets: [
        {
          type: 'bar',
          label: t('reports:volume.measures.messages_received'),
          data: report.days.map((d) => d.messages_received),
          backgroundColor: accent,
        },
        {
          type: 'bar',
          label: t('reports:volume.measures.messages_sent'),
          data: report.days.map((d) => d.messages_sent),
          backgroundColor: muted,
        },
        {
          type: 'line',
          label: t('reports:volume.days.previousSeries'),
          data: report.previous_days.map((d) => d.messages_received),
          borderColor: text,
          backgroundColor: text,
          borderDash: [6, 4],
          pointRadius: 2,
        },
      ],
    },
    options: chartOptions({
      value: formatNumber,
      // The previous period's point is for its own day, not the bar's.
      title: (item) => formatDay((item.datasetIndex === 2 ? report.previous_days : report.days)[item.dataIndex]!.day),
    }),
  };
}

/** Seven weekday hues, light on dark and dark on light, told apart by lightness as well as hue. */
function weekdayColours(dark: boolean): string[] {
  return [0, 1, 2, 3, 4, 5, 6].map(
    (weekday) => `hsl(${(weekday * 360) / 7 + 150} 55% ${dark ? 70 - weekday * 4 : 28 + weekday * 6}%)`,
  );
}

/** Messages received by hour of the day, stacked by weekday (the table beside it is the week's heatmap). */
export function hourChart(report: VolumeReport): BarChart {
  const colours = weekdayColours(look().dark);
  return {
    type: 'bar',
    data: {
      labels: Array.from({ length: 24 }, (_, hour) => t('reports:volume.hours.hour', { hour: formatNumber(hour) })),
      datasets: [1, 2, 3, 4, 5, 6, 0].map((weekday) => ({
        type: 'bar' as const,
        label: formatWeekday(weekday, 'long'),
        data: report.hours_of_week.filter((cell) => cell.weekday === weekday).map((cell) => cell.messages_received),
        backgroundColor: colours[weekday],
      })),
    },
    options: chartOptions({ value: formatNumber, stacked: true }),
  };
}
