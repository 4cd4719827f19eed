import type { DashboardLanguage } from '../shared/languages.js';
import type { Role } from './roles.js';

/** Who a dashboard session belongs to. */
export interface SessionUser {
  /** The session's id: the hash of its cookie's secret (only the hash is stored). */
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  workspaceId: string;
  workspaceName: string;
  /** Where the workspace is: the dashboard shows times in it. */
  workspaceTimeZone: string;
  /** The dashboard language they chose; null: their browser's. */
  language: DashboardLanguage | null;
  csrfToken: string;
  rateLimitPerMinute: number;
}

/** `full` may do everything; `read` is refused (403) on every action that writes or sends. */
export type TokenScope = 'full' | 'read';

/**
 * An approval-mode token's sends to customers wait for a person to approve them (decision 0160): how
 * long one waits before it expires.
 */
export interface SendApproval {
  timeoutSeconds: number;
}

/** What an authenticated request knows about its caller. */
export interface Principal {
  tokenId: string;
  userId: string;
  workspaceId: string;
  /** The role the caller acts with: the session's user's, or the token creator's as it is now. */
  role: Role;
  scope: TokenScope;
  /** Set for an approval-mode token: its sends are held for a person; null for every other caller. */
  approval: SendApproval | null;
  pollIntervalSeconds: number;
  rateLimitPerMinute: number;
}
