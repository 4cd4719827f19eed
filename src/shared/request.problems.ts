import { fieldProblems } from './field-problems.js';

/** Requests: paging, the Idempotency-Key and text the database cannot store (wordings, see field-problems.ts). */
export const requestProblems = fieldProblems('requests', {
  only_with_cursor_paging: 'applies only with paginate=cursor',
  page_limit: 'must be an integer from 1 to {{max}}',
  idempotency_key_format: 'must be 1 to 255 visible ASCII characters',
  nul_character: 'must not contain the NUL character (U+0000)',
  lone_surrogate: 'must not contain a lone UTF-16 surrogate (an unpaired \\uD800–\\uDFFF escape)',
  name_nul_character: 'a property name must not contain the NUL character (U+0000)',
  name_lone_surrogate: 'a property name must not contain a lone UTF-16 surrogate (an unpaired \\uD800–\\uDFFF escape)',
  nests_too_deep: 'nests deeper than {{levels}} levels of objects and arrays',
});
