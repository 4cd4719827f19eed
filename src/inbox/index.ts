/**
 * src/inbox/'s front door: the shared inbox: conversations, their state, labels and live events. Other
 * folders import it only through here.
 */
export { type BulkAction, runBulk } from './bulk.js';
export { claimConversation, saveConversationStates } from './conversation-state.js';
export { createEventHub, type EventHub } from './event-hub.js';
export { createEventStreams } from './event-streams.js';
export { type ListQuery, PRIORITIES } from './inbox.repository.js';
export { registerInboxRoutes } from './inbox.routes.js';
export { BulkResult, LabelSchema } from './inbox.schema.js';
export { createInboxService, type InboxService, type Viewer } from './inbox.service.js';
export type { LabelService } from './labels.js';
