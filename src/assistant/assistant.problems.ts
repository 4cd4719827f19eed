import { fieldProblems } from '../shared/field-problems.js';

/** The AI assistant's settings: what their fields can break (wordings, see field-problems.ts). */
export const assistantProblems = fieldProblems('assistant', {
  unknown_channel: 'names a number that is not one of this workspace’s (see list-channels)',
  unknown_team: 'names a team that is not one of this workspace’s (see list-teams)',
  blank: 'is blank: write something people can read',
});
