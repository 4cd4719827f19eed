import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../shared/context.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { hashPassword, verifyPassword } from '../workspaces/password.js';
import type { WorkspaceService } from '../workspaces/workspace.service.js';

const SESSION_TTL_MS = 7 * 24 * 3_600_000;
const INVITE_TTL_MS = 7 * 24 * 3_600_000;
/** Failed logins for one email before it is locked; each further failure doubles the lock. */
const FREE_ATTEMPTS = 5;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 3_600_000;
/** Checked against when the email has no user, so a wrong email costs the same time as a wrong password. */
let unknownUserHash: Promise<string> | undefined;
const hashForUnknownUser = () => (unknownUserHash ??= hashPassword(randomBytes(16).toString('hex')));

export type Role = 'owner' | 'member';

/** Who a dashboard session belongs to. */
export interface SessionUser {
  /** The session's id: the hash of its cookie's secret (only the hash is stored). */
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  workspaceId: string;
  workspaceName: string;
  csrfToken: string;
  rateLimitPerMinute: number;
}

/** A new session: the cookie's secret (never stored, only its hash) and the CSRF token. */
export interface NewSession {
  secret: string;
  csrfToken: string;
  expiresAt: Date;
}

const secretToken = () => randomBytes(32).toString('base64url');
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * Dashboard accounts: password logins with a per-email lockout, sessions kept as hashes of the
 * cookie's secret, and invitations that let a teammate choose their own password.
 */
export function createAccountService(
  deps: Deps,
  workspaces: WorkspaceService,
  /** Told of each session logged out, after it is deleted (its live update streams end). */
  sessionEnded: (sessionId: string) => void,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  async function lockedFor(email: string): Promise<number> {
    const row = await db.selectFrom('login_failures').selectAll().where('email', '=', email).executeTakeFirst();
    const until = row?.locked_until ? Date.parse(row.locked_until) : 0;
    return Math.max(0, Math.ceil((until - clock.now().getTime()) / 1000));
  }

  async function recordFailure(email: string): Promise<void> {
    // Failures older than a day are forgotten (a lock lasts at most MAX_LOCK_MS); the table stays small.
    const stale = toStoredTimestamp(new Date(clock.now().getTime() - 24 * 3_600_000));
    await db.deleteFrom('login_failures').where('updated_at', '<', stale).execute();
    const row = await db.selectFrom('login_failures').selectAll().where('email', '=', email).executeTakeFirst();
    const failures = (row?.failures ?? 0) + 1;
    const over = failures - FREE_ATTEMPTS;
    const lockMs = over >= 0 ? Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** over) : 0;
    const values = {
      failures,
      locked_until: lockMs > 0 ? toStoredTimestamp(new Date(clock.now().getTime() + lockMs)) : null,
      updated_at: now(),
    };
    await db
      .insertInto('login_failures')
      .values({ email, ...values })
      .onConflict((oc) => oc.column('email').doUpdateSet(values))
      .execute();
  }

  async function openSession(userId: string, workspaceId: string): Promise<NewSession> {
    await db.deleteFrom('sessions').where('expires_at', '<=', now()).execute(); // housekeeping, at a rare moment
    const secret = secretToken();
    const csrfToken = secretToken();
    const expiresAt = new Date(clock.now().getTime() + SESSION_TTL_MS);
    await db
      .insertInto('sessions')
      .values({
        id_hash: hashOf(secret),
        user_id: userId,
        workspace_id: workspaceId,
        csrf_token: csrfToken,
        created_at: now(),
        expires_at: toStoredTimestamp(expiresAt),
      })
      .execute();
    return { secret, csrfToken, expiresAt };
  }

  return {
    /** Whether any user exists: the dashboard offers first-run set-up only before the first. */
    async needsSetup(): Promise<boolean> {
      return !(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());
    },

    /** First-run set-up from the browser: the first workspace and its owner, logged in. */
    async setupFirstWorkspace(input: { workspace: string; email: string; password: string }): Promise<NewSession> {
      if (!(await this.needsSetup())) throw errors.conflict('Parley is already set up; log in instead');
      const { workspace, user } = await workspaces.setup({ name: input.workspace, ...input });
      return openSession(user.id, workspace.id);
    },

    async login(emailGiven: string, password: string): Promise<NewSession> {
      const email = emailGiven.trim().toLowerCase();
      const wait = await lockedFor(email);
      if (wait > 0) throw errors.loginLocked(wait);
      const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      const matches = await verifyPassword(password, user?.password_hash ?? (await hashForUnknownUser()));
      if (!user || !matches) {
        await recordFailure(email);
        throw errors.invalidCredentials();
      }
      await db.deleteFrom('login_failures').where('email', '=', email).execute();
      return openSession(user.id, user.workspace_id);
    },

    async logout(secret: string): Promise<void> {
      const sessionId = hashOf(secret);
      await db.deleteFrom('sessions').where('id_hash', '=', sessionId).execute();
      sessionEnded(sessionId);
    },

    /** The session's user, or null when the cookie is unknown or expired. */
    async authenticate(secret: string): Promise<SessionUser | null> {
      const row = await db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
        .select(['s.id_hash', 's.user_id', 's.csrf_token', 's.expires_at', 'u.email', 'u.name', 'u.role'])
        .select(['w.id as workspace_id', 'w.name as workspace_name', 'w.rate_limit_per_minute'])
        .where('s.id_hash', '=', hashOf(secret))
        .executeTakeFirst();
      if (!row || Date.parse(row.expires_at) <= clock.now().getTime()) return null;
      return {
        sessionId: row.id_hash,
        userId: row.user_id,
        email: row.email,
        name: row.name,
        role: row.role,
        workspaceId: row.workspace_id,
        workspaceName: row.workspace_name,
        csrfToken: row.csrf_token,
        rateLimitPerMinute: row.rate_limit_per_minute,
      };
    },

    /** Invites a teammate (owners only); the link's token is returned once. */
    async invite(owner: SessionUser, input: { email: string; role: Role }) {
      if (owner.role !== 'owner') throw errors.ownerOnly();
      const email = input.email.trim().toLowerCase();
      const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (taken) throw errors.conflict(`A user with email ${email} already exists`);
      const token = secretToken();
      const invite = {
        id: newId(),
        workspace_id: owner.workspaceId,
        email,
        role: input.role,
        token_hash: hashOf(token),
        invited_by: owner.userId,
        created_at: now(),
        expires_at: toStoredTimestamp(new Date(clock.now().getTime() + INVITE_TTL_MS)),
      };
      await db.insertInto('invites').values(invite).execute();
      return { id: invite.id, email, role: input.role, token, expires_at: formatTimestamp(invite.expires_at) };
    },

    /** The invitation a link names, if it is still open. */
    async openInvite(token: string) {
      const invite = await db
        .selectFrom('invites as i')
        .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
        .select(['i.id', 'i.email', 'i.role', 'i.workspace_id', 'i.expires_at', 'i.accepted_at', 'w.name as workspace'])
        .where('i.token_hash', '=', hashOf(token))
        .executeTakeFirst();
      if (!invite || invite.accepted_at || Date.parse(invite.expires_at) <= clock.now().getTime()) {
        throw errors.notFound('invitation', 'token');
      }
      return invite;
    },

    /** Accepting an invitation creates the user with the password they chose, logged in. */
    async acceptInvite(input: { token: string; name: string; password: string }): Promise<NewSession> {
      const invite = await this.openInvite(input.token);
      if (input.password.length < 8) throw errors.validation('password', 'must be at least 8 characters');
      const userId = newId();
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('invites')
          .set({ accepted_at: now() })
          .where('id', '=', invite.id)
          .where('accepted_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw errors.notFound('invitation', 'token');
        await trx
          .insertInto('users')
          .values({
            id: userId,
            workspace_id: invite.workspace_id,
            email: invite.email,
            name: input.name.trim() || invite.email,
            password_hash: passwordHash,
            role: invite.role,
            created_at: now(),
          })
          .execute();
      });
      return openSession(userId, invite.workspace_id);
    },

    /** The workspace's users, for Settings → Team. */
    team: (workspaceId: string) =>
      db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'role', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at')
        .execute(),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
