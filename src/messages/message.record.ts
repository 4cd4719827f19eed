import type { MessageRecord } from '../triggers/index.js';
import { formatTimestamp } from '../shared/time.js';

type Json = Record<string, unknown>;

/** The readable text of a message's content: text body, caption, or the title of a tapped button. */
export function messageText(type: string, content: Json): string | null {
  const pick = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const reply = (content.button_reply ?? content.list_reply) as Json | undefined;
  return (
    pick(content.body) ??
    pick(content.caption) ??
    pick(content.text) ??
    pick(reply?.title) ??
    (type === 'reaction' ? pick(content.emoji) : null)
  );
}

export interface InboundMessage {
  id: string;
  type: string;
  /** Meta's type-specific content, as JSON text. */
  content: string;
  provider_message_id: string | null;
  /** Meta's send time (absent in records written before it was kept). */
  sent_at?: string | null;
  reply_to_message_id?: string | null;
  created_at: string;
}

export interface MessageSender {
  id: string;
  phone: string;
  name: string | null;
  email: string | null;
}

/**
 * The new-message-received record of an inbound message, as JSON text. It is written once, when
 * the message is stored: a trigger record is an event, so it shows the contact as it was when the
 * message arrived, and the feed serves the stored text without joining or re-serialising.
 */
export function inboundFeedRecord(message: InboundMessage, sender: MessageSender): string {
  const content = JSON.parse(message.content) as Json;
  const record: MessageRecord = {
    id: message.id,
    type: message.type,
    text: messageText(message.type, content),
    content,
    contact_id: sender.id,
    contact_phone: sender.phone,
    contact_name: sender.name,
    contact_email: sender.email,
    provider_message_id: message.provider_message_id,
    reply_to_message_id: message.reply_to_message_id ?? null,
    sent_at: formatTimestamp(message.sent_at ?? null),
    created_at: formatTimestamp(message.created_at),
  };
  return JSON.stringify(record);
}
