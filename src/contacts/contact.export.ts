import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Contact } from './contact.schema.js';
import { neutraliseCell } from '../shared/csv-cell.js';

export const EXPORT_COLUMNS = ['phone', 'name', 'email', 'tags', 'created_at', 'last_message_at', 'opted_out'];

/** An attribute's column: its key, or `attribute:KEY` when the key is also a contact field's column. */
export function attributeColumn(key: string): string {
  return EXPORT_COLUMNS.includes(key.toLowerCase()) || key.startsWith('attribute:') ? `attribute:${key}` : key;
}

/** An attribute's cell: text as it is, any other JSON value (number, list…) as JSON. */
function attributeCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function exportRecord(contact: Contact, attributeKeys: string[]): string[] {
  return [
    contact.phone,
    contact.name ?? '',
    contact.email ?? '',
    contact.tags.join(', '),
    contact.created_at,
    contact.last_message_at ?? '',
    String(contact.opted_out),
    ...attributeKeys.map((key) => attributeCell(contact.custom_attributes[key])),
  ].map(neutraliseCell);
}

/**
 * The contacts as a CSV byte stream, written batch by batch as the database hands them over:
 * backpressure from the client pauses the reading, and only one batch is ever held. Each custom
 * attribute is a column of its own; the file starts with a UTF-8 byte order mark, without which
 * Excel reads the file as the system's legacy code page and garbles every non-ASCII name.
 */
export function contactsCsv(batches: AsyncIterable<Contact[]>, attributeKeys: string[]): Readable {
  async function* records() {
    for await (const batch of batches) for (const contact of batch) yield exportRecord(contact, attributeKeys);
  }
  // A cell holding `;` is quoted too: read with `;` as the separator, the part of the line before it
  // then ends inside an open quote, so the phone that starts the line cannot start a formula there.
  const columns = [...EXPORT_COLUMNS, ...attributeKeys.map(attributeColumn)].map(neutraliseCell);
  const csv = stringify({ bom: true, header: true, columns, quoted_match: ';' });
  const source = Readable.from(records());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
