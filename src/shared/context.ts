/** Who is calling: every service call is scoped to one workspace. */
export interface Caller {
  workspaceId: string;
  /** The API token acting, or SESSION_TOKEN_PREFIX + user id for a dashboard session; absent for Parley's own work. */
  tokenId?: string;
  userId?: string;
  /**
   * Set when the caller is an approval-mode token: its sends to customers are held for a person's
   * approval for this long, instead of going out (decision 0160).
   */
  approval?: { timeoutSeconds: number } | null;
}

/** How a dashboard session's calls name their "token": its user's id after this prefix. */
export const SESSION_TOKEN_PREFIX = 'session:';
