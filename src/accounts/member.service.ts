import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import type { SessionUser } from './account.service.js';
import { requirePermission, type Role } from './roles.js';
import { deleteUserSessions, type SessionEnded } from './session-end.js';

/**
 * Settings → Team for owners: removing a member, changing a role, the pending invitations and
 * withdrawing one. A workspace always keeps at least one owner.
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
   * Runs an owner's change of the team with the workspace's row locked on PostgreSQL (SQLite runs
   * one write transaction at a time), and checks the owner is still one: two owners demoting each
   * other at once cannot both see the other still an owner.
   */
  function asOwner<T>(owner: SessionUser, change: (trx: Transaction<Database>) => Promise<T>) {
    requirePermission(owner, 'manage_team');
    return db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') {
        await trx.selectFrom('workspaces').select('id').where('id', '=', owner.workspaceId).forUpdate().execute();
      }
      requirePermission(await memberOf(trx, owner.workspaceId, owner.userId), 'manage_team');
      return change(trx);
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
    /** Removes a member: their sessions end; API tokens and reset links go with them (ON DELETE CASCADE). */
    async remove(owner: SessionUser, userId: string): Promise<{ id: string; email: string }> {
      const { removed: removedMember, endedSessions } = await asOwner(owner, async (trx) => {
        const member = await memberOf(trx, owner.workspaceId, userId);
        await keepAnOwner(trx, owner.workspaceId, member);
        const ended = await deleteUserSessions(trx, member.id);
        await trx.deleteFrom('users').where('id', '=', member.id).execute();
        return { removed: { id: member.id, email: member.email }, endedSessions: ended };
      });
      endedSessions.forEach(sessionEnded);
      await personChanged(owner.workspaceId, removedMember.id);
      return removedMember;
    },

    /** Makes a member an owner or an owner a member; the change applies to their open sessions at once. */
    async changeRole(owner: SessionUser, userId: string, role: Role): Promise<{ id: string; role: Role }> {
      const changed = await asOwner(owner, async (trx) => {
        const member = await memberOf(trx, owner.workspaceId, userId);
        if (role !== 'owner') await keepAnOwner(trx, owner.workspaceId, member);
        await trx.updateTable('users').set({ role }).where('id', '=', member.id).execute();
        return { id: member.id, role };
      });
      await personChanged(owner.workspaceId, changed.id);
      return changed;
    },

    /** Invitations not yet accepted and not expired, newest first (never their token). */
    async pendingInvites(owner: SessionUser) {
      requirePermission(owner, 'manage_team');
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
      requirePermission(owner, 'manage_team');
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
