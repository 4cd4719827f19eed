import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { sessionUserOf, type Api } from '../http/types.js';
import { SESSION_COOKIE } from '../http/session-auth.js';
import type { AccountService, NewSession } from './account.service.js';
import { permissionsOf, RoleSchema } from '../access/roles.js';
import { AccountAnswer, IssuedInvite, OkAnswer, OpenInvite, TeamMember } from './account.schema.js';
import { DashboardSessionSchema, LanguageSchema, type DashboardSession } from './session.schema.js';
import { PARLEY_VERSION } from '../shared/version.js';

const Email = Type.String({ minLength: 3, maxLength: 254 });
const Password = Type.String({ minLength: 1, maxLength: 1024 });

/** The session cookie: HttpOnly, Secure and SameSite=Strict, under the __Host- prefix (no Domain, Path=/). */
function setSessionCookie(reply: FastifyReply, session: NewSession): void {
  reply.setCookie(SESSION_COOKIE, session.secret, {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    expires: session.expiresAt,
  });
}

/** Sign-in for the dashboard: first-run set-up, log in/out, the session, invitations, the team. */
export function registerAccountRoutes(app: Api, accounts: AccountService): void {
  app.get(
    '/api/dashboard/session',
    { config: { access: 'session-optional' }, schema: { response: { 200: DashboardSessionSchema } } },
    async (request): Promise<DashboardSession> => {
      const user = request.sessionUser;
      return {
        setup_needed: user ? false : await accounts.needsSetup(),
        user: user
          ? {
              id: user.userId,
              email: user.email,
              name: user.name,
              role: user.role,
              permissions: [...permissionsOf(user.role)],
              language: user.language,
            }
          : null,
        workspace: user ? { id: user.workspaceId, name: user.workspaceName, time_zone: user.workspaceTimeZone } : null,
        csrf_token: user?.csrfToken ?? null,
        email_enabled: accounts.emailEnabled,
        version: PARLEY_VERSION,
      };
    },
  );

  app.post(
    '/api/dashboard/setup',
    {
      config: { access: 'public', signInAttempt: true },
      schema: {
        body: Type.Object({
          workspace: Type.String({ maxLength: 200 }),
          email: Email,
          password: Password,
          name: Type.Optional(Type.String({ maxLength: 200, description: "The owner's name; their email if omitted" })),
        }),
        response: { 200: OkAnswer },
      },
    },
    async (request, reply) => {
      setSessionCookie(reply, await accounts.setupFirstWorkspace(request.body));
      return { ok: true };
    },
  );

  app.post(
    '/api/dashboard/login',
    {
      config: { access: 'public', signInAttempt: true },
      schema: { body: Type.Object({ email: Email, password: Password }), response: { 200: OkAnswer } },
    },
    async (request, reply) => {
      setSessionCookie(reply, await accounts.login(request.body.email, request.body.password));
      return { ok: true };
    },
  );

  app.post(
    '/api/dashboard/logout',
    { config: { access: 'session' }, schema: { response: { 200: OkAnswer } } },
    async (request, reply) => {
      const secret = request.cookies[SESSION_COOKIE];
      if (secret) await accounts.logout(secret);
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure: true, sameSite: 'strict' });
      return { ok: true };
    },
  );

  app.get(
    '/api/dashboard/invites/:token',
    {
      config: { access: 'public' },
      schema: { params: Type.Object({ token: Type.String({ maxLength: 100 }) }), response: { 200: OpenInvite } },
    },
    async (request) => {
      const invite = await accounts.openInvite(request.params.token);
      return { email: invite.email, role: invite.role, workspace: invite.workspace };
    },
  );

  app.post(
    '/api/dashboard/invites/accept',
    {
      config: { access: 'public', signInAttempt: true },
      schema: {
        body: Type.Object({
          token: Type.String({ maxLength: 100 }),
          name: Type.String({ maxLength: 200 }),
          password: Password,
        }),
        response: { 200: OkAnswer },
      },
    },
    async (request, reply) => {
      setSessionCookie(reply, await accounts.acceptInvite(request.body));
      return { ok: true };
    },
  );

  app.post(
    '/api/dashboard/invites',
    {
      config: { access: 'session', permission: 'manage_team', secretResponse: true },
      schema: { body: Type.Object({ email: Email, role: RoleSchema }), response: { 200: IssuedInvite } },
    },
    async (request) => accounts.invite(sessionUserOf(request), request.body),
  );

  // Everyone may name themselves and choose their language: no permission beyond being signed in.
  app.put(
    '/api/dashboard/account',
    {
      config: { access: 'session' },
      schema: {
        body: Type.Object({
          name: Type.Optional(Type.String({ maxLength: 200 })),
          language: Type.Optional(Type.Union([LanguageSchema, Type.Null()])),
        }),
        response: { 200: AccountAnswer },
      },
    },
    async (request) => accounts.updateAccount(sessionUserOf(request), request.body),
  );

  app.get(
    '/api/dashboard/team',
    { config: { access: 'session' }, schema: { response: { 200: Type.Array(TeamMember) } } },
    async (request) => accounts.team(sessionUserOf(request).workspaceId),
  );
}
