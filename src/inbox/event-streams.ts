import { rolesWith } from '../access/roles.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { toStoredTimestamp } from '../shared/time.js';

/**
 * Live update streams one session may hold open at once: one per dashboard tab, and a browser
 * gives a host about six connections, so a sixth stream would stall the tabs' other requests anyway.
 */
export const STREAMS_PER_SESSION = 5;
/** How often an open stream proves it is alive (a comment to the browser, a touch of its row). */
export const HEARTBEAT_MS = 15_000;
/** A stream whose row was not touched for this long was left by a process that stopped: it no longer counts. */
const STALE_MS = 3 * HEARTBEAT_MS;

/**
 * The dashboard's open event streams, kept in `event_streams` so the bound per session holds across
 * every Parley process. A stream ends when its session does: at once when the session is logged out
 * in this process, else at its next heartbeat, which finds its row gone (deleted with the session)
 * or its session expired.
 */
export function createEventStreams({ db, dialect, clock, newId }: Deps) {
  const now = () => toStoredTimestamp(clock.now());
  /** The streams open in this process, by session, each with the function that ends it. */
  const local = new Map<string, Set<() => void>>();

  return {
    /** Counts a new stream against the session's bound (429 past it); returns the stream's id. */
    async open(sessionId: string): Promise<string> {
      const id = newId();
      await db.transaction().execute(async (trx) => {
        // Locking the session's row makes concurrent opens count one after the other.
        let session = trx.selectFrom('sessions').select('id_hash').where('id_hash', '=', sessionId);
        if (dialect === 'postgres') session = session.forUpdate();
        if (!(await session.executeTakeFirst())) throw errors.unauthorized('The session has ended; log in again');
        const stale = toStoredTimestamp(new Date(clock.now().getTime() - STALE_MS));
        await trx
          .deleteFrom('event_streams')
          .where('session_hash', '=', sessionId)
          .where('seen_at', '<', stale)
          .execute();
        const { open } = await trx
          .selectFrom('event_streams')
          .select((eb) => eb.fn.countAll<number>().as('open'))
          .where('session_hash', '=', sessionId)
          .executeTakeFirstOrThrow();
        if (Number(open) >= STREAMS_PER_SESSION) {
          throw errors.tooManyStreams(STREAMS_PER_SESSION, Math.ceil(STALE_MS / 1000));
        }
        await trx.insertInto('event_streams').values({ id, session_hash: sessionId, seen_at: now() }).execute();
      });
      return id;
    },

    /** Marks the stream alive; false when its session has ended (logged out, removed or expired) or its role lost the inbox. */
    async touch(streamId: string): Promise<boolean> {
      const result = await db
        .updateTable('event_streams')
        .set({ seen_at: now() })
        .where('id', '=', streamId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('sessions')
              .select('id_hash')
              .innerJoin('users', 'users.id', 'sessions.user_id')
              .whereRef('sessions.id_hash', '=', 'event_streams.session_hash')
              .where('sessions.expires_at', '>', now())
              // A stream carries conversation events: it ends when its user's role no longer has them.
              .where('users.role', 'in', rolesWith('conversations')),
          ),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Forgets a stream that ended. */
    async close(streamId: string): Promise<void> {
      await db.deleteFrom('event_streams').where('id', '=', streamId).execute();
    },

    /** Registers how to end a stream of this process when its session ends; returns the unregister function. */
    onSessionEnd(sessionId: string, end: () => void): () => void {
      let ends = local.get(sessionId);
      if (!ends) local.set(sessionId, (ends = new Set()));
      ends.add(end);
      return () => {
        ends.delete(end);
        if (ends.size === 0) local.delete(sessionId);
      };
    },

    /** Ends the session's streams open in this process (its rows go with the session). */
    sessionEnded(sessionId: string): void {
      for (const end of local.get(sessionId) ?? []) end();
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
