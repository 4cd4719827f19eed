/**
 * src/whatsapp-flows/'s front door: WhatsApp Flows, Meta's forms (not Parley's chatbot flows of
 * src/flows/). Other folders import it only through here.
 */
export { registerWhatsappFlowRoutes } from './whatsapp-flow.routes.js';
export { createWhatsappFlowService, type WhatsappFlowService } from './whatsapp-flow.service.js';
export { createWhatsappFlowAlerts, type WhatsappFlowAlerts } from './whatsapp-flow.alerts.js';
export { whatsappFlowMessages } from './whatsapp-flow.message.js';
export { registerWhatsappFlowAnswerRoutes } from './whatsapp-flow-answer.routes.js';
export { createWhatsappFlowAnswers, type WhatsappFlowAnswers } from './whatsapp-flow-answers.js';
