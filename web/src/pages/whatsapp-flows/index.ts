import { addEnglish } from '../../i18n/i18n';
import whatsappFlows from '../../locales/en/whatsapp-flows.json';

// The group's words come with it (before any of its pages renders).
addEnglish({ 'whatsapp-flows': whatsappFlows });

export { WhatsappFlowsList } from './flows-list';
export { WhatsappFlowNew } from './flow-new';
export { WhatsappFlowPage } from './flow-page';
