import { fieldProblems } from '../shared/field-problems.js';

/** Tags: what a field can break (wordings, see field-problems.ts). */
export const tagProblems = fieldProblems('tags', {
  tag_name_taken: 'is the name of another tag',
});
