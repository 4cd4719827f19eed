import { formatTimestamp } from '../shared/time.js';
import type { ContactRow } from './contact.repository.js';
import type { CallPermission, Contact } from './contact.schema.js';

/** The columns a contact's public form is built from. */
export const PRESENTED_COLUMNS = [
  'id',
  'phone',
  'name',
  'email',
  'custom_attributes',
  'opted_out_at',
  'last_message_at',
  'wa_id',
  'bsuid',
  'first_touch',
  'call_permission',
  'created_at',
  'updated_at',
] as const;
export type PresentedRow = Pick<ContactRow, (typeof PRESENTED_COLUMNS)[number]>;

/** The public form of a contact, field by field. */
export function presentContact(row: PresentedRow, tags: string[]): Contact {
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    email: row.email,
    tags,
    custom_attributes: JSON.parse(row.custom_attributes) as Record<string, unknown>,
    opted_out: row.opted_out_at !== null,
    last_message_at: formatTimestamp(row.last_message_at),
    wa_id: row.wa_id,
    bsuid: row.bsuid,
    first_touch: row.first_touch ? (JSON.parse(row.first_touch) as Record<string, unknown>) : null,
    call_permission: row.call_permission
      ? presentCallPermission(JSON.parse(row.call_permission) as CallPermission)
      : null,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

function presentCallPermission(stored: CallPermission): CallPermission {
  return {
    ...stored,
    expires_at: formatTimestamp(stored.expires_at),
    answered_at: formatTimestamp(stored.answered_at),
  };
}
