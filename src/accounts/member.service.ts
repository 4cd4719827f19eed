import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import type { SessionUser } from '../access/principal.js';
import { requirePermission, type Role } from '../access/roles.js';
import { deleteUserSessions, sessionsOf, type SessionEnded } from './session-end.js';

/**
 * Settings → Team for those who manage the team (owners and admins; the routes check
 * `manage_team`): removing a member, changing a role, the pending invitations and withdrawing
 * one. Only an owner touches an owner or makes one (`manage_owners`); a workspace always keeps at
 * least one owner.
 */
export function createMemberService(
  { db, dialect, clock }: Deps,
  sessionEnded: SessionEnded,
  /**
   * After a person is removed or their role changes: conversations they may no longer handle go to
   * others (src/routing/).
   */
  personChanged: (workspaceId: string, userId: string) => Promise<void>,
) {
  /**
   * Runs a change of the team with the workspace's row locked on PostgreSQL (SQLite runs one write
   * transaction at a time), with the manager's role as it is now: two owners demoting each other at
   * once cannot both see the other still an owner. Hands the change that fresh role.
   */
  function asManager<T>(manager: SessionUser, change: (trx: Transaction<Database>, role: Role) => Promise<T>) {
    return db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') {
        await trx.selectFrom('workspaces').select('id').where('id', '=', manager.workspaceId).forUpdate().execute();
      }
      const { role } = await memberOf(trx, manager.workspaceId, manager.userId);
      requirePermission({ role }, 'manage_team');
      return change(trx, role);
    });
  }

  async function memberOf(trx: Kysely<Database>, workspaceId: string, userId: string) {
    const member = await trx
      .selectFrom('users')
      .select(['id', 'email', 'role'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!member) throw errors.notFound('member', 'id');
    return member;
  }

  /** Refuses to take the owner role from the workspace's last owner. */
  async function keepAnOwner(trx: Kysely<Database>, workspaceId: string, member: { role: Role }): Promise<void> {
    if (member.role !== 'owner') return;
    const { owners } = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('owners'))
      .where('workspace_id', '=', workspaceId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    if (Number(owners) <= 1) {
      throw errors.conflict('A workspace needs at least one owner: make another member an owner first');
    }
  }

  return {
    /**
     * Removes a member: their sessions end; API tokens and reset links go with them (ON DELETE
     * CASCADE, and migration 0031 makes every process forget the tokens' cached principals).
     */
    async remove(manager: SessionUser, userId: string): Promise<{ id: string; email: string }> {
      const { removed, endedSessions } = await asManager(manager, async (trx, managerRole) => {
        const member = await memberOf(trx, manager.workspaceId, userId);
        if (member.role === 'owner') requirePermission({ role: managerRole }, 'manage_owners');
        await keepAnOwner(trx, manager.workspaceId, member);
        const ended = await deleteUserSessions(trx, member.id);
        await trx.deleteFrom('users').where('id', '=', member.id).execute();
        return { removed: { id: member.id, email: member.email }, endedSessions: ended };
      });
      endedSessions.forEach(sessionEnded);
      await personChanged(manager.workspaceId, removed.id);
      return removed;
    },

    /**
     * Gives a member another role; it applies at once to their open sessions and their API tokens
     * (migration 0031), in every process. Their live streams end and reconnect under the new role.
     */
    async changeRole(manager: SessionUser, userId: string, role: Role): Promise<{ id: string; role: Role }> {
      const { changed, sessions } = await asManager(manager, async (trx, managerRole) => {
        const member = await memberOf(trx, manager.workspaceId, userId);
        if (member.role === 'owner' || role === 'owner') requirePermission({ role: managerRole }, 'manage_owners');
        if (role !== 'owner') await keepAnOwner(trx, manager.workspaceId, member);
        await trx.updateTable('users').set({ role }).where('id', '=', member.id).execute();
        return { changed: { id: member.id, role }, sessions: await sessionsOf(trx, member.id) };
      });
      sessions.forEach(sessionEnded);
      await personChanged(manager.workspaceId, changed.id);
      return changed;
    },

    /** Invitations not yet accepted and not expired, newest first (never their token). */
    async pendingInvites(owner: SessionUser) {
      const rows = await db
        .selectFrom('invites')
        .select(['id', 'email', 'role', 'created_at', 'expires_at'])
        .where('workspace_id', '=', owner.workspaceId)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', toStoredTimestamp(clock.now()))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((row) => ({
        ...row,
        created_at: formatTimestamp(row.created_at),
        expires_at: formatTimestamp(row.expires_at),
      }));
    },

    /** Withdraws a pending invitation: its link stops working. */
    async revokeInvite(owner: SessionUser, inviteId: string): Promise<{ id: string }> {
      const deleted = await db
        .deleteFrom('invites')
        .where('id', '=', inviteId)
        .where('workspace_id', '=', owner.workspaceId)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw errors.notFound('invitation', 'id');
      return { id: inviteId };
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
