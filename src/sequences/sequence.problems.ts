import { fieldProblems } from '../shared/field-problems.js';

/** Sequences: what a step names (wordings, see field-problems.ts). */
export const sequenceProblems = fieldProblems('sequences', {
  unknown_template: 'names no template of this workspace',
  unknown_flow: 'names no flow of this workspace',
});
