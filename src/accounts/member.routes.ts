import { Type } from '@sinclair/typebox';
import { sessionUserOf, type Api } from '../http/types.js';
import type { MemberService } from './member.service.js';
import { RoleSchema } from '../access/roles.js';
import { ChangedRole, PendingInvite, RemovedMember, RevokedInvite } from './account.schema.js';
import { Uuid } from '../http/responses.js';

const IdParams = Type.Object({ id: Uuid() });

/** Settings → Team for owners: remove a member, change a role, list and withdraw pending invitations. */
export function registerMemberRoutes(app: Api, members: MemberService): void {
  app.delete(
    '/api/dashboard/team/:id',
    {
      config: { access: 'session', permission: 'manage_team' },
      schema: { params: IdParams, response: { 200: RemovedMember } },
    },
    async (request) => members.remove(sessionUserOf(request), request.params.id),
  );

  app.put(
    '/api/dashboard/team/:id',
    {
      config: { access: 'session', permission: 'manage_team' },
      schema: { params: IdParams, body: Type.Object({ role: RoleSchema }), response: { 200: ChangedRole } },
    },
    async (request) => members.changeRole(sessionUserOf(request), request.params.id, request.body.role),
  );

  app.get(
    '/api/dashboard/invites',
    {
      config: { access: 'session', permission: 'manage_team' },
      schema: { response: { 200: Type.Array(PendingInvite) } },
    },
    async (request) => members.pendingInvites(sessionUserOf(request)),
  );

  app.delete(
    '/api/dashboard/invites/:id',
    {
      config: { access: 'session', permission: 'manage_team' },
      schema: { params: IdParams, response: { 200: RevokedInvite } },
    },
    async (request) => members.revokeInvite(sessionUserOf(request), request.params.id),
  );
}
