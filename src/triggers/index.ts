/**
 * src/triggers/'s front door: the trigger feeds integrations poll, and the records they return. Other
 * folders import it only through here.
 */
export { triggerRepository } from './trigger.repository.js';
export { registerTriggerRoutes } from './trigger.routes.js';
export type { CampaignRecord, FlowRecord, MessageRecord, SequenceRecord } from './trigger.schema.js';
export { createTriggerService } from './trigger.service.js';
