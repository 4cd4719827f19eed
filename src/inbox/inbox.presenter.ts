import { presentMessage } from '../messages/message.presenter.js';
import type { MessageRow } from '../messages/message.repository.js';
import type { Message } from '../messages/message.schema.js';
import { formatTimestamp } from '../shared/time.js';
import type { MessageSender } from './senders.js';

const PREVIEW_LENGTH = 140;

/** The message a reply quotes, as the thread shows it above the reply. */
export interface Quote {
  id: string;
  direction: string;
  preview: string;
}

/**
 * A message as the inbox shows it: the public message plus a one-line text for lists and screen
 * readers, the message it quotes when it is a reply, and who sent it (outbound, when known).
 */
export type InboxMessage = Message & { preview: string; quote: Quote | null; sender: MessageSender | null };

/** The public message with its preview, and the quoted message's and the sender when given. */
export function presentInboxMessage(
  row: MessageRow,
  quoted?: MessageRow,
  sender: MessageSender | null = null,
): InboxMessage {
  const message = presentMessage(row);
  const quote = quoted && {
    id: quoted.id,
    direction: quoted.direction,
    preview: previewOf(quoted.type, JSON.parse(quoted.content) as Record<string, unknown>),
  };
  return { ...message, preview: previewOf(message.type, message.content), quote: quote ?? null, sender };
}

/**
 * One line of text for any message type: the text itself, a template's rendered text, or the kind
 * of media with its caption.
 */
export function previewOf(type: string, content: Record<string, unknown>): string {
  const text = textOf(type, content);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW_LENGTH ? `${line.slice(0, PREVIEW_LENGTH - 1)}…` : line;
}

function textOf(type: string, content: Record<string, unknown>): string {
  const string = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (type) {
    case 'text':
      return string(content.body);
    case 'template':
      return string(content.text);
    case 'interactive': {
      const interactive = content.interactive as { body?: { text?: unknown } } | undefined;
      const reply = (content.button_reply ?? content.list_reply) as { title?: unknown } | undefined;
      return string(interactive?.body?.text) || string(reply?.title) || 'Interactive message';
    }
    case 'button':
      return string(content.text);
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const caption = string(content.caption) || string(content.filename);
      const kind = type[0]!.toUpperCase() + type.slice(1);
      return caption ? `${kind}: ${caption}` : kind;
    }
    case 'reaction':
      return string(content.emoji) ? `Reacted ${string(content.emoji)}` : 'Removed a reaction';
    case 'location':
      return `Location${string(content.name) ? `: ${string(content.name)}` : ''}`;
    case 'contacts': {
      const [first] = Array.isArray(content.contacts)
        ? (content.contacts as { name?: { formatted_name?: unknown } }[])
        : [];
      return `Contact: ${string(first?.name?.formatted_name) || 'card'}`;
    }
    default:
      return `${type[0]?.toUpperCase() ?? ''}${type.slice(1)} message`;
  }
}

/** A nullable stored timestamp in public form. */
export const at = (value: string | null | undefined): string | null => (value ? formatTimestamp(value) : null);
