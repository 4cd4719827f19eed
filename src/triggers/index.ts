/**
 * src/triggers/'s front door: the trigger feeds integrations poll, and the records they return. Other
 * folders import it only through here.
 */
export { presentAnswer } from './trigger.presenter.js';
export { type AnswerFilter, triggerRepository } from './trigger.repository.js';
export { registerTriggerRoutes } from './trigger.routes.js';
export {
  type CampaignRecord,
  type FlowRecord,
  type MessageRecord,
  type SequenceRecord,
  type WhatsappFlowAnswerRecord,
  WhatsappFlowAnswerRecordSchema,
} from './trigger.schema.js';
export { createTriggerService } from './trigger.service.js';
