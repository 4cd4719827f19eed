import { fieldProblems } from '../shared/field-problems.js';

/** A number's screen table for Parley's Flow answers: what a row can break (wordings, see field-problems.ts). */
export const flowsEndpointProblems = fieldProblems('flows_endpoint', {
  screen_repeated: 'answers {{screen}} again: one row per screen',
  opening_repeated: 'is the Flow opening again: one row opens the Flow',
});
