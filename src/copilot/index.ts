/**
 * src/copilot/'s front door: the copilot in the inbox's composer (a suggested reply from the knowledge,
 * a summary of the thread, a rewrite of the agent's draft). Other folders import it only through here.
 */
export { registerCopilotRoutes } from './copilot.routes.js';
export { type CopilotKnowledge, type CopilotService, createCopilotService } from './copilot.service.js';
