import { formatTimestamp } from '../shared/time.js';
import type { MessageError, MessageRow } from './message.repository.js';
import type { Message } from './message.schema.js';

/** The public form of a stored message. */
export function presentMessage(row: MessageRow): Message {
  return {
    id: row.id,
    direction: row.direction,
    type: row.type,
    status: row.status,
    content: JSON.parse(row.content) as Record<string, unknown>,
    contact_id: row.contact_id,
    contact_phone: row.contact_phone,
    provider_message_id: row.provider_message_id,
    error: row.error ? (JSON.parse(row.error) as MessageError) : null,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
