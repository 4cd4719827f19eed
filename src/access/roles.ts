import { Type } from '@sinclair/typebox';
import { errors } from '../shared/errors.js';

/**
 * What each role may do beyond what every user of a workspace may (read contacts, tags and
 * templates; create API tokens for themselves and revoke their own; change their own name and
 * password). The one table every check reads — REST routes (`config.permission`), MCP tools (derived
 * from those routes), dashboard routes and live streams; the roles table in docs/dashboard.md mirrors it.
 * `member` is the role every teammate had before roles were split: all the work, none of the settings.
 */
/** The day-to-day work: the inbox, contacts, templates, campaigns, automation, reports. */
const WORK = ['conversations', 'contacts', 'templates', 'campaigns', 'automation', 'reports'] as const;
/** Running the workspace: everything but the owners themselves. */
const ADMINISTRATION = [
  ...WORK,
  'routing',
  'manage_team',
  'manage_workspace',
  'manage_channel',
  'revoke_any_token',
] as const;

const ROLE_PERMISSIONS = {
  owner: [...ADMINISTRATION, 'manage_owners'],
  admin: ADMINISTRATION,
  member: WORK,
  agent: ['conversations', 'contacts'],
  marketer: ['contacts', 'templates', 'campaigns', 'automation', 'reports'],
} as const satisfies Record<string, readonly string[]>;

export type Role = keyof typeof ROLE_PERMISSIONS;
export type Permission = (typeof ROLE_PERMISSIONS)['owner'][number];

/** The roles, in the order the dashboard offers them, as a request schema. */
export const RoleSchema = Type.Union((Object.keys(ROLE_PERMISSIONS) as Role[]).map((role) => Type.Literal(role)));

/** Every permission (an owner has them all), as a response schema. */
export const PermissionSchema = Type.Union(ROLE_PERMISSIONS.owner.map((permission) => Type.Literal(permission)));

/** Whether a role grants a permission. */
export function can(role: Role, permission: Permission): boolean {
  return (ROLE_PERMISSIONS[role] as readonly Permission[]).includes(permission);
}

/** Refuses (403 permission_denied) a caller whose role lacks the permission. */
export function requirePermission(user: { role: Role }, permission: Permission): void {
  if (!can(user.role, permission)) throw errors.permissionDenied(user.role, permission, rolesWith(permission));
}

/** A role's permissions, for the dashboard to show only what the user may do. */
export const permissionsOf = (role: Role): readonly Permission[] => ROLE_PERMISSIONS[role];

/** The roles that grant a permission (named in a refusal, so the caller knows whom to ask). */
export function rolesWith(permission: Permission): Role[] {
  return (Object.keys(ROLE_PERMISSIONS) as Role[]).filter((role) => can(role, permission));
}
