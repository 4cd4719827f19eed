import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../shared/errors.js';
import type { Principal, SessionUser, TokenScope } from '../access/principal.js';
import type { Permission } from '../access/roles.js';

/**
 * How a route may be called: `public` needs no token, `read` accepts any token, `write`
 * (anything that writes or sends) refuses read-only tokens. A dashboard session may call `read`
 * and `write` routes too; `session` routes (the dashboard's own) take only a session, and
 * `session-optional` ones read it when there is one.
 */
export type Access = 'public' | 'read' | 'write' | 'session' | 'session-optional';

/**
 * Whether a token of `scope` may call a route of `access`: a read-only token is refused every route that
 * writes or sends. The one rule the API enforces (auth.ts) and MCP offers tools by.
 */
export const scopeAllows = (scope: TokenScope, access: Access): boolean => !(access === 'write' && scope === 'read');

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The dashboard user, when the request came with a session cookie. */
    sessionUser: SessionUser | null;
    idempotencyKey: string | null;
  }
  interface FastifyContextConfig {
    access?: Access;
    /**
     * What the caller's role must grant (src/access/roles.ts), checked once the caller is known,
     * for a session and for a token alike: a token acts with its creator's current role.
     */
    permission?: Permission;
    /** A polling trigger's name: each is limited to one call per workspace interval per token. */
    poll?: string;
    /**
     * The success response carries a secret (a new token, a signing secret, an invitation): an
     * Idempotency-Key retry answers 409 `idempotency_secret_withheld` instead of storing it.
     */
    secretResponse?: boolean;
    /**
     * A sign-in attempt (log in, first-run set-up, accepting an invitation, resetting a password):
     * each failure counts against the per-client-address limit on password guessing.
     */
    signInAttempt?: boolean;
  }
}

/** The Fastify instance routes are registered on, typed by TypeBox schemas. */
export type Api = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The authenticated caller of a route whose access is not public. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw errors.unauthorized('This endpoint needs a bearer token');
  return request.principal;
}

/** The dashboard user of a `session` route. */
export function sessionUserOf(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw errors.unauthorized('Log in to the dashboard first');
  return request.sessionUser;
}
