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
  currency_of_cards: 'must be {{currency}}, the currency of the workspace’s rate cards',
  currency_of_workspace: 'must be {{currency}}, the currency the workspace already prices in',
  card_date_taken: 'already has a rate card; delete it first to import another',
  card_header: 'has no header row with a Market column and a category column (Marketing, Utility…)',
  card_empty: 'has no markets',
  card_market: 'row {{row}}: “{{market}}” is not a market of Meta’s rate card',
  card_market_twice: 'row {{row}}: {{market}} appears twice',
  card_currency_varies: 'row {{row}}: the Currency differs from the rows above',
  unknown_market: 'is not a market of Meta’s rate card',
  card_price: 'row {{row}}, column {{column}}: “{{value}}” is not a price',
});
