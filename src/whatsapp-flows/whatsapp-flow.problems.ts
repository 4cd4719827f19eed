import { fieldProblems } from '../shared/field-problems.js';

/** WhatsApp Flows: what a field can break (wordings, see field-problems.ts). */
export const whatsappFlowProblems = fieldProblems('whatsapp_flows', {
  not_an_answer_field: '“{{name}}” is not a field of this Flow’s answers',
});
