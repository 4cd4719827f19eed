/**
 * A small SVG line chart for benchmark time series (no charting library: the charts are a few lines
 * over time, and the file must render on GitHub and in any browser without scripts or fonts to fetch).
 */
export interface Series {
  label: string;
  /** One value per second of the run; null where nothing was measured that second. */
  values: (number | null)[];
}

const WIDTH = 760;
const HEIGHT = 260;
const MARGIN = { top: 44, right: 16, bottom: 34, left: 64 };
/** Legend entries are laid out left to right by their labels' rough width, wrapping to a second row. */
const CHARACTER_WIDTH = 6.2;
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

/** A "nice" upper bound for the axis (1, 2 or 5 times a power of ten). */
function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((step) => step * power >= value) ?? 10) * power;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function lineChart(title: string, unit: string, series: Series[]): string {
  const seconds = Math.max(1, ...series.map((s) => s.values.length));
  const top = niceCeiling(Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (second: number) => MARGIN.left + (second / Math.max(1, seconds - 1)) * plotWidth;
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;

  const gridlines = [0, 0.25, 0.5, 0.75, 1].map((share) => {
    const value = top * share;
    return (
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>` +
      `<text x="${MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end">${value.toLocaleString('en')}</text>`
    );
  });
  const tickEvery = niceCeiling(seconds / 8);
  const ticks: string[] = [];
  for (let second = 0; second < seconds; second += tickEvery) {
    ticks.push(`<text x="${x(second)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${second}</text>`);
  }
  let legendX = MARGIN.left;
  let legendY = 12;
  const lines = series.map((s, index) => {
    const colour = COLOURS[index % COLOURS.length]!;
    // A gap (null) starts a new segment rather than drawing through it.
    let path = '';
    s.values.forEach((value, second) => {
      if (value === null) return;
      const point = `${x(second).toFixed(1)},${y(value).toFixed(1)}`;
      path += second === 0 || s.values[second - 1] === null ? ` M${point}` : ` L${point}`;
    });
    const entryWidth = 16 + s.label.length * CHARACTER_WIDTH + 18;
    if (legendX + entryWidth > WIDTH) [legendX, legendY] = [MARGIN.left, legendY + 16];
    const entryX = legendX;
    legendX += entryWidth;
    return (
      `<path d="${path.trim()}" fill="none" stroke="${colour}" stroke-width="1.5"/>` +
      `<rect x="${entryX}" y="${legendY - 4}" width="12" height="3" fill="${colour}"/>` +
      `<text x="${entryX + 16}" y="${legendY}">${escape(s.label)}</text>`
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="11">`,
    `<title>${escape(title)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...gridlines,
    ...ticks,
    `<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 4}" text-anchor="middle">seconds into the run</text>`,
    `<text transform="translate(12 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escape(unit)}</text>`,
    ...lines,
    '</svg>',
    '',
  ].join('\n');
}
