import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Contact } from './contact.schema.js';

export const EXPORT_COLUMNS = ['phone', 'name', 'email', 'tags', 'created_at', 'last_message_at', 'attributes'];

/** Cells a spreadsheet would read as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** An E.164 phone (`+` and digits only) is at worst read as a number, never as a formula. */
const PLAIN_PHONE = /^\+\d{1,15}$/;

/** A cell a spreadsheet shows as text: one that could start a formula gets a leading apostrophe. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_PHONE.test(value) ? `'${value}` : value;
}

function exportRecord(contact: Contact): string[] {
  const attributes = Object.keys(contact.custom_attributes).length > 0 ? JSON.stringify(contact.custom_attributes) : '';
  return [
    contact.phone,
    contact.name ?? '',
    contact.email ?? '',
    contact.tags.join(', '),
    contact.created_at,
    contact.last_message_at ?? '',
    attributes,
  ].map(neutraliseCell);
}

/**
 * The contacts as a CSV byte stream, written batch by batch as the database hands them over:
 * backpressure from the client pauses the reading, and only one batch is ever held.
 */
export function contactsCsv(batches: AsyncIterable<Contact[]>): Readable {
  async function* records() {
    for await (const batch of batches) for (const contact of batch) yield exportRecord(contact);
  }
  const csv = stringify({ header: true, columns: EXPORT_COLUMNS });
  const source = Readable.from(records());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
