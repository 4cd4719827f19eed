/**
 * src/workspace-events/'s front door: the workspace's event log (the channel's account events). Other
 * folders import it only through here.
 */
export { registerWorkspaceEventRoutes } from './event.routes.js';
export { createWorkspaceEventService, type WorkspaceEventService } from './event.service.js';
