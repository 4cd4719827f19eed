import { Type, type Static } from '@sinclair/typebox';
import { DASHBOARD_LANGUAGES } from '../shared/languages.js';
import { PermissionSchema, RoleSchema } from '../access/roles.js';

/** One of the dashboard's languages (src/shared/languages.ts). */
export const LanguageSchema = Type.Union(DASHBOARD_LANGUAGES.map((code) => Type.Literal(code)));

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
      language: Type.Union([LanguageSchema, Type.Null()], {
        description: 'The dashboard language they chose; null: their browser’s',
      }),
    }),
    Type.Null(),
  ]),
  workspace: Type.Union([
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      time_zone: Type.String({ description: 'The dashboard shows times in this IANA time zone' }),
    }),
    Type.Null(),
  ]),
  csrf_token: Type.Union([Type.String(), Type.Null()]),
  email_enabled: Type.Boolean({
    description: 'The operator configured SMTP: invitations, reset links and notifications are emailed',
  }),
  version: Type.String({ description: 'This Parley release (package.json), shown in the dashboard’s footer' }),
});

export type DashboardSession = Static<typeof DashboardSessionSchema>;
