import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, GroupTable } from '../db/schema.js';

export type GroupRow = Awaited<ReturnType<ReturnType<typeof groupRepository>['findById']>> & object;

/** SQL for WhatsApp groups: the only place `groups` is written. */
export function groupRepository(db: Kysely<Database>) {
  const inWorkspace = (workspaceId: string) =>
    db.selectFrom('groups').selectAll().where('workspace_id', '=', workspaceId);

  return {
    findById: (workspaceId: string, id: string) => inWorkspace(workspaceId).where('id', '=', id).executeTakeFirst(),

    /** The group Meta names by its id, or the one whose create request this is (its id not known yet). */
    findByMeta: (workspaceId: string, waGroupId: string | null, requestId: string | null) =>
      inWorkspace(workspaceId)
        .where((eb) =>
          eb.or([
            ...(waGroupId !== null ? [eb('wa_group_id', '=', waGroupId)] : []),
            ...(requestId !== null ? [eb('request_id', '=', requestId)] : []),
          ]),
        )
        .orderBy('wa_group_id')
        .executeTakeFirst(),

    /** The workspace's groups, the latest conversation first, then the newest. */
    list: (workspaceId: string) =>
      inWorkspace(workspaceId)
        .orderBy((eb) => eb.fn.coalesce('last_message_at', 'created_at'), 'desc')
        .orderBy('id', 'desc')
        .execute(),

    /** Inserts a group Meta named that Parley did not know; one another delivery inserted meanwhile is kept. */
    async insertIfAbsent(row: Insertable<GroupTable>): Promise<void> {
      await db
        .insertInto('groups')
        .values(row)
        .onConflict((oc) => oc.columns(['workspace_id', 'wa_group_id']).doNothing())
        .execute();
    },

    async update(id: string, fields: Updateable<GroupTable>): Promise<void> {
      await db.updateTable('groups').set(fields).where('id', '=', id).execute();
    },

    /** Moves the group up the list: a message was written in it at `at` (never back in time). */
    async noteLastMessage(id: string, at: string): Promise<void> {
      await db
        .updateTable('groups')
        .set({ last_message_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_message_at', 'is', null), eb('last_message_at', '<', at)]))
        .execute();
    },
  };
}
