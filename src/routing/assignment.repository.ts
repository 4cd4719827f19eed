import { sql, type Kysely } from 'kysely';
import { claimConversation, saveConversationStates } from '../inbox/index.js';
import type { Database } from '../db/schema.js';
import type { Role } from '../access/roles.js';

/** A conversation waiting for a person: its contact and the team whose queue it is in (null: the workspace's). */
export interface Waiting {
  contact_id: string;
  team_id: string | null;
}

/** Who handles a conversation, as routing sees it. */
export interface Assignment {
  team_id: string | null;
  assignee_id: string | null;
}

/**
 * SQL for who handles conversations. Routing owns a conversation's `team_id` and `assignee_id`
 * (the inbox owns its read and done state); the per-person counts read the inbox's `conversations`.
 */
export function assignmentRepository(db: Kysely<Database>) {
  return {
    contact: (workspaceId: string, contactId: string) =>
      db
        .selectFrom('contacts')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', contactId)
        .executeTakeFirst(),

    /** The conversations of these contacts that exist, with who handles them and whether they are done. */
    states: (workspaceId: string, contactIds: string[]) =>
      contactIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('conversations')
            .select(['contact_id', 'team_id', 'assignee_id', 'done_at'])
            .where('workspace_id', '=', workspaceId)
            .where('contact_id', 'in', contactIds)
            .execute(),

    /** The ids among these that are contacts of the workspace (every contact has a conversation to assign). */
    contacts: async (workspaceId: string, contactIds: string[]) =>
      new Set(
        contactIds.length === 0
          ? []
          : (
              await db
                .selectFrom('contacts')
                .select('id')
                .where('workspace_id', '=', workspaceId)
                .where('id', 'in', contactIds)
                .execute()
            ).map((row) => row.id),
      ),

    /** Writes who handles the conversation, creating its row on first use. */
    save: (workspaceId: string, contactId: string, fields: Partial<Assignment>, at: string) =>
      saveConversationStates(db, workspaceId, [contactId], fields, at),

    /** The same fields on many conversations (the bulk action), creating their rows on first use. */
    saveMany: (workspaceId: string, contactIds: string[], fields: Partial<Assignment>, at: string) =>
      saveConversationStates(db, workspaceId, contactIds, fields, at),

    /**
     * Takes the workspace's next turn, holding its routing row until the transaction ends: automatic
     * assignments of one workspace run one at a time across every process (on PostgreSQL the row lock;
     * SQLite runs one write transaction at a time). Creates the row when missing.
     */
    async takeTurn(workspaceId: string, at: string) {
      await db
        .insertInto('routing_settings')
        .values({ workspace_id: workspaceId, agent_limit: null, updated_at: at })
        .onConflict((oc) => oc.column('workspace_id').doNothing())
        .execute();
      const row = await db
        .updateTable('routing_settings')
        .set((eb) => ({ turn: eb('turn', '+', 1) }))
        .where('workspace_id', '=', workspaceId)
        .returning(['auto_assign', 'agent_limit', 'turn'])
        .executeTakeFirstOrThrow();
      return { autoAssign: row.auto_assign === 1, agentLimit: row.agent_limit, turn: Number(row.turn) };
    },

    /** Whether the workspace assigns conversations automatically (read without the lock: most do not). */
    autoAssignOn: async (workspaceId: string) =>
      (
        await db
          .selectFrom('routing_settings')
          .select('auto_assign')
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirst()
      )?.auto_assign === 1,

    saveTurn: (workspaceId: string, turn: number) =>
      db.updateTable('routing_settings').set({ turn }).where('workspace_id', '=', workspaceId).execute(),

    /**
     * The people who may take a conversation of the team (null: anyone in the workspace): available,
     * with a role that handles conversations; each with their last turn and open conversations.
     */
    candidates: (workspaceId: string, teamId: string | null, roles: Role[]) => {
      let query = db
        .selectFrom('users as u')
        .leftJoin('routing_agents as ra', 'ra.user_id', 'u.id')
        .select(['u.id', sql<string | number>`coalesce(ra.last_turn, 0)`.as('last_turn')])
        .select((eb) =>
          eb
            .selectFrom('conversations as cv')
            .select((e) => e.fn.countAll().as('n'))
            .whereRef('cv.assignee_id', '=', 'u.id')
            .where('cv.done_at', 'is', null)
            .as('open'),
        )
        .where('u.workspace_id', '=', workspaceId)
        .where('u.role', 'in', roles)
        .where(sql<boolean>`coalesce(ra.available, 1) = 1`);
      if (teamId !== null) {
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('team_members as tm')
              .select('tm.user_id')
              .whereRef('tm.user_id', '=', 'u.id')
              .where('tm.team_id', '=', teamId),
          ),
        );
      }
      return query.execute();
    },

    /** Gives an unassigned conversation to a person (a conversation someone took meanwhile stays theirs). */
    async assign(workspaceId: string, contactId: string, userId: string, turn: number, at: string): Promise<boolean> {
      if (!(await claimConversation(db, workspaceId, contactId, userId, at))) return false;
      await db
        .insertInto('routing_agents')
        .values({ user_id: userId, workspace_id: workspaceId, last_turn: turn, updated_at: at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ last_turn: turn, updated_at: at }))
        .execute();
      return true;
    },

    /** Open conversations nobody handles that a customer wrote in, longest waiting first. */
    queue: (workspaceId: string, limit: number): Promise<Waiting[]> =>
      db
        .selectFrom('conversations as cv')
        .innerJoin('contacts as c', 'c.id', 'cv.contact_id')
        .select(['cv.contact_id', 'cv.team_id'])
        .where('cv.workspace_id', '=', workspaceId)
        .where('cv.assignee_id', 'is', null)
        .where('cv.done_at', 'is', null)
        .where('c.last_inbound_at', 'is not', null)
        .orderBy('c.last_inbound_at')
        .orderBy('cv.contact_id')
        .limit(limit)
        .execute(),

    /** The contacts whose conversation is in the team (open or done). */
    ofTeam: async (workspaceId: string, teamId: string) =>
      (
        await db
          .selectFrom('conversations')
          .select('contact_id')
          .where('workspace_id', '=', workspaceId)
          .where('team_id', '=', teamId)
          .execute()
      ).map((row) => row.contact_id),

    /** Takes a person's open conversations (of one team, or all) back to their queues; returns their contacts. */
    async release(workspaceId: string, userId: string, teamId: string | null, at: string): Promise<string[]> {
      let query = db
        .selectFrom('conversations')
        .select('contact_id')
        .where('workspace_id', '=', workspaceId)
        .where('assignee_id', '=', userId)
        .where('done_at', 'is', null);
      if (teamId !== null) query = query.where('team_id', '=', teamId);
      const ids = (await query.execute()).map((row) => row.contact_id);
      await saveConversationStates(db, workspaceId, ids, { assignee_id: null }, at);
      return ids;
    },

    /** The contacts' tag names (lower-cased), for the tag rules. */
    async tagsOf(contactIds: string[]): Promise<Map<string, Set<string>>> {
      const tags = new Map<string, Set<string>>();
      if (contactIds.length === 0) return tags;
      const rows = await db
        .selectFrom('contact_tags as ct')
        .innerJoin('tags as t', 't.id', 'ct.tag_id')
        .select(['ct.contact_id', 't.name_key'])
        .where('ct.contact_id', 'in', contactIds)
        .execute();
      for (const row of rows) tags.set(row.contact_id, (tags.get(row.contact_id) ?? new Set()).add(row.name_key));
      return tags;
    },
  };
}
