/**
 * Meta's per-number throughput (messages per second) as a token bucket per phone number id:
 * a burst of one second's worth may go at once, then sends are spaced to the rate.
 */
export class ThroughputLimiter {
  private readonly buckets = new Map<string, { tokens: number; refilledAt: number }>();

  /** Resolves when one more message may go out through `key` at `perSecond`. */
  async take(key: string, perSecond: number): Promise<void> {
    for (;;) {
      const now = performance.now();
      const bucket = this.buckets.get(key) ?? { tokens: perSecond, refilledAt: now };
      bucket.tokens = Math.min(perSecond, bucket.tokens + ((now - bucket.refilledAt) / 1000) * perSecond);
      bucket.refilledAt = now;
      this.buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(((1 - bucket.tokens) / perSecond) * 1000)));
    }
  }
}
