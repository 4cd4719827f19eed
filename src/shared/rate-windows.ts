import { sql } from 'kysely';
import type { Deps } from '../shared/context.js';
import { toStoredTimestamp } from '../shared/time.js';

/**
 * Fixed-window counters kept in the database (`rate_windows`), for bounds that must hold for the
 * whole deployment: several Parley processes on one PostgreSQL count together. Each hit is one
 * upsert, so use them where hits are rare (refusals), not on every request.
 */
export function createRateWindows({ db, clock }: Pick<Deps, 'db' | 'clock'>) {
  const secondsUntil = (expiresAt: string) =>
    Math.max(1, Math.ceil((Date.parse(expiresAt) - clock.now().getTime()) / 1000));

  return {
    /** Counts one hit on `key` (a new window once the last one ended); the hits in the window so far. */
    async hit(key: string, windowMs: number): Promise<number> {
      const now = toStoredTimestamp(clock.now());
      const expiresAt = toStoredTimestamp(new Date(clock.now().getTime() + windowMs));
      const ended = sql<boolean>`rate_windows.expires_at <= ${now}`;
      const row = await db
        .insertInto('rate_windows')
        .values({ key, count: 1, expires_at: expiresAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql`CASE WHEN ${ended} THEN 1 ELSE rate_windows.count + 1 END`,
            expires_at: sql`CASE WHEN ${ended} THEN ${expiresAt} ELSE rate_windows.expires_at END`,
          }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      // A new window: a rare moment to forget the ended ones.
      if (row.count === 1) await db.deleteFrom('rate_windows').where('expires_at', '<=', now).execute();
      return row.count;
    },

    /** Seconds until `key`'s window ends if it already holds `limit` hits, else null (not limited). */
    async limitedFor(key: string, limit: number): Promise<number | null> {
      const row = await db
        .selectFrom('rate_windows')
        .select(['count', 'expires_at'])
        .where('key', '=', key)
        .where('expires_at', '>', toStoredTimestamp(clock.now()))
        .executeTakeFirst();
      return row && row.count >= limit ? secondsUntil(row.expires_at) : null;
    },
  };
}

export type RateWindows = ReturnType<typeof createRateWindows>;
