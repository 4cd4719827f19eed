import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/**
 * Notifications for people (src/notifications/):
 * - `notifications`: one row per person and event (a mention, an assignment, a new conversation),
 *   read or unread, pointing at the conversation (by contact) it is about.
 * - `notification_preferences`: a person's choice per kind, in the dashboard and by email; a kind
 *   without a row takes the default in notification.preferences.ts.
 * - `emails`: the durable queue of emails to send (invitations, password resets, notifications), its
 *   body sealed with the secret box because invitation and reset links carry their tokens. One email
 *   per notification at most (unique `notification_id`), so a retry never sends it twice.
 */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('notifications')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    // Who caused it (the author of a note, the member who assigned); kept as it was when they leave.
    .addColumn('actor_id', t.id)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('read_at', t.timestamp)
    .execute();
  await sql`CREATE INDEX notifications_recent ON notifications (user_id, created_at)`.execute(db);

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('in_app', 'integer', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'kind'])
    .execute();

  await db.schema
    .createTable('emails')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('notification_id', t.id, (c) => c.unique())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    // pending → sending → sent; back to pending after a failed try; failed after the last one.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp)
    .execute();
}
