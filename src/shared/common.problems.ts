import { fieldProblems } from './field-problems.js';

/** Problems many domains share (wordings, see field-problems.ts). */
export const commonProblems = fieldProblems('common', {
  required: 'is required',
  must_not_be_empty: 'must not be empty',
});
