import type { Kysely, Selectable } from 'kysely';
import type { Database, RoutingRuleTable, TeamTable } from '../db/schema.js';

export type TeamRow = Selectable<TeamTable>;
export type RuleRow = Selectable<RoutingRuleTable>;

/** Team names compare case-insensitively: "Sales" and "sales" are one team. */
export const teamKey = (name: string): string => name.trim().toLowerCase();

/** SQL for teams, their members, the routing rules and settings, and people's availability. */
export function teamRepository(db: Kysely<Database>) {
  return {
    /** Teams in id order after `afterId` (cursor paging), or all of them alphabetically without a limit. */
    list: (workspaceId: string, page: { afterId: string | null; limit: number } | null) => {
      let query = db.selectFrom('teams').selectAll().where('workspace_id', '=', workspaceId);
      if (!page) return query.orderBy('name_key').orderBy('id').execute();
      if (page.afterId !== null) query = query.where('id', '>', page.afterId);
      return query.orderBy('id').limit(page.limit).execute();
    },

    byId: (workspaceId: string, id: string) =>
      db
        .selectFrom('teams')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),

    byName: (workspaceId: string, name: string) =>
      db
        .selectFrom('teams')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('name_key', '=', teamKey(name))
        .executeTakeFirst(),

    insert: (team: TeamRow) => db.insertInto('teams').values(team).execute(),

    rename: (workspaceId: string, id: string, name: string) =>
      db
        .updateTable('teams')
        .set({ name, name_key: teamKey(name) })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute(),

    /** Deletes the team: members and rules go with it; its conversations keep their person, lose the team. */
    remove: (workspaceId: string, id: string) =>
      db.deleteFrom('teams').where('workspace_id', '=', workspaceId).where('id', '=', id).execute(),

    /** The members of these teams, with their availability (no routing row: available). */
    members: (workspaceId: string, teamIds: string[]) =>
      teamIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('team_members as tm')
            .innerJoin('users as u', 'u.id', 'tm.user_id')
            .leftJoin('routing_agents as ra', 'ra.user_id', 'u.id')
            .select(['tm.team_id', 'u.id', 'u.name', 'u.email', 'ra.available'])
            .where('tm.workspace_id', '=', workspaceId)
            .where('tm.team_id', 'in', teamIds)
            .orderBy('u.name')
            .orderBy('u.email')
            .execute(),

    /** Replaces the team's members; returns the ids of those who left it. */
    async setMembers(workspaceId: string, teamId: string, userIds: string[]): Promise<string[]> {
      const before = await db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).execute();
      const left = before.map((row) => row.user_id).filter((id) => !userIds.includes(id));
      if (left.length > 0) {
        await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', 'in', left).execute();
      }
      if (userIds.length > 0) {
        await db
          .insertInto('team_members')
          .values(userIds.map((user_id) => ({ team_id: teamId, user_id, workspace_id: workspaceId })))
          .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
          .execute();
      }
      return left;
    },

    /** Which of these ids are people of the workspace. */
    async peopleAmong(workspaceId: string, userIds: string[]): Promise<Set<string>> {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('users')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', userIds)
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    person: (workspaceId: string, userId: string) =>
      db
        .selectFrom('users')
        .select(['id', 'role'])
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', userId)
        .executeTakeFirst(),

    isMember: async (teamId: string, userId: string) =>
      (await db
        .selectFrom('team_members')
        .select('user_id')
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .executeTakeFirst()) !== undefined,

    /** A person's availability (available until they say otherwise). */
    available: async (userId: string) =>
      ((await db.selectFrom('routing_agents').select('available').where('user_id', '=', userId).executeTakeFirst())
        ?.available ?? 1) === 1,

    setAvailable: (workspaceId: string, userId: string, available: boolean, at: string) =>
      db
        .insertInto('routing_agents')
        .values({ user_id: userId, workspace_id: workspaceId, available: available ? 1 : 0, updated_at: at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ available: available ? 1 : 0, updated_at: at }))
        .execute(),

    settings: (workspaceId: string) =>
      db
        .selectFrom('routing_settings')
        .select(['auto_assign', 'agent_limit'])
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst(),

    saveSettings: (workspaceId: string, fields: { auto_assign: number; agent_limit: number | null }, at: string) =>
      db
        .insertInto('routing_settings')
        .values({ workspace_id: workspaceId, ...fields, updated_at: at })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ ...fields, updated_at: at }))
        .execute(),

    rules: (workspaceId: string) =>
      db.selectFrom('routing_rules').selectAll().where('workspace_id', '=', workspaceId).orderBy('position').execute(),

    async replaceRules(workspaceId: string, rules: RuleRow[]): Promise<void> {
      await db.deleteFrom('routing_rules').where('workspace_id', '=', workspaceId).execute();
      if (rules.length > 0) await db.insertInto('routing_rules').values(rules).execute();
    },
  };
}
