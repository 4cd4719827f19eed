import { formatTimestamp } from '../shared/time.js';
import type { ContactRow } from './contact.repository.js';
import type { Contact } from './contact.schema.js';

/** The public form of a contact, field by field. */
export function presentContact(row: ContactRow, tags: string[]): Contact {
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    email: row.email,
    tags,
    custom_attributes: JSON.parse(row.custom_attributes) as Record<string, unknown>,
    opted_out: row.opted_out_at !== null,
    last_message_at: formatTimestamp(row.last_message_at),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
