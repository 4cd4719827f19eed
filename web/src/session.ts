import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { DashboardAnswer } from './api/client';

/** What GET /api/dashboard/session answers (its response schema, through docs/dashboard-openapi.yaml). */
export type SessionState = DashboardAnswer<'/api/dashboard/session'>;
export type SessionUser = NonNullable<SessionState['user']>;
/** What a role may do beyond every user (src/access/roles.ts, the one table). */
export type Permission = SessionUser['permissions'][number];

/** Whether the user's role grants a permission (the server checks it again). */
export const can = (user: SessionUser, permission: Permission): boolean => user.permissions.includes(permission);

export interface SessionContextValue {
  session: SessionState;
  /** Reads the session again (after logging in or out, or changing the workspace's name). */
  refresh: () => Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

/** The logged-in user and workspace; only used inside the signed-in shell. */
export function useSession() {
  const value = useContext(SessionContext);
  if (!value?.session.user || !value.session.workspace) throw new Error('useSession outside a session');
  const { user, workspace, version } = value.session;
  return { user, workspace, version, refresh: value.refresh };
}
