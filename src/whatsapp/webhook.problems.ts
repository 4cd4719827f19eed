import { fieldProblems } from '../shared/field-problems.js';

/** Meta's webhook deliveries to Parley (wordings, see field-problems.ts). */
export const webhookInProblems = fieldProblems('webhooks_in', {
  not_whatsapp_account: 'must be whatsapp_business_account',
});
