import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * At most one pending invitation per email and workspace: inviting again renews it (accounts). Older
 * duplicates left by earlier versions are withdrawn first, keeping each email's newest invitation.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await sql`DELETE FROM invites WHERE accepted_at IS NULL AND EXISTS (
    SELECT 1 FROM invites newer WHERE newer.workspace_id = invites.workspace_id AND newer.email = invites.email
      AND newer.accepted_at IS NULL AND (newer.created_at, newer.id) > (invites.created_at, invites.id))`.execute(db);
  await sql`CREATE UNIQUE INDEX invites_one_pending ON invites (workspace_id, email) WHERE accepted_at IS NULL`.execute(
    db,
  );
}
