import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * The dashboard: browser sessions (only a hash of the cookie's secret is stored), login failures
 * for the lockout, invitations for teammates, and each conversation's inbox state.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // Sent back in X-CSRF-Token on every state change (the synchroniser token pattern).
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX sessions_user ON sessions (user_id)`.execute(db);

  // Keyed by the lower-cased email tried, whether or not a user has it (no account enumeration).
  await db.schema
    .createTable('login_failures')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('accepted_at', t.timestamp)
    .execute();

  // A conversation's inbox state, beside its contact (whose row every API call reads).
  await db.schema
    .createTable('conversations')
    .addColumn('contact_id', t.id, (c) => c.primaryKey().references('contacts.id').onDelete('cascade'))
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('read_at', t.timestamp)
    .addColumn('assignee_id', t.id, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('done_at', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
