import { fieldProblems } from '../shared/field-problems.js';

/** Contacts, their CSV import and opt-out keywords: what a field can break (wordings, see field-problems.ts). */
export const contactProblems = fieldProblems('contacts', {
  phone_format: 'must be a valid international phone number, e.g. +14155550100',
  email_format: 'must be an email address',
  tag_name_too_long: 'tag names are at most {{max}} characters',
  contact_id_or_phone: 'give contact_id or phone',
  one_of_contact_id_phone_email: 'give exactly one of contact_id, phone, email',
  not_a_cursor: 'is not a cursor this endpoint handed out',
  not_a_country_code: 'is not a country code such as GB or IN',
  unknown_column_target: 'unknown column target "{{target}}"',
  column_target_twice: '"{{target}}" is mapped to two columns',
  no_phone_column: 'map one column to phone',
  no_columns: 'map the columns, or give the file a header row',
  malformed_csv: '{{reason}}',
  not_a_phone: 'is not a valid phone number',
  not_an_international_phone: 'is not a valid international phone number',
  name_too_long: 'is longer than {{max}} characters',
  not_yes_or_no: 'is not yes or no (true/false)',
  keyword_in_both_lists: 'must not repeat a stop keyword ("{{keyword}}")',
  keyword_without_letters: 'need a letter or a digit in each word ("{{word}}" has none)',
});
