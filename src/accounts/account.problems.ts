import { fieldProblems } from '../shared/field-problems.js';

/** People's accounts: invitations, their own name and password (wordings, see field-problems.ts). */
export const accountProblems = fieldProblems('accounts', {
  already_member: 'is already a member of this workspace',
  has_account: 'already has a Parley account, so it cannot be invited',
  being_invited: 'is being invited by someone else right now',
  not_current_password: 'is not your current password',
});
