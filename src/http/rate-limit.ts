import type { Clock } from '../shared/clock.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Fixed-window counters kept in this process's memory. Windows are short (a minute, a poll
 * interval), so losing them on restart costs nothing; time comes from the injected clock so
 * tests can step through intervals instantly.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number; windowMs: number }>();
  private lastSweep = 0;

  constructor(private readonly clock: Clock) {}

  /** Counts one hit on `key` and says whether it fits `limit` hits per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): RateDecision {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.start >= window.windowMs || window.windowMs !== windowMs) {
      window = { start: now, count: 0, windowMs };
      this.windows.set(key, window);
    }
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)),
    };
  }

  /** Drops expired windows now and then so idle keys do not accumulate. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now - window.start >= window.windowMs) this.windows.delete(key);
    }
  }
}
