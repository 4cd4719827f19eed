import { fieldProblems } from '../shared/field-problems.js';

/** A workspace's set-up, settings, API tokens and the password rule (wordings, see field-problems.ts). */
export const workspaceProblems = fieldProblems('workspaces', {
  email_address: 'must be an email address',
  poll_interval_range: 'must be an integer from 0 (no limit) to 86400',
  rate_limit_range: 'must be an integer from 1 to 10000000',
  time_zone: 'must be an IANA time zone such as Europe/Berlin',
  media_retention_range: 'must be a whole number of days from 1 to {{max}}, or null (forever)',
  token_name_length: 'must be 1 to 100 characters',
  approval_timeout_range: 'must be a whole number of minutes from 1 to {{max}}',
  approval_timeout_without_approval: 'goes only with mode "approval"',
  password_too_short: 'must be at least {{min}} characters',
  password_too_common: 'is too common or predictable; try a few unrelated words',
});
