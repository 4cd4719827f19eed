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
  type TooltipItem,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// Only the parts the Reports charts draw (bars, and the volume's dashed line), so the chunk carries no other chart types.
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
export function look() {
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

export type BarChart = ChartConfiguration<'bar' | 'line'>;

/**
 * Options every Reports chart shares: the page's colours, each value in the person's language (`value`:
 * on the value axis and in the tooltip), mirrored right to left. `horizontal`: a bar per row (agents,
 * teams) rather than per day or hour; `title`: the tooltip's heading, when the category label is not it.
 */
export function chartOptions(settings: {
  value: (value: number) => string;
  stacked?: boolean;
  horizontal?: boolean;
  title?: (item: TooltipItem<'bar' | 'line'>) => string;
}): NonNullable<BarChart['options']> {
  const { text, line, rtl } = look();
  const { value, stacked = false, horizontal = false, title } = settings;
  const axis = { ticks: { color: text }, grid: { color: line }, border: { color: line }, stacked };
  const valueAxis = {
    ...axis,
    beginAtZero: true,
    ticks: { color: text, precision: 0, callback: (tick: number | string) => value(Number(tick)) },
  };
  // Right to left, time and values run from the right edge, and a vertical value axis stands on the right.
  const categoryAxis = horizontal ? { ...axis } : { ...axis, reverse: rtl };
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    locale: document.documentElement.lang || 'en',
    indexAxis: horizontal ? 'y' : 'x',
    plugins: {
      legend: { rtl, labels: { color: text } },
      tooltip: {
        rtl,
        textDirection: rtl ? 'rtl' : 'ltr',
        callbacks: {
          ...(title && { title: (items) => (items[0] ? title(items[0]) : '') }),
          label: (item) => `${item.dataset.label ?? ''}: ${value(Number(item.raw))}`,
        },
      },
    },
    scales: horizontal
      ? { x: { ...valueAxis, reverse: rtl }, y: { ...categoryAxis, position: rtl ? 'right' : 'left' } }
      : { x: categoryAxis, y: { ...valueAxis, position: rtl ? 'right' : 'left' } },
  };
}

/**
 * A chart on a canvas that assistive technology reads as one image with `label` (a table beside it has
 * the figures). `rows`: for a horizontal chart, how many bars it stacks, so each keeps its height.
 */
export function ChartCanvas(props: { config: () => BarChart; label: string; rows?: number }) {
  const { config, label, rows } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, config());
    return () => chart.destroy();
  }, [config]);
  const height = rows === undefined ? undefined : `${Math.max(8, 3 + rows * 2.25)}rem`;
  return (
    <div class="report-chart" style={height && { height }}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
