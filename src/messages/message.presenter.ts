import { formatTimestamp } from '../shared/time.js';
import type { StatusDelivery } from '../channels/index.js';
import { plainReason } from './error-reasons.js';
import type { MessageError, MessageRow } from './message.repository.js';
import type { Message, MessageEdit } from './message.schema.js';

/** Columns only inbound messages fill; a message built in memory (just queued) may lack them. */
type InboundColumn =
  | 'sent_at'
  | 'reply_to_message_id'
  | 'reaction'
  | 'edits'
  | 'revoked_at'
  | 'channel_id'
  | 'media_state'
  | 'media_error'
  | 'sent_via';

/** The public form of a stored message. */
export function presentMessage(
  row: Omit<MessageRow, InboundColumn> & Partial<Pick<MessageRow, InboundColumn>>,
): Message {
  return {
    id: row.id,
    direction: row.direction,
    type: row.type,
    status: row.status,
    content: JSON.parse(row.content) as Record<string, unknown>,
    contact_id: row.contact_id,
    contact_phone: row.contact_phone,
    provider_message_id: row.provider_message_id,
    error: row.error ? presentError(JSON.parse(row.error) as MessageError) : null,
    ...presentDelivery(row.delivery ? (JSON.parse(row.delivery) as StatusDelivery) : null),
    sent_at: formatTimestamp(row.sent_at ?? null),
    reply_to_message_id: row.reply_to_message_id ?? null,
    reaction: row.reaction ?? null,
    edits: row.edits ? (JSON.parse(row.edits) as MessageEdit[]).map(presentEdit) : [],
    revoked_at: formatTimestamp(row.revoked_at ?? null),
    channel_id: row.channel_id ?? null,
    sent_via: row.sent_via ?? null,
    media_storage: row.media_state ? { state: row.media_state, error: row.media_error ?? null } : null,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}

function presentError(error: MessageError) {
  return { code: error.code, title: error.title, details: error.details, reason: plainReason(error.code) };
}

function presentDelivery(delivery: StatusDelivery | null) {
  const conversation = delivery?.conversation;
  return {
    pricing: delivery?.pricing ?? null,
    conversation: conversation
      ? { ...conversation, expires_at: conversation.expires_at && formatTimestamp(conversation.expires_at) }
      : null,
    biz_opaque_callback_data: delivery?.biz_opaque_callback_data ?? null,
  };
}

/** An earlier version as the API shows it: the stored edit also keeps its wamid, to refuse a repeated delivery. */
const presentEdit = ({ type, content, edited_at }: MessageEdit): MessageEdit => ({ type, content, edited_at });
