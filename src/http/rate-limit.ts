import type { Deps } from '../shared/context.js';
import type { Clock } from '../shared/clock.js';
import { toStoredTimestamp } from '../shared/time.js';

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

/**
 * Fixed-window counters kept in the database, for limits that must hold for the whole deployment
 * (several Parley processes on one database behave as one). A hit is one atomic upsert-increment,
 * so concurrent requests cannot slip past the limit between a read and a write.
 */
export class SharedWindowLimiter {
  constructor(private readonly deps: Pick<Deps, 'db' | 'clock'>) {}

  /** Counts one hit on `key` and says whether it fits `limit` hits per `windowMs`. */
  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const now = this.deps.clock.now();
    const nowStored = toStoredTimestamp(now);
    const nextExpiry = toStoredTimestamp(new Date(now.getTime() + windowMs));
    const window = await this.deps.db
      .insertInto('rate_limits')
      .values({ key, hits: 1, expires_at: nextExpiry })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const expired = eb('rate_limits.expires_at', '<=', nowStored);
          return {
            hits: eb
              .case()
              .when(expired)
              .then(1)
              .else(eb('rate_limits.hits', '+', 1))
              .end(),
            expires_at: eb.case().when(expired).then(nextExpiry).else(eb.ref('rate_limits.expires_at')).end(),
          };
        }),
      )
      .returning(['hits', 'expires_at'])
      .executeTakeFirstOrThrow();
    // A new window began: a moment to drop the windows of keys that went quiet.
    if (window.hits === 1) await this.deps.db.deleteFrom('rate_limits').where('expires_at', '<=', nowStored).execute();
    return {
      allowed: window.hits <= limit,
      limit,
      remaining: Math.max(0, limit - window.hits),
      resetSeconds: Math.max(1, Math.ceil((Date.parse(window.expires_at) - now.getTime()) / 1000)),
    };
  }

  /** Seconds until `key`'s window ends if it already holds `limit` hits, else null; counts nothing. */
  async limitedFor(key: string, limit: number): Promise<number | null> {
    const now = this.deps.clock.now();
    const window = await this.deps.db
      .selectFrom('rate_limits')
      .select(['hits', 'expires_at'])
      .where('key', '=', key)
      .where('expires_at', '>', toStoredTimestamp(now))
      .executeTakeFirst();
    if (!window || window.hits < limit) return null;
    return Math.max(1, Math.ceil((Date.parse(window.expires_at) - now.getTime()) / 1000));
  }

  /** Gives back one hit on `key` in its current window (a limit that counts only failures). */
  async refund(key: string): Promise<void> {
    await this.deps.db
      .updateTable('rate_limits')
      .set((eb) => ({ hits: eb('hits', '-', 1) }))
      .where('key', '=', key)
      .where('hits', '>', 0)
      .where('expires_at', '>', toStoredTimestamp(this.deps.clock.now()))
      .execute();
  }
}
