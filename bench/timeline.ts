/**
 * Per-second buckets of counts and samples over a benchmark run, so a run can be reported both as
 * totals and as series over time (for the charts).
 */
export class Timeline {
  private readonly counts = new Map<string, number[]>();
  private readonly samples = new Map<string, number[][]>();

  constructor(readonly startedAt = performance.now()) {}

  second(at = performance.now()): number {
    return Math.max(0, Math.floor((at - this.startedAt) / 1000));
  }

  get seconds(): number {
    return this.second() + 1;
  }

  count(name: string, by = 1, at = performance.now()): void {
    const buckets = this.counts.get(name) ?? this.counts.set(name, []).get(name)!;
    const second = this.second(at);
    buckets[second] = (buckets[second] ?? 0) + by;
  }

  sample(name: string, value: number, at = performance.now()): void {
    const buckets = this.samples.get(name) ?? this.samples.set(name, []).get(name)!;
    (buckets[this.second(at)] ??= []).push(value);
  }

  /** The count of every second from `from` to `to` (exclusive), 0 where nothing happened. */
  perSecond(name: string, from = 0, to = this.seconds): number[] {
    const buckets = this.counts.get(name) ?? [];
    return Array.from({ length: Math.max(0, to - from) }, (_, i) => buckets[from + i] ?? 0);
  }

  total(name: string, from = 0, to = this.seconds): number {
    return this.perSecond(name, from, to).reduce((sum, n) => sum + n, 0);
  }

  /** The given percentile of each second's samples (null for a second without any). */
  percentilePerSecond(name: string, p: number, from = 0, to = this.seconds): (number | null)[] {
    const buckets = this.samples.get(name) ?? [];
    return Array.from({ length: Math.max(0, to - from) }, (_, i) => {
      const values = buckets[from + i];
      return values && values.length > 0 ? percentile(values, p) : null;
    });
  }

  /** Every sample from `from` to `to`. */
  all(name: string, from = 0, to = this.seconds): number[] {
    return (this.samples.get(name) ?? []).slice(from, to).flatMap((values) => values ?? []);
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
