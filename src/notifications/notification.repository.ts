import type { Kysely } from 'kysely';
import type { Role } from '../access/roles.js';
import type { Database, NotificationTable } from '../db/schema.js';

/** How many notifications the list shows: the newest; older ones stay in the table, read or not. */
const LIST_LIMIT = 50;

/** A notification as the list shows it, with the customer and the member who caused it. */
export interface NotificationRow {
  id: string;
  kind: string;
  contact_id: string;
  contact_name: string | null;
  contact_phone: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  created_at: string;
  read_at: string | null;
}

/**
 * SQL for notifications and preferences. It also reads `users` and `contacts` (who may be told,
 * whom a notification is about): a named read across domains, never a write to them.
 */
export function notificationRepository(db: Kysely<Database>) {
  return {
    /** The workspace's members, with what a mention or an email needs of them. */
    members: (workspaceId: string): Promise<{ id: string; name: string; email: string; role: Role }[]> =>
      db.selectFrom('users').select(['id', 'name', 'email', 'role']).where('workspace_id', '=', workspaceId).execute(),

    /** The stored preference rows of these people for one kind (or every kind when none is given). */
    preferenceRows: (userIds: string[], kind?: string) => {
      let query = db.selectFrom('notification_preferences').selectAll().where('user_id', 'in', userIds);
      if (kind) query = query.where('kind', '=', kind);
      return userIds.length === 0 ? Promise.resolve([]) : query.execute();
    },

    /** Members who turned a kind on (in the dashboard or by email). */
    optedIn: (workspaceId: string, kind: string) =>
      db
        .selectFrom('notification_preferences as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .select('u.id')
        .where('u.workspace_id', '=', workspaceId)
        .where('p.kind', '=', kind)
        .where((eb) => eb.or([eb('p.in_app', '=', 1), eb('p.email', '=', 1)]))
        .execute(),

    async savePreference(userId: string, kind: string, channels: { in_app: number; email: number }) {
      await db
        .insertInto('notification_preferences')
        .values({ user_id: userId, kind, ...channels })
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet(channels))
        .execute();
    },

    /** The customer a notification names: their name, else their phone. */
    contact: (workspaceId: string, contactId: string) =>
      db
        .selectFrom('contacts')
        .select(['id', 'name', 'phone'])
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', contactId)
        .executeTakeFirst(),

    /** Who handles the conversations (contacts) given: their person and team (routing's columns). */
    handlers: (workspaceId: string, contactIds: string[]) =>
      db
        .selectFrom('conversations')
        .select(['contact_id', 'assignee_id', 'team_id'])
        .where('workspace_id', '=', workspaceId)
        .where('contact_id', 'in', contactIds)
        .execute(),

    /** Which of these people are in which of these teams (routing's team_members). */
    teamMembers: (teamIds: string[], userIds: string[]) =>
      teamIds.length === 0 || userIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('team_members')
            .select(['team_id', 'user_id'])
            .where('team_id', 'in', teamIds)
            .where('user_id', 'in', userIds)
            .execute(),

    async insert(rows: NotificationTable[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('notifications').values(rows).execute();
    },

    /** A person's newest notifications, newest first. */
    list: (workspaceId: string, userId: string): Promise<NotificationRow[]> =>
      db
        .selectFrom('notifications as n')
        .innerJoin('contacts as c', 'c.id', 'n.contact_id')
        .leftJoin('users as a', (join) =>
          join.onRef('a.id', '=', 'n.actor_id').onRef('a.workspace_id', '=', 'n.workspace_id'),
        )
        .select([
          'n.id',
          'n.kind',
          'n.contact_id',
          'c.name as contact_name',
          'c.phone as contact_phone',
          'n.actor_id',
          'a.name as actor_name',
          'a.email as actor_email',
          'n.created_at',
          'n.read_at',
        ])
        .where('n.workspace_id', '=', workspaceId)
        .where('n.user_id', '=', userId)
        .orderBy('n.created_at', 'desc')
        .orderBy('n.id', 'desc')
        .limit(LIST_LIMIT)
        .execute(),

    async unread(workspaceId: string, userId: string): Promise<number> {
      const row = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('unread'))
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.unread);
    },

    /** Marks the person's notifications read: those given, or all; returns how many changed. */
    async markRead(workspaceId: string, userId: string, ids: string[] | 'all', at: string): Promise<number> {
      let query = db
        .updateTable('notifications')
        .set({ read_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .where('read_at', 'is', null);
      if (ids !== 'all') query = query.where('id', 'in', ids);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },
  };
}
