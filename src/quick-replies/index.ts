/**
 * src/quick-replies/'s front door: the team's saved replies. Other folders import it only through here.
 */
export { registerQuickReplyRoutes } from './quick-reply.routes.js';
export { createQuickReplyService } from './quick-reply.service.js';
