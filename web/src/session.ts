import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** What a role may do beyond every user (src/accounts/roles.ts, the one table). */
export type Permission = 'manage_team' | 'manage_workspace' | 'manage_channel' | 'revoke_any_token';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'member';
  permissions: Permission[];
}

/** Whether the user's role grants a permission (the server checks it again). */
export const can = (user: SessionUser, permission: Permission): boolean => user.permissions.includes(permission);

/** What GET /api/dashboard/session answers. */
export interface SessionState {
  setup_needed: boolean;
  user: SessionUser | null;
  workspace: { id: string; name: string } | null;
  csrf_token: string | null;
}

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
  return { user: value.session.user, workspace: value.session.workspace, refresh: value.refresh };
}
