/** Who is calling: every service call is scoped to one workspace. */
export interface Caller {
  workspaceId: string;
  /** The API token acting, or SESSION_TOKEN_PREFIX + user id for a dashboard session; absent for Parley's own work. */
  tokenId?: string;
  userId?: string;
}

/** How a dashboard session's calls name their "token": its user's id after this prefix. */
export const SESSION_TOKEN_PREFIX = 'session:';
