import { fieldProblems } from '../shared/field-problems.js';

/** Reports: their period, filters and message rates (wordings, see field-problems.ts). */
export const reportProblems = fieldProblems('reports', {
  currency_code: 'must be a currency code of three letters, such as USD or EUR',
  rate_range: 'must be a price from 0 to {{max}}',
  from_after_to: 'must be on or before the end date',
  period_too_long: 'must be at most {{max}} days before the end date',
  date_format: 'must be a date such as 2026-03-31',
  unknown_number: 'is not a number of this workspace',
  unknown_team: 'is not a team of this workspace',
  unknown_label: 'is not a label of this workspace',
});
