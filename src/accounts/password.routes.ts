import { Type } from '@sinclair/typebox';
import { sessionUserOf, type Api } from '../http/types.js';
import type { PasswordService } from './password.service.js';
import { EndedSessions, OkAnswer } from './account.schema.js';

const Password = Type.String({ minLength: 1, maxLength: 1024 });

/** The signed-in user's password change and sign-out elsewhere, and setting a new password through a reset link. */
export function registerPasswordRoutes(app: Api, passwords: PasswordService): void {
  app.post(
    '/api/dashboard/sessions/end-others',
    { config: { access: 'session' }, schema: { response: { 200: EndedSessions } } },
    async (request) => ({
      ended: await passwords.endOtherSessions(sessionUserOf(request)),
    }),
  );

  app.put(
    '/api/dashboard/password',
    {
      config: { access: 'session', signInAttempt: true },
      schema: {
        body: Type.Object({ current_password: Password, new_password: Password }),
        response: { 200: OkAnswer },
      },
    },
    async (request) => {
      const { current_password, new_password } = request.body;
      await passwords.change(sessionUserOf(request), { currentPassword: current_password, newPassword: new_password });
      return { ok: true };
    },
  );

  app.post(
    '/api/dashboard/password-reset/request',
    {
      config: { access: 'public', signInAttempt: true },
      schema: {
        body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) }),
        response: { 202: OkAnswer },
      },
    },
    async (request, reply) => {
      await passwords.emailReset(request.body.email);
      return reply.code(202).send({ ok: true });
    },
  );

  app.post(
    '/api/dashboard/password-reset',
    {
      config: { access: 'public', signInAttempt: true },
      schema: {
        body: Type.Object({ token: Type.String({ maxLength: 100 }), password: Password }),
        response: { 200: OkAnswer },
      },
    },
    async (request) => {
      await passwords.reset(request.body);
      return { ok: true };
    },
  );
}
