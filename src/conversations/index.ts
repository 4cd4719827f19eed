/**
 * src/conversations/'s front door: conversations in the public API. Other folders import it only through
 * here.
 */
export { registerConversationRoutes } from './conversation.routes.js';
export { createConversationApi } from './conversation.service.js';
