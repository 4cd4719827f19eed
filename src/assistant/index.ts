/**
 * src/assistant/'s front door: the AI assistant on conversations (its settings, its turns, the job that
 * answers customers). Other folders import it only through here.
 */
export type { Decided } from './assistant.decide.js';
export type { AssistantKnowledge, AssistantModel } from './assistant.ports.js';
export { registerAssistantRoutes } from './assistant.routes.js';
export { createAssistantService, type AssistantService } from './assistant.service.js';
