import { requirePermission } from '../access/roles.js';
import { GenerationCache } from '../db/deployment-generation.js';
import { precompile } from '../db/precompile.js';
import type { Deps } from '../db/deps.js';
import type { Principal, SessionUser, TokenScope } from '../access/principal.js';
import type { TokenMode } from '../db/schema.js';
import { errors } from '../shared/errors.js';
import { hashOfSecret, newSecretToken } from '../shared/secret-token.js';
import { toStoredTimestamp } from '../shared/time.js';
import { workspaceProblems } from './workspace.problems.js';

/** A dashboard user revoking a token. */
type TokenRevoker = Pick<SessionUser, 'workspaceId' | 'userId' | 'role'>;

export interface IssuedToken {
  id: string;
  name: string;
  scope: TokenScope;
  mode: TokenMode;
  /** An approval token's: how long its held sends wait; null for a direct token. */
  approval_timeout_minutes: number | null;
  prefix: string;
  /** The secret; shown once, never stored. */
  token: string;
  created_at: string;
}

const TOKEN_PREFIX = 'parley_';
const TOKEN_PATTERN = /^parley_[A-Za-z0-9_-]{43}$/;
/** How long an approval token's held sends wait unless its creator says: an hour. Seven days at most. */
export const APPROVAL_TIMEOUT_DEFAULT_MINUTES = 60;
export const APPROVAL_TIMEOUT_MAX_MINUTES = 7 * 24 * 60;
/** last_used_at is written at most this often per token, so reads do not turn into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Every API request whose token is not cached runs this lookup, so it is compiled once. */
const selectToken = precompile((db, tokenHash: string) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('workspaces', 'workspaces.id', 'api_tokens.workspace_id')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'users.role',
      'api_tokens.id',
      'api_tokens.user_id',
      'api_tokens.workspace_id',
      'api_tokens.scope',
      'api_tokens.mode',
      'api_tokens.approval_timeout_seconds',
      'api_tokens.revoked_at',
      'api_tokens.last_used_at',
      'workspaces.poll_interval_seconds',
      'workspaces.rate_limit_per_minute',
    ])
    .where('api_tokens.token_hash', '=', tokenHash),
);

/**
 * API tokens: 256 random bits behind a recognisable `parley_` prefix (secret scanners can spot it),
 * stored only as a SHA-256 hash — a slow hash adds nothing for secrets of this entropy.
 */
export function createTokenService({ db, clock, newId }: Deps) {
  // By hash (never the secret); a revocation, or a change of the creator's role, anywhere bumps the
  // deployment generation, which empties it.
  const tokens = new GenerationCache(db, async (tokenHash) => (await selectToken(db, tokenHash))[0] ?? null);

  return {
    /** Mints a token for a user of the workspace. */
    async create(input: {
      workspaceId: string;
      userId: string;
      name: string;
      scope?: TokenScope;
      mode?: TokenMode;
      approvalTimeoutMinutes?: number;
    }): Promise<IssuedToken> {
      const name = input.name.trim();
      if (!name || name.length > 100) throw errors.invalid(workspaceProblems.problem('name', 'token_name_length'));
      const mode = input.mode ?? 'direct';
      const timeoutMinutes = approvalTimeout(mode, input.approvalTimeoutMinutes);
      const token = TOKEN_PREFIX + newSecretToken();
      const record = {
        id: newId(),
        workspace_id: input.workspaceId,
        user_id: input.userId,
        name,
        token_prefix: token.slice(0, TOKEN_PREFIX.length + 6),
        token_hash: hashOfSecret(token),
        scope: input.scope ?? 'full',
        mode,
        approval_timeout_seconds: timeoutMinutes === null ? null : timeoutMinutes * 60,
        created_at: toStoredTimestamp(clock.now()),
      };
      await db.insertInto('api_tokens').values(record).execute();
      return {
        id: record.id,
        name,
        scope: record.scope,
        mode,
        approval_timeout_minutes: timeoutMinutes,
        prefix: record.token_prefix,
        token,
        created_at: record.created_at,
      };
    },

    /** The workspace's tokens, newest first, with who created each (never the secret). */
    list: (workspaceId: string) =>
      db
        .selectFrom('api_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select(['t.id', 't.name', 't.token_prefix as prefix', 't.scope', 't.mode', 'u.email as created_by'])
        .select((eb) => eb('t.approval_timeout_seconds', '/', 60).as('approval_timeout_minutes'))
        .select(['t.created_at', 't.last_used_at', 't.revoked_at'])
        .where('t.workspace_id', '=', workspaceId)
        .orderBy('t.created_at', 'desc')
        .orderBy('t.id', 'desc')
        .execute(),

    /**
     * Revokes a token by id; a dashboard user (`by`) only within their workspace, and another
     * user's token only if their role may. Revoking twice is harmless.
     */
    async revoke(tokenId: string, by?: TokenRevoker): Promise<{ id: string; revoked_at: string }> {
      let query = db.selectFrom('api_tokens').select(['id', 'user_id', 'revoked_at']).where('id', '=', tokenId);
      if (by) query = query.where('workspace_id', '=', by.workspaceId);
      const existing = await query.executeTakeFirst();
      if (!existing) throw errors.notFound('token', 'id');
      if (by && existing.user_id !== by.userId) requirePermission(by, 'revoke_any_token');
      const revokedAt = existing.revoked_at ?? toStoredTimestamp(clock.now());
      await db.updateTable('api_tokens').set({ revoked_at: revokedAt }).where('id', '=', tokenId).execute();
      return { id: tokenId, revoked_at: revokedAt };
    },

    /** Resolves a bearer token to its principal, or throws unauthorized. */
    async authenticate(token: string): Promise<Principal> {
      if (!TOKEN_PATTERN.test(token)) throw errors.unauthorized('The bearer token is malformed');
      const row = await tokens.get(hashOfSecret(token));
      // One answer for both: it does not confirm that a leaked token was ever real.
      if (!row || row.revoked_at) throw errors.unauthorized('The bearer token is not known or has been revoked');
      await touch(row);
      return {
        tokenId: row.id,
        userId: row.user_id,
        workspaceId: row.workspace_id,
        role: row.role,
        scope: row.scope,
        approval:
          row.mode === 'approval'
            ? { timeoutSeconds: row.approval_timeout_seconds ?? APPROVAL_TIMEOUT_DEFAULT_MINUTES * 60 }
            : null,
        pollIntervalSeconds: row.poll_interval_seconds,
        rateLimitPerMinute: row.rate_limit_per_minute,
      };
    },
  };

  /** Records the use on the token's row and on its cached copy, which decides when to record again. */
  async function touch(row: { id: string; last_used_at: string | null }): Promise<void> {
    const now = clock.now();
    if (row.last_used_at && now.getTime() - new Date(row.last_used_at).getTime() < LAST_USED_RESOLUTION_MS) return;
    row.last_used_at = toStoredTimestamp(now);
    await db.updateTable('api_tokens').set({ last_used_at: row.last_used_at }).where('id', '=', row.id).execute();
  }
}

/** An approval token's wait in minutes (the default when not given); a direct token has none. */
function approvalTimeout(mode: TokenMode, minutes: number | undefined): number | null {
  if (mode === 'direct') {
    if (minutes === undefined) return null;
    throw errors.invalid(workspaceProblems.problem('approval_timeout_minutes', 'approval_timeout_without_approval'));
  }
  const timeout = minutes ?? APPROVAL_TIMEOUT_DEFAULT_MINUTES;
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > APPROVAL_TIMEOUT_MAX_MINUTES) {
    const max = APPROVAL_TIMEOUT_MAX_MINUTES;
    throw errors.invalid(workspaceProblems.problem('approval_timeout_minutes', 'approval_timeout_range', { max }));
  }
  return timeout;
}

export type TokenService = ReturnType<typeof createTokenService>;
