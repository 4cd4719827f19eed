import type { Readable } from 'node:stream';
import { csvStream, jsonCell } from '../http/csv.js';
import type { Contact } from './contact.schema.js';

export const EXPORT_COLUMNS = ['phone', 'name', 'email', 'tags', 'created_at', 'last_message_at', 'opted_out'];

/** An attribute's column: its key, or `attribute:KEY` when the key is also a contact field's column. */
export function attributeColumn(key: string): string {
  return EXPORT_COLUMNS.includes(key.toLowerCase()) || key.startsWith('attribute:') ? `attribute:${key}` : key;
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
    ...attributeKeys.map((key) => jsonCell(contact.custom_attributes[key])),
  ];
}

/**
 * The contacts as a CSV byte stream, written batch by batch as the database hands them over (only one
 * batch is ever held). Each custom attribute is a column of its own.
 */
export function contactsCsv(batches: AsyncIterable<Contact[]>, attributeKeys: string[]): Readable {
  async function* records() {
    for await (const batch of batches) for (const contact of batch) yield exportRecord(contact, attributeKeys);
  }
  return csvStream([...EXPORT_COLUMNS, ...attributeKeys.map(attributeColumn)], records());
}
