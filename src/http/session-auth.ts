import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Principal, SessionUser } from '../access/principal.js';
import { errors } from '../shared/errors.js';
import { SESSION_TOKEN_PREFIX } from '../shared/context.js';

/** `__Host-`: the browser keeps it only if Secure, Path=/ and without Domain (no subdomain can set it). */
export const SESSION_COOKIE = '__Host-parley_session';
/** Requests per minute per dashboard user: a person typing into search sends many small ones. */
export const SESSION_LIMIT_PER_MINUTE = 1_200;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who a session's secret belongs to, if anyone: the account service answers it. */
export interface SessionAuthenticator {
  authenticate(sessionSecret: string): Promise<SessionUser | null>;
}

/** The dashboard user a request's session cookie belongs to, or null (no cookie, unknown or expired). */
export async function sessionUserOf(
  request: FastifyRequest,
  accounts: SessionAuthenticator,
): Promise<SessionUser | null> {
  const secret = request.cookies[SESSION_COOKIE];
  return secret ? accounts.authenticate(secret) : null;
}

/**
 * A change made with a session must carry the session's CSRF token (which another site cannot
 * read) in X-CSRF-Token: SameSite=Strict already keeps the cookie off cross-site requests, and
 * this holds even where it does not.
 */
export function requireCsrfToken(request: FastifyRequest, user: SessionUser): void {
  if (SAFE_METHODS.has(request.method)) return;
  const sent = Buffer.from(String(request.headers['x-csrf-token'] ?? ''));
  const expected = Buffer.from(user.csrfToken);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) throw errors.csrfTokenInvalid();
}

/**
 * A browser's change from another origin (login CSRF, for instance) is refused before it runs; so is
 * one from an opaque origin (`Origin: null`: a sandboxed frame, a data: or file: page) or with an
 * Origin no browser sends, since neither can be this server's own.
 */
export function requireSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (SAFE_METHODS.has(request.method) || !origin) return;
  if (originHost(origin) !== request.headers.host) throw errors.csrfTokenInvalid();
}

/** The host (and port) an Origin header names, or null when it names none (`null`, unparseable). */
function originHost(origin: string): string | null {
  return URL.canParse(origin) ? new URL(origin).host : null;
}

/** A session acts with full access in its workspace, like a full-scope token of its user. */
export function sessionPrincipal(user: SessionUser): Principal {
  return {
    tokenId: `${SESSION_TOKEN_PREFIX}${user.userId}`,
    userId: user.userId,
    workspaceId: user.workspaceId,
    role: user.role,
    scope: 'full',
    approval: null,
    pollIntervalSeconds: 0,
    rateLimitPerMinute: SESSION_LIMIT_PER_MINUTE,
  };
}
