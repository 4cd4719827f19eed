/**
 * src/groups/'s front door: WhatsApp groups (Meta's Groups API) and their conversations. Other folders
 * import it only through here.
 */
export { registerGroupRoutes } from './group.routes.js';
export { createGroupService, type GroupService } from './group.service.js';
