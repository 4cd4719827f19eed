/** How far a long command has got, on stderr (stdout carries the command's JSON). */
export interface Progress {
  /** `done` of `total` units (bytes of a file) and the rows counted so far. */
  update(done: number, rows: number): void;
  finish(rows: number): void;
}

const BAR_WIDTH = 30;
/** A terminal is redrawn at most this often; a redraw per batch would flood a slow terminal. */
const REDRAW_MS = 100;
/** Without a terminal (a log file, CI), one line per this many percent. */
const LINE_STEP_PERCENT = 10;

const count = (n: number) => n.toLocaleString('en-US');

/** A bar redrawn in place when `out` is a terminal; otherwise a plain line at every 10 %. */
export function progressOn(out: NodeJS.WriteStream, label: string, total: number, now = () => Date.now()): Progress {
  const percentOf = (done: number) => (total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100);
  if (!out.isTTY) {
    let nextLine = LINE_STEP_PERCENT;
    return {
      update(done, rows) {
        const percent = percentOf(done);
        if (percent < nextLine || percent === 100) return;
        out.write(`${label}: ${percent}% (${count(rows)} rows)\n`);
        nextLine = percent - (percent % LINE_STEP_PERCENT) + LINE_STEP_PERCENT;
      },
      finish: (rows) => void out.write(`${label}: 100% (${count(rows)} rows)\n`),
    };
  }
  const started = now();
  let drawn = 0;
  const draw = (percent: number, rows: number) => {
    const filled = Math.round((percent / 100) * BAR_WIDTH);
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
    out.write(
      `\r${label} ${bar} ${String(percent).padStart(3)}% ${count(rows)} rows, ${count(Math.round(rows / seconds))}/s`,
    );
  };
  return {
    update(done, rows) {
      if (now() - drawn < REDRAW_MS) return;
      drawn = now();
      draw(percentOf(done), rows);
    },
    finish(rows) {
      draw(100, rows);
      out.write('\n');
    },
  };
}
