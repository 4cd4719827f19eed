import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import type { Principal } from '../access/principal.js';
import {
  requireCsrfToken,
  requireSameOrigin,
  SESSION_COOKIE,
  sessionPrincipal,
  sessionUserOf,
  type SessionAuthenticator,
} from './session-auth.js';
import { isFollowUpPage } from './pagination.js';
import { clientNetwork } from './client-address.js';
import { ReconciledWindowLimiter, SharedWindowLimiter, type RateDecision } from './rate-limit.js';
import { scopeAllows, type Access, type Api } from './types.js';
import { requirePermission } from '../access/roles.js';

const MINUTE_MS = 60_000;
/** Requests per minute per client address while no valid token is presented (slows token guessing). */
const ANONYMOUS_LIMIT_PER_MINUTE = 120;
/** Failed sign-in attempts per client address (an IPv6 /64) and window, across every email (password spraying). */
const SIGN_IN_FAILURES_PER_ADDRESS = 20;
const SIGN_IN_WINDOW_MS = 10 * MINUTE_MS;

/** Who an API token belongs to, as a principal; refuses (401) an unknown or revoked one: the token service. */
export interface TokenAuthenticator {
  authenticate(token: string): Promise<Principal>;
}

/**
 * Authentication, scopes and rate limits for every API route. A route's `config.access` says who
 * may call it; `config.poll` marks trigger feeds, which are limited to one call per workspace
 * interval per token (0 = no interval: the "raised rate limit" for trusted pollers, whose polls then
 * count like any other request); everything else, follow-up pages of a feed included, shares the
 * per-token request budget. The whole deployment shares every limit: per-minute budgets are counted
 * locally and reconciled through the database (ReconciledWindowLimiter states the precision); poll
 * intervals and sign-in attempts (`config.signInAttempt`, per client address), rare and strict, are
 * counted exactly in the database.
 */
export function registerAuth(
  app: Api,
  deps: { tokens: TokenAuthenticator; accounts: SessionAuthenticator } & Pick<Deps, 'db' | 'clock' | 'health'>,
): void {
  // Hits counted while the database is away stay unsynced and are added at the first reconciliation after.
  const limiter = new ReconciledWindowLimiter(deps, (error) => {
    if (!deps.health.failed(error)) app.log.error({ err: error }, 'rate limit reconciliation failed');
  });
  app.addHook('onClose', () => limiter.stop());
  const exactLimiter = new SharedWindowLimiter(deps);
  const signInKey = (request: FastifyRequest) => `sign-in:${clientNetwork(request.ip)}`;

  /**
   * The dashboard's requests: its own routes, and API routes called with the session cookie and
   * no Authorization header. A session acts as a full-access token of its user, and every change
   * must carry the session's CSRF token.
   */
  async function authenticateSession(request: FastifyRequest, reply: FastifyReply, access: Access): Promise<void> {
    requireSameOrigin(request);
    const user = await sessionUserOf(request, deps.accounts);
    if (!user) {
      if (access === 'session-optional') return;
      enforce(reply, limiter.hit(`anon:${request.ip}`, ANONYMOUS_LIMIT_PER_MINUTE, MINUTE_MS));
      throw errors.unauthorized('Log in to the dashboard (the session has ended or expired)');
    }
    requireCsrfToken(request, user);
    request.sessionUser = user;
    request.principal = sessionPrincipal(user);
    enforce(reply, limiter.hit(`session:${user.userId}`, request.principal.rateLimitPerMinute, MINUTE_MS));
  }

  app.addHook('onRequest', async (request, reply) => {
    await authorise(request, reply);
    // Counted before the handler, so parallel attempts cannot all slip in; given back on success below.
    if (request.routeOptions.config.signInAttempt) {
      enforce(reply, await exactLimiter.hit(signInKey(request), SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_MS));
    }
  });

  // Before the answer leaves, so the client's next attempt already sees the hit given back.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config.signInAttempt && reply.statusCode < 400) {
      await exactLimiter.refund(signInKey(request));
    }
    return payload;
  });

  async function authorise(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await authenticate(request, reply);
    const permission = request.routeOptions.config.permission;
    if (permission && request.principal) requirePermission(request.principal, permission);
  }

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const access = request.routeOptions.config.access ?? defaultAccess(request.routeOptions.url);
    if (access === 'public') {
      if (request.url.startsWith('/api/dashboard/')) requireSameOrigin(request);
      return;
    }
    const viaSession = request.cookies[SESSION_COOKIE] !== undefined && !request.headers.authorization;
    if (access === 'session' || access === 'session-optional' || viaSession) {
      return authenticateSession(request, reply, access);
    }
    const token = bearerToken(request);
    try {
      request.principal = await deps.tokens.authenticate(token ?? '');
    } catch (error) {
      enforce(reply, limiter.hit(`anon:${request.ip}`, ANONYMOUS_LIMIT_PER_MINUTE, MINUTE_MS));
      if (token === null) throw errors.unauthorized('Send the API token as "Authorization: Bearer <token>"');
      throw error;
    }
    // Counted before the scope check, so refused writes carry the limit headers and use the budget too.
    if (!isPoll(request) || request.principal.pollIntervalSeconds === 0) {
      const { tokenId, rateLimitPerMinute } = request.principal;
      enforce(reply, limiter.hit(`token:${tokenId}`, rateLimitPerMinute, MINUTE_MS));
    }
    if (!scopeAllows(request.principal.scope, access)) {
      throw errors.insufficientScope('This token is read-only; this action needs a token with full access');
    }
  }

  // Polls are counted after validation, so a malformed poll does not use up the interval.
  app.addHook('preHandler', async (request, reply) => {
    const feed = request.routeOptions.config.poll;
    if (!feed || !isPoll(request) || !request.principal || request.principal.pollIntervalSeconds === 0) return;
    const { tokenId, pollIntervalSeconds } = request.principal;
    const decision = await exactLimiter.hit(`poll:${tokenId}:${feed}`, 1, pollIntervalSeconds * 1000);
    setLimitHeaders(reply, decision);
    if (!decision.allowed) throw errors.pollTooFrequent(pollIntervalSeconds, decision.resetSeconds);
  });
}

/** A call of a trigger feed that counts as a poll: any but a follow-up page (see isFollowUpPage). */
function isPoll(request: FastifyRequest): boolean {
  return Boolean(request.routeOptions.config.poll) && !isFollowUpPage(request);
}

/** Routes under the API prefixes need a token unless they say otherwise (deny by default). */
function defaultAccess(url: string | undefined): Access {
  return url?.startsWith('/api/v1/') || url?.startsWith('/api/zapier/') ? 'read' : 'public';
}

function enforce(reply: FastifyReply, decision: RateDecision): void {
  setLimitHeaders(reply, decision);
  if (!decision.allowed) throw errors.rateLimited(decision.resetSeconds);
}

function setLimitHeaders(reply: FastifyReply, decision: RateDecision): void {
  void reply.headers({
    'x-ratelimit-limit': decision.limit,
    'x-ratelimit-remaining': decision.remaining,
    'x-ratelimit-reset': decision.resetSeconds,
  });
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}
