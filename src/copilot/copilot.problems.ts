import { fieldProblems } from '../shared/field-problems.js';

/** The copilot: what a request to it can break (wordings, see field-problems.ts). */
export const copilotProblems = fieldProblems('copilot', {
  draft_empty: 'is empty: write the draft to rewrite first',
});
