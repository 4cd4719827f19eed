import { Type } from '@sinclair/typebox';
import { errors } from '../shared/errors.js';

/**
 * What each role may do beyond what every user of a workspace may (use the inbox, contacts,
 * templates, automation and the API; create API tokens for themselves and revoke their own;
 * change their own password). The one table every check reads; the roles table in docs/dashboard.md
 * mirrors it.
 */
const ROLE_PERMISSIONS = {
  owner: ['manage_team', 'manage_workspace', 'manage_channel', 'revoke_any_token'],
  member: [],
} as const satisfies Record<string, readonly string[]>;

export type Role = keyof typeof ROLE_PERMISSIONS;
export type Permission = (typeof ROLE_PERMISSIONS)[Role][number];

/** The roles, in the order the dashboard offers them, as a request schema. */
export const RoleSchema = Type.Union((Object.keys(ROLE_PERMISSIONS) as Role[]).map((role) => Type.Literal(role)));

/** Every permission (an owner has them all), as a response schema. */
export const PermissionSchema = Type.Union(ROLE_PERMISSIONS.owner.map((permission) => Type.Literal(permission)));

/** Whether a role grants a permission. */
export function can(role: Role, permission: Permission): boolean {
  return (ROLE_PERMISSIONS[role] as readonly Permission[]).includes(permission);
}

/** Refuses (403 owner_only) a user whose role lacks the permission. */
export function requirePermission(user: { role: Role }, permission: Permission): void {
  if (!can(user.role, permission)) throw errors.ownerOnly();
}

/** A role's permissions, for the dashboard to show only what the user may do. */
export const permissionsOf = (role: Role): readonly Permission[] => ROLE_PERMISSIONS[role];
