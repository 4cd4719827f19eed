import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import type { VolumeReport } from '../../../../src/reports/volume.schema';
import { formatDay, formatNumber, formatWeekday } from '../../i18n/format';
import { t } from '../../i18n/i18n';

// Only the parts these two charts draw, so the Reports chunk carries no unused chart types.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Legend,
);

/** The page's colours (styles.css custom properties, which dark mode redefines) and its direction. */
function look() {
  const style = getComputedStyle(document.documentElement);
  const colour = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: colour('--text'),
    muted: colour('--muted'),
    line: colour('--line'),
    accent: colour('--accent'),
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
    rtl: document.documentElement.dir === 'rtl',
  };
}

/** Options both charts share: the page's colours, numbers in the person's language, mirrored right to left. */
function baseOptions(stacked: boolean) {
  const { text, line, rtl } = look();
  const axis = { ticks: { color: text }, grid: { color: line }, border: { color: line } };
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    locale: document.documentElement.lang || 'en',
    plugins: {
      legend: { rtl, labels: { color: text } },
      tooltip: { rtl, textDirection: rtl ? 'rtl' : 'ltr' },
    },
    scales: {
      // Right to left, time runs from the right edge, and the count axis stands on the right.
      x: { ...axis, stacked, reverse: rtl },
      y: {
        ...axis,
        stacked,
        position: rtl ? ('right' as const) : ('left' as const),
        beginAtZero: true,
        ticks: { color: text, precision: 0, callback: (value: number | string) => formatNumber(Number(value)) },
      },
    },
  };
}

/** Messages received and sent per day (bars) with the previous period's received messages (a dashed line). */
export function dayChart(report: VolumeReport): ChartConfiguration<'bar' | 'line'> {
  const { accent, muted, text } = look();
  const options = baseOptions(false);
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
    options: {
      ...options,
      plugins: {
        ...options.plugins,
        tooltip: {
          ...options.plugins.tooltip,
          callbacks: {
            // The previous period's point is for its own day, not the bar's.
            title: (items) => {
              const item = items[0];
              if (!item) return '';
              const days = item.datasetIndex === 2 ? report.previous_days : report.days;
              return formatDay(days[item.dataIndex]!.day);
            },
            label: (item) => `${item.dataset.label ?? ''}: ${formatNumber(Number(item.raw))}`,
          },
        },
      },
    },
  };
}

/** Seven weekday hues, light on dark and dark on light, told apart by lightness as well as hue. */
function weekdayColours(dark: boolean): string[] {
  return [0, 1, 2, 3, 4, 5, 6].map(
    (weekday) => `hsl(${(weekday * 360) / 7 + 150} 55% ${dark ? 70 - weekday * 4 : 28 + weekday * 6}%)`,
  );
}

/** Messages received by hour of the day, stacked by weekday (the table beside it is the week's heatmap). */
export function hourChart(report: VolumeReport): ChartConfiguration<'bar'> {
  const colours = weekdayColours(look().dark);
  const options = baseOptions(true);
  return {
    type: 'bar',
    data: {
      labels: Array.from({ length: 24 }, (_, hour) => t('reports:volume.hours.hour', { hour: formatNumber(hour) })),
      datasets: [1, 2, 3, 4, 5, 6, 0].map((weekday) => ({
        label: formatWeekday(weekday, 'long'),
        data: report.hours_of_week.filter((cell) => cell.weekday === weekday).map((cell) => cell.messages_received),
        backgroundColor: colours[weekday],
      })),
    },
    options: {
      ...options,
      plugins: {
        ...options.plugins,
        tooltip: {
          ...options.plugins.tooltip,
          callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatNumber(Number(item.raw))}` },
        },
      },
    },
  };
}

/** A chart on a canvas that assistive technology reads as one image with `label` (the table beside it has the figures). */
export function ChartCanvas(props: {
  config: () => ChartConfiguration<'bar'> | ChartConfiguration<'bar' | 'line'>;
  label: string;
}) {
  const { config, label } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, config() as ChartConfiguration<'bar' | 'line'>);
    return () => chart.destroy();
  }, [config]);
  return (
    <div class="report-chart">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
