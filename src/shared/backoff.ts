/**
 * Exponential backoff with jitter: `baseMs` after the first failure, doubling up to `maxMs`, each wait
 * drawn between half and all of that, so the retries of many that failed together spread out.
 */
export function backoffMs(failures: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (Math.max(1, failures) - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** A background worker's rest after a failed round (the database away, say): 1 s doubling to 30 s. */
export function failedRoundRestMs(failures: number): number {
  return backoffMs(failures, 1_000, 30_000);
}
