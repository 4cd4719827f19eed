/**
 * src/flows/'s front door: chatbot flows and their engine. Other folders import it only through here.
 */
export { createFlowWebhookClient } from './flow-webhook.js';
export { flowDefinitionProblems } from './flow.definition.js';
export { createFlowEngine } from './flow.engine.js';
export { registerFlowRoutes } from './flow.routes.js';
export { createFlowService, type FlowService } from './flow.service.js';
export type { FlowAssistant, FlowEngine } from './flow.engine.js';
