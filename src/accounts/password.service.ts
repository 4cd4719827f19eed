import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { hashPassword, verifyPassword, requirePasswordRule } from '../workspaces/index.js';
import type { SessionUser } from '../access/principal.js';
import { hashOfSecret, newSecretToken } from '../shared/secret-token.js';
import { accountProblems } from './account.problems.js';
import { claimOneTimeLink } from './one-time-link.js';
import { deleteUserSessions, type SessionEnded } from './session-end.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { expiryWords, passwordResetEmail, type AccountMail } from './account-emails.js';

/** How long a reset link works: long enough for the operator to hand it over, short for a leaked one. */
const RESET_TTL_MS = 24 * 3_600_000;

/**
 * A user's own password: changed with the current one, or — forgotten — reset through a one-time
 * link the operator mints with `parley user reset-password`, or that the user asks to be emailed
 * (when SMTP is configured). Only the link token's hash is stored, as for invitations.
 */
export function createPasswordService({ db, clock, newId }: Deps, sessionEnded: SessionEnded, mail: AccountMail) {
  const now = () => toStoredTimestamp(clock.now());

  return {
    /** Changes the signed-in user's password; their other sessions end, this one stays. */
    async change(user: SessionUser, input: { currentPassword: string; newPassword: string }): Promise<void> {
      const { password_hash } = await db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow();
      if (!(await verifyPassword(input.currentPassword, password_hash))) {
        throw errors.invalid(accountProblems.problem('current_password', 'not_current_password'));
      }
      requirePasswordRule(input.newPassword, 'new_password');
      const newHash = await hashPassword(input.newPassword);
      const ended = await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password_hash: newHash }).where('id', '=', user.userId).execute();
        return deleteUserSessions(trx, user.userId, user.sessionId);
      });
      ended.forEach(sessionEnded);
    },

    /** Signs the user out everywhere but here (a lost phone, a shared computer); returns how many sessions ended. */
    async endOtherSessions(user: SessionUser): Promise<number> {
      const ended = await deleteUserSessions(db, user.userId, user.sessionId);
      ended.forEach(sessionEnded);
      return ended.length;
    },

    /**
     * Emails a reset link to the user with this email, if there is one: the answer is the same either
     * way, so the form tells nobody who has an account. Without SMTP it refuses (409): the operator mints links.
     */
    async emailReset(emailGiven: string): Promise<void> {
      if (!mail.email.enabled) {
        throw errors.conflict('This Parley sends no email: ask the person who runs it for a reset link');
      }
      const user = await db
        .selectFrom('users')
        .select('workspace_id')
        .where('email', '=', emailGiven.trim().toLowerCase())
        .executeTakeFirst();
      if (!user) return;
      await this.issueReset(emailGiven, async (trx, reset) => {
        const link = `${mail.publicBaseUrl}/reset-password#${reset.token}`;
        const message = passwordResetEmail({ link, expiresAt: expiryWords(reset.expiresAt) });
        await mail.email.queue(trx, { workspaceId: user.workspace_id, to: reset.email, ...message });
      });
      mail.email.wake();
    },

    /**
     * Mints a reset link's token for the user with this email; an earlier link of theirs stops working.
     * `andThen` runs in the same transaction (the email that carries the link is queued with it).
     */
    async issueReset(
      emailGiven: string,
      andThen?: (trx: Kysely<Database>, reset: { email: string; token: string; expiresAt: string }) => Promise<void>,
    ): Promise<{ email: string; token: string; expires_at: string }> {
      const email = emailGiven.trim().toLowerCase();
      const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (!user) throw errors.notFound('user', 'email');
      const token = newSecretToken();
      const expiresAt = toStoredTimestamp(new Date(clock.now().getTime() + RESET_TTL_MS));
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
        await trx
          .insertInto('password_resets')
          .values({
            id: newId(),
            user_id: user.id,
            token_hash: hashOfSecret(token),
            created_at: now(),
            expires_at: expiresAt,
          })
          .execute();
        await andThen?.(trx, { email, token, expiresAt });
      });
      return { email, token, expires_at: formatTimestamp(expiresAt) };
    },

    /** Sets a new password through a reset link, once; every session of the user ends. */
    async reset(input: { token: string; password: string }): Promise<void> {
      const reset = await db
        .selectFrom('password_resets')
        .select(['id', 'user_id', 'expires_at', 'used_at'])
        .where('token_hash', '=', hashOfSecret(input.token))
        .executeTakeFirst();
      if (!reset || Date.parse(reset.expires_at) <= clock.now().getTime()) throw errors.notFound('reset link', 'token');
      if (reset.used_at) throw linkUsed();
      requirePasswordRule(input.password);
      const newHash = await hashPassword(input.password);
      const ended = await db.transaction().execute(async (trx) => {
        await claimOneTimeLink(trx, 'password_resets', reset.id, now(), linkUsed);
        await trx.updateTable('users').set({ password_hash: newHash }).where('id', '=', reset.user_id).execute();
        return deleteUserSessions(trx, reset.user_id);
      });
      ended.forEach(sessionEnded);
    },
  };
}

const linkUsed = () => errors.conflict('This reset link was already used; ask for a new one');

export type PasswordService = ReturnType<typeof createPasswordService>;
