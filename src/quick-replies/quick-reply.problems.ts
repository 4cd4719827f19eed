import { fieldProblems } from '../shared/field-problems.js';

/** Quick replies: what a shortcut or its answer can break (wordings, see field-problems.ts). */
export const quickReplyProblems = fieldProblems('quick_replies', {
  shortcut_format: 'may have up to 32 letters, digits, "-" or "_", and no spaces (e.g. "hours")',
  body_empty: 'is empty: write the answer it inserts',
  shortcut_taken: 'is taken: another quick reply uses /{{shortcut}}',
});
