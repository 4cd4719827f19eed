import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

/** How often each process adds its hits to the deployment's counts and learns the others' (see below). */
export const RECONCILE_MS = 250;

/** One key's window as this process knows it. */
interface LocalWindow {
  start: number;
  windowMs: number;
  /** The deployment's count at the last reconciliation, this process's hits included. */
  known: number;
  /** This process's hits since then. */
  unsynced: number;
}

/**
 * Per-minute budgets (per token, per session, per anonymous address) that hold for the whole
 * deployment without a database round trip per request: each process decides from its own count
 * plus the deployment's count as of its last reconciliation, and every RECONCILE_MS adds its new hits
 * to the shared `rate_limits` row of the window (one multi-row upsert) and reads back the total.
 * Windows are aligned to the clock (a minute is :00 to :00), so every process counts the same window.
 * Precision: a refusal is always right; the deployment may admit more than the limit by what the
 * other processes admitted in the last reconciliation interval or two. One process alone is exact.
 */
export class ReconciledWindowLimiter {
  private readonly windows = new Map<string, LocalWindow>();
  private readonly timer: NodeJS.Timeout;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'clock'>,
    onError: (error: unknown) => void,
  ) {
    // One reconciliation at a time: an overlapping one would add the same hits twice.
    this.timer = setInterval(() => {
      this.syncing ??= this.reconcile()
        .catch(onError)
        .finally(() => (this.syncing = null));
    }, RECONCILE_MS).unref();
  }

  /** Counts one hit on `key` and says whether it fits `limit` hits per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): RateDecision {
    const now = this.deps.clock.now().getTime();
    const start = now - (now % windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start || window.windowMs !== windowMs) {
      window = { start, windowMs, known: 0, unsynced: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.known + window.unsynced < limit;
    if (allowed) window.unsynced += 1;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.known - window.unsynced),
      resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
    };
  }

  /** Stops reconciling, after the one in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.syncing;
  }

  /** Adds this process's new hits to the deployment's windows and learns their totals; drops ended windows. */
  private async reconcile(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const current = [...this.windows].filter(([key, window]) => {
      if (window.start + window.windowMs > now) return true;
      this.windows.delete(key);
      return false;
    });
    if (current.length === 0) return;
    // Sorted: PostgreSQL locks the rows in this order, and two processes in opposite orders would deadlock.
    const sent = current
      .map(([key, window]) => ({ key: sharedKey(key, window), window, delta: window.unsynced }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    const totals = await this.addHits(sent);
    for (const { key, window, delta } of sent) {
      const total = totals.get(key);
      if (total === undefined) continue;
      window.known = total;
      window.unsynced -= delta;
    }
  }

  /**
   * Adds each window's delta and returns the deployment's totals by shared key: one upsert for the windows
   * this process has hits to add, and a plain read for the others, so an idle process takes no write lock
   * (on SQLite every write queues for the one lock that the CLI and other processes also wait on).
   */
  private async addHits(rows: { key: string; delta: number; window: LocalWindow }[]): Promise<Map<string, number>> {
    const changed = rows.filter((row) => row.delta > 0);
    const unchanged = rows.filter((row) => row.delta === 0).map((row) => row.key);
    const [added, read] = await Promise.all([this.upsert(changed), this.totals(unchanged)]);
    return new Map([...added, ...read].map((row) => [row.key, Number(row.hits)]));
  }

  private async upsert(rows: { key: string; delta: number; window: LocalWindow }[]) {
    if (rows.length === 0) return [];
    const { db, clock } = this.deps;
    const totals = await db
      .insertInto('rate_limits')
      .values(
        rows.map(({ key, delta, window }) => ({
          key,
          hits: delta,
          expires_at: toStoredTimestamp(new Date(window.start + window.windowMs)),
        })),
      )
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({ hits: eb('rate_limits.hits', '+', eb.ref('excluded.hits')) })),
      )
      .returning(['key', 'hits'])
      .execute();
    // Rows of ended windows go now and then (the first reconciliation of a new window finds them).
    if (rows.some(({ window }) => window.known === 0)) {
      await db.deleteFrom('rate_limits').where('expires_at', '<=', toStoredTimestamp(clock.now())).execute();
    }
    return totals;
  }

  private async totals(keys: string[]) {
    if (keys.length === 0) return [];
    return this.deps.db.selectFrom('rate_limits').select(['key', 'hits']).where('key', 'in', keys).execute();
  }
}

/** A window's row in `rate_limits`: the key and the window's start, so every process names it alike. */
const sharedKey = (key: string, window: LocalWindow) => `${key}@${window.start}`;

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
