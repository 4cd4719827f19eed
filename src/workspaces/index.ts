/**
 * src/workspaces/'s front door: workspaces, their settings and API tokens. Other folders import it only
 * through here.
 */
export { registerMeRoutes } from './me.routes.js';
export { requirePasswordRule } from './password-rule.js';
export { hashPassword, verifyPassword } from './password.js';
export { registerSettingsRoutes } from './settings.routes.js';
export { createTokenService } from './token.service.js';
export { createWorkspaceService, type WorkspaceService } from './workspace.service.js';
