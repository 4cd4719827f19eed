import { Type } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../http/responses.js';
import { RoleSchema } from '../access/roles.js';
import { LanguageSchema } from './session.schema.js';

// What the dashboard's account, team and password endpoints answer (docs/dashboard-openapi.yaml).

/** A change that has nothing to show but that it happened. */
export const OkAnswer = Type.Object({ ok: Type.Boolean() });

/** An invitation as its link shows it, before it is accepted. */
export const OpenInvite = Type.Object({ email: Type.String(), role: RoleSchema, workspace: Type.String() });

/** A new invitation: its secret link's token is shown once. */
export const IssuedInvite = Type.Object({
  id: Uuid(),
  email: Type.String(),
  role: RoleSchema,
  token: Type.String(),
  expires_at: Timestamp(),
  emailed: Type.Boolean({ description: 'Whether it went out by email (the operator configured SMTP)' }),
  renewed: Type.Boolean({ description: 'An invitation to the same address was pending and was renewed' }),
});

export const PendingInvite = Type.Object({
  id: Uuid(),
  email: Type.String(),
  role: RoleSchema,
  created_at: Timestamp(),
  expires_at: Timestamp(),
});

export const AccountAnswer = Type.Object({
  name: Type.String(),
  language: Type.Union([LanguageSchema, Type.Null()]),
});

/** A member of the workspace (Settings → Team). */
export const TeamMember = Type.Object({
  id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  created_at: Timestamp(),
});

export const RemovedMember = Type.Object({ id: Uuid(), email: Type.String() });
export const ChangedRole = Type.Object({ id: Uuid(), role: RoleSchema });
export const RevokedInvite = Type.Object({ id: Uuid() });
export const EndedSessions = Type.Object({ ended: Type.Integer({ description: 'Other sessions signed out' }) });
