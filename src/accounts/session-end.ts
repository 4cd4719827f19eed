import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Told of each session that ended (log-out, removal, a password change or reset), to close its live streams. */
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
