import { presentMessage, type MessageRow, type Message, type MessageSender } from '../messages/index.js';
import { previewOf } from '../content/message-text.js';
import { formatTimestamp } from '../shared/time.js';
import type { WhatsappFlowAnswerRecord } from '../triggers/index.js';

/** What Meta charged for a sent message, priced by the workspace's rates (src/reports/message-cost.ts). */
export interface MessageCost {
  category: string;
  market: string;
  amount: number | null;
  currency: string;
  source: string | null;
}

/**
 * The message a reply quotes, as the thread shows it above the reply: its English preview, and its
 * kind and content for the dashboard to word it in the reader's language.
 */
export interface Quote {
  id: string;
  direction: string;
  type: string;
  content: Record<string, unknown>;
  preview: string;
}

/** A completed WhatsApp Flow as the thread shows it: a filled form (src/triggers/ reads it). */
export type FilledForm = Pick<WhatsappFlowAnswerRecord, 'whatsapp_flow_id' | 'whatsapp_flow_name' | 'fields'>;

/**
 * A message as the inbox shows it: the public message plus a one-line text for lists and screen
 * readers, the message it quotes when it is a reply, who sent it (outbound, when known), and in the
 * thread, the form a customer filled in.
 */
export type InboxMessage = Message & {
  preview: string;
  quote: Quote | null;
  sender: MessageSender | null;
  cost: MessageCost | null;
  form?: FilledForm;
};

/** The public message with its preview, and the quoted message's and the sender when given. */
export function presentInboxMessage(
  row: MessageRow,
  quoted?: MessageRow,
  sender: MessageSender | null = null,
  cost: MessageCost | null = null,
): InboxMessage {
  const message = presentMessage(row);
  const quote = quoted ? quoteOf(quoted) : null;
  return { ...message, preview: previewOf(message.type, message.content), quote, sender, cost };
}

function quoteOf(quoted: MessageRow): Quote {
  const content = JSON.parse(quoted.content) as Record<string, unknown>;
  const { id, direction, type } = quoted;
  return { id, direction, type, content, preview: previewOf(type, content) };
}

/** A nullable stored timestamp in public form. */
export const at = (value: string | null | undefined): string | null => (value ? formatTimestamp(value) : null);
