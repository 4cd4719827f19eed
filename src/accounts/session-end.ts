import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Told of each session that ended (log-out, removal, a password change or reset), to close its live
 * streams; also of the sessions of a user whose role changed, whose streams reconnect under the new role.
 */
export type SessionEnded = (sessionId: string) => void;

/**
 * Deletes a user's sessions, except `keep` (the caller's own), and returns their ids: the caller
 * reports each to SessionEnded once its transaction has committed.
 */
export async function deleteUserSessions(db: Kysely<Database>, userId: string, keep?: string): Promise<string[]> {
  let sessions = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== undefined) sessions = sessions.where('id_hash', '!=', keep);
  const deleted = await sessions.returning('id_hash').execute();
  return deleted.map((session) => session.id_hash);
}

/** The ids of a user's sessions. */
export async function sessionsOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const sessions = await db.selectFrom('sessions').select('id_hash').where('user_id', '=', userId).execute();
  return sessions.map((session) => session.id_hash);
}
