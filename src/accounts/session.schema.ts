import { Type, type Static } from '@sinclair/typebox';
import { PermissionSchema, RoleSchema } from './roles.js';

/** What GET /api/dashboard/session answers: the dashboard's type for it (web/src/session.ts) is this one. */
export const DashboardSessionSchema = Type.Object({
  setup_needed: Type.Boolean(),
  user: Type.Union([
    Type.Object({
      id: Type.String(),
      email: Type.String(),
      name: Type.String(),
      role: RoleSchema,
      permissions: Type.Array(PermissionSchema),
    }),
    Type.Null(),
  ]),
  workspace: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  csrf_token: Type.Union([Type.String(), Type.Null()]),
  email_enabled: Type.Boolean({
    description: 'The operator configured SMTP: invitations, reset links and notifications are emailed',
  }),
  version: Type.String({ description: 'This Parley release (package.json), shown in the dashboard’s footer' }),
});

export type DashboardSession = Static<typeof DashboardSessionSchema>;
