/**
 * src/outgoing/'s front door: outgoing webhooks: subscriptions, the event outbox and its delivery, and
 * the signed posts and address rules of every call Parley makes to a workspace's endpoint. Other
 * folders import it only through here.
 */
export { emit, emitConversationChanges, emitWebhookEvents } from './webhook.events.js';
export { inChunks, type EventSubject } from './webhook.records.js';
export { registerWebhookRoutes } from './webhook.routes.js';
export { CreateWebhookBody, ListDeliveriesBody } from './webhook.schema.js';
export { createWebhookService } from './webhook.service.js';
export { newSigningSecret } from './webhook.signature.js';
export { savedTargetProblem, targetProblem } from './webhook.target.js';
export { createWebhookWorker } from './webhook.worker.js';
export { postSigned, signedPostAgent, type SignedPost } from './signed-post.js';
