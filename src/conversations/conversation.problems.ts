import { fieldProblems } from '../shared/field-problems.js';

/** Conversations through the API (wordings, see field-problems.ts). */
export const conversationProblems = fieldProblems('conversations', {
  required_for_action: 'is required for the {{action}} action',
  not_date_time: 'is not a date-time',
});
