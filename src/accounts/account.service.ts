import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, LoginFailureTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/sql.js';
import type { Deps } from '../db/deps.js';
import { commonProblems } from '../shared/common.problems.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { hashPassword, verifyPassword, requirePasswordRule, type WorkspaceService } from '../workspaces/index.js';
import { accountProblems } from './account.problems.js';
import type { DashboardLanguage } from '../shared/languages.js';
import type { SessionUser } from '../access/principal.js';
import { requirePermission, type Role } from '../access/roles.js';
import { hashOfSecret, newSecretToken } from '../shared/secret-token.js';
import { claimOneTimeLink } from './one-time-link.js';
import type { SessionEnded } from './session-end.js';
import { expiryWords, invitationEmail, type AccountMail } from './account-emails.js';

const SESSION_TTL_MS = 7 * 24 * 3_600_000;
const INVITE_TTL_MS = 7 * 24 * 3_600_000;
/** Failed logins for one email before it is locked; each further failure doubles the lock. */
const FREE_ATTEMPTS = 5;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 3_600_000;
const FORGET_FAILURES_MS = 24 * 3_600_000;
/** Checked against when the email has no user, so a wrong email costs the same time as a wrong password. */
let unknownUserHash: Promise<string> | undefined;
const hashForUnknownUser = () => (unknownUserHash ??= hashPassword(randomBytes(16).toString('hex')));

/** A new session: the cookie's secret (never stored, only its hash) and the CSRF token. */
export interface NewSession {
  secret: string;
  csrfToken: string;
  expiresAt: Date;
}

type LoginFailureCount = Omit<LoginFailureTable, 'email'>;

const alreadySetUp = () => errors.conflict('Parley is already set up; log in instead');

/**
 * Dashboard accounts: password logins with a per-email lockout, sessions kept as hashes of the
 * cookie's secret, and invitations that let a teammate choose their own password.
 */
export function createAccountService(
  deps: Deps,
  workspaces: WorkspaceService,
  /** Told of each session logged out, after it is deleted (its live update streams end). */
  sessionEnded: SessionEnded,
  mail: AccountMail,
) {
  const { db, clock, newId } = deps;
  const now = () => toStoredTimestamp(clock.now());

  /** Seconds until a stored moment, or 0 once it has passed (or is null). */
  const secondsUntil = (at: string | null) =>
    at ? Math.max(0, Math.ceil((Date.parse(at) - clock.now().getTime()) / 1000)) : 0;

  /** Failures older than a day are forgotten (a lock lasts at most MAX_LOCK_MS). */
  const staleBefore = () => toStoredTimestamp(new Date(clock.now().getTime() - FORGET_FAILURES_MS));

  /** The lock an email gets at its `failures`-th counted attempt: none before FREE_ATTEMPTS, then doubling. */
  function lockAfter(failures: number): string | null {
    const over = failures - FREE_ATTEMPTS;
    if (over < 0) return null;
    return toStoredTimestamp(new Date(clock.now().getTime() + Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** over)));
  }

  /**
   * Counts a login attempt on `email` before its password is checked, and refuses while the email is
   * locked. The attempt that reaches FREE_ATTEMPTS locks it at once (a success clears the count), so
   * attempts in parallel cannot check more passwords than the limit. The count is a compare-and-set:
   * losing the race means another attempt was counted, so the loop ends at the latest once that lock is set.
   */
  async function countAttempt(email: string): Promise<void> {
    for (;;) {
      const row = await db.selectFrom('login_failures').selectAll().where('email', '=', email).executeTakeFirst();
      const wait = secondsUntil(row?.locked_until ?? null);
      if (wait > 0) throw errors.loginLocked(wait);
      const previous = row && row.updated_at >= staleBefore() ? row.failures : 0;
      const values = { failures: previous + 1, locked_until: lockAfter(previous + 1), updated_at: now() };
      if (row ? await updateCount(email, row.failures, values) : await insertCount(email, values)) return;
    }
  }

  async function updateCount(email: string, seen: number, values: LoginFailureCount): Promise<boolean> {
    const result = await db
      .updateTable('login_failures')
      .set(values)
      .where('email', '=', email)
      .where('failures', '=', seen)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Rows are only created here, so stale ones (made-up emails among them) are swept here. */
  async function insertCount(email: string, values: LoginFailureCount): Promise<boolean> {
    await db.deleteFrom('login_failures').where('updated_at', '<', staleBefore()).execute();
    const result = await db
      .insertInto('login_failures')
      .values({ email, ...values })
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows) === 1;
  }

  /** Claims the installation for the one first-run set-up, inside the transaction that creates it. */
  async function claimFirstRun(trx: Transaction<Database>): Promise<void> {
    const claimed = await trx
      .insertInto('first_run')
      .values({ id: 1, completed_at: now() })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    const anyUser = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows) !== 1 || anyUser) throw alreadySetUp();
  }

  async function openSession(userId: string, workspaceId: string): Promise<NewSession> {
    await db.deleteFrom('sessions').where('expires_at', '<=', now()).execute(); // housekeeping, at a rare moment
    const secret = newSecretToken();
    const csrfToken = newSecretToken();
    const expiresAt = new Date(clock.now().getTime() + SESSION_TTL_MS);
    await db
      .insertInto('sessions')
      .values({
        id_hash: hashOfSecret(secret),
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
    async setupFirstWorkspace(input: {
      workspace: string;
      email: string;
      password: string;
      name?: string | undefined;
    }): Promise<NewSession> {
      if (!(await this.needsSetup())) throw alreadySetUp(); // the claim decides; this spares the hashing
      const { email, password } = input;
      const owner = { name: input.workspace, email, password, ownerName: input.name };
      const { workspace, user } = await workspaces.setup(owner, claimFirstRun);
      return openSession(user.id, workspace.id);
    },

    async login(emailGiven: string, password: string): Promise<NewSession> {
      const email = emailGiven.trim().toLowerCase();
      await countAttempt(email);
      const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      const matches = await verifyPassword(password, user?.password_hash ?? (await hashForUnknownUser()));
      if (!user || !matches) throw errors.invalidCredentials();
      await db.deleteFrom('login_failures').where('email', '=', email).execute();
      return openSession(user.id, user.workspace_id);
    },

    async logout(secret: string): Promise<void> {
      const sessionId = hashOfSecret(secret);
      await db.deleteFrom('sessions').where('id_hash', '=', sessionId).execute();
      sessionEnded(sessionId);
    },

    /** The session's user, or null when the cookie is unknown or expired. */
    async authenticate(secret: string): Promise<SessionUser | null> {
      const row = await db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
        .select(['s.id_hash', 's.user_id', 's.csrf_token', 's.expires_at', 'u.email', 'u.name', 'u.role', 'u.language'])
        .select(['w.id as workspace_id', 'w.name as workspace_name', 'w.time_zone', 'w.rate_limit_per_minute'])
        .where('s.id_hash', '=', hashOfSecret(secret))
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
        workspaceTimeZone: row.time_zone,
        language: row.language,
        csrfToken: row.csrf_token,
        rateLimitPerMinute: row.rate_limit_per_minute,
      };
    },

    /** Whether invitations and reset links are emailed (SMTP configured). */
    emailEnabled: mail.email.enabled,

    /**
     * Invites a teammate (the route checks `manage_team`; only an owner invites an owner); the link's
     * token is returned once. Inviting an email that has a pending invitation renews it: the earlier
     * link stops working and `renewed` says so (someone invites again because the link was lost or
     * expired, and expects one invitation, the new one).
     */
    async invite(owner: SessionUser, input: { email: string; role: Role }) {
      if (input.role === 'owner') requirePermission(owner, 'manage_owners');
      const email = input.email.trim().toLowerCase();
      const taken = await db.selectFrom('users').select('workspace_id').where('email', '=', email).executeTakeFirst();
      if (taken?.workspace_id === owner.workspaceId)
        throw errors.taken(accountProblems.problem('email', 'already_member'));
      // An email belongs to one user; saying nothing more keeps other workspaces' people private.
      if (taken) throw errors.taken(accountProblems.problem('email', 'has_account'));
      const token = newSecretToken();
      const invite = {
        id: newId(),
        workspace_id: owner.workspaceId,
        email,
        role: input.role,
        token_hash: hashOfSecret(token),
        invited_by: owner.userId,
        created_at: now(),
        expires_at: toStoredTimestamp(new Date(clock.now().getTime() + INVITE_TTL_MS)),
      };
      const link = `${mail.publicBaseUrl}/invite/${token}`;
      const message = invitationEmail({
        inviter: owner.name || owner.email,
        workspace: owner.workspaceName,
        link,
        expiresAt: expiryWords(invite.expires_at),
      });
      const renewed = await db
        .transaction()
        .execute(async (trx) => {
          const withdrawn = await withdrawPendingInvites(trx, owner.workspaceId, email).executeTakeFirst();
          await trx.insertInto('invites').values(invite).execute();
          await mail.email.queue(trx, { workspaceId: owner.workspaceId, to: email, ...message });
          return Number(withdrawn.numDeletedRows) > 0;
        })
        .catch((error: unknown) => {
          // Another invitation to this email was written at the same moment (one pending per email: 0030).
          if (isUniqueViolation(error)) throw errors.taken(accountProblems.problem('email', 'being_invited'));
          throw error;
        });
      mail.email.wake();
      const expiresAt = formatTimestamp(invite.expires_at);
      // The link is shown as well: the owner may hand it over themselves (and without SMTP must).
      return {
        id: invite.id,
        email,
        role: input.role,
        token,
        expires_at: expiresAt,
        emailed: mail.email.enabled,
        renewed,
      };
    },

    /** The invitation a link names, if it is still open. */
    async openInvite(token: string) {
      const invite = await db
        .selectFrom('invites as i')
        .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
        .select(['i.id', 'i.email', 'i.role', 'i.workspace_id', 'i.expires_at', 'i.accepted_at', 'w.name as workspace'])
        .where('i.token_hash', '=', hashOfSecret(token))
        .executeTakeFirst();
      if (!invite || Date.parse(invite.expires_at) <= clock.now().getTime()) {
        throw errors.notFound('invitation', 'token');
      }
      if (invite.accepted_at) throw invitationUsed();
      return invite;
    },

    /** Accepting an invitation creates the user with the password they chose, logged in. */
    async acceptInvite(input: { token: string; name: string; password: string }): Promise<NewSession> {
      const invite = await this.openInvite(input.token);
      requirePasswordRule(input.password);
      const userId = newId();
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        await claimOneTimeLink(trx, 'invites', invite.id, now(), invitationUsed);
        // The email's only pending invitation here (invites_one_pending): accepting it leaves none.
        const created = await trx
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
          .onConflict((oc) => oc.column('email').doNothing())
          .executeTakeFirst();
        // Invited twice (here or by another workspace) and already joined with this email.
        if (Number(created.numInsertedOrUpdatedRows) !== 1) {
          throw errors.conflict('This email already has a Parley account; log in with it instead');
        }
      });
      return openSession(userId, invite.workspace_id);
    },

    /**
     * The signed-in person's own settings (Settings → Your account): their name, which the team and the
     * inbox show, and the dashboard's language (null: their browser's). What is not given stays.
     */
    async updateAccount(
      user: SessionUser,
      input: { name?: string | undefined; language?: DashboardLanguage | null | undefined },
    ): Promise<{ name: string; language: DashboardLanguage | null }> {
      const name = input.name?.trim();
      if (name === '') throw errors.invalid(commonProblems.problem('name', 'required'));
      const changes = {
        ...(name !== undefined && { name }),
        ...(input.language !== undefined && { language: input.language }),
      };
      if (Object.keys(changes).length > 0)
        await db.updateTable('users').set(changes).where('id', '=', user.userId).execute();
      return { name: name ?? user.name, language: input.language === undefined ? user.language : input.language };
    },

    /** The workspace's users, for Settings → Team. */
    team: (workspaceId: string) =>
      db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'role', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
  };
}

/** Deletes the email's invitations in the workspace not yet accepted (expired ones too). */
function withdrawPendingInvites(trx: Kysely<Database>, workspaceId: string, email: string) {
  return trx
    .deleteFrom('invites')
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null);
}

const invitationUsed = () => errors.conflict('This invitation has already been used; log in instead');

export type AccountService = ReturnType<typeof createAccountService>;
