/**
 * A message's text as people read it, for every screen that shows messages (the inbox's list and
 * thread, a contact's conversation): one rule, so a button message reads "Order now" everywhere.
 */

const PREVIEW_LENGTH = 140;

/** The words a message's text is made of when it has none of its own (the dashboard passes its language's). */
export interface MessageWords {
  interactive: string;
  /** A media message: its kind (image, video, audio, document, sticker), with its caption or file name if any. */
  media(kind: MediaKind, caption: string): string;
  reacted(emoji: string): string;
  removedReaction: string;
  /** A location pin, with its name if any. */
  location(name: string): string;
  /** A contact card, with the first card's name if any. */
  contact(name: string): string;
  /** A kind of message Parley does not describe otherwise (`order`, `system`…). */
  other(type: string): string;
}

export const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const capital = (word: string) => `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`;

/** English, as the API, notifications and exports give a message's text. */
export const ENGLISH_WORDS: MessageWords = {
  interactive: 'Interactive message',
  media: (kind, caption) => (caption ? `${capital(kind)}: ${caption}` : capital(kind)),
  reacted: (emoji) => `Reacted ${emoji}`,
  removedReaction: 'Removed a reaction',
  location: (name) => (name ? `Location: ${name}` : 'Location'),
  contact: (name) => `Contact: ${name || 'card'}`,
  other: (type) => `${capital(type)} message`,
};

/**
 * What a conversation view shows for a message: a text in full (its lines kept), any other message
 * as its one-line preview (a template's rendered text, an interactive message's body, the kind of
 * media with its caption).
 */
export function messageText(
  type: string,
  content: Record<string, unknown>,
  words: MessageWords = ENGLISH_WORDS,
): string {
  if (type === 'text' && typeof content.body === 'string') return content.body;
  return previewOf(type, content, words);
}

/**
 * One line of text for any message type: the text itself, a template's rendered text, or the kind
 * of media with its caption.
 */
export function previewOf(type: string, content: Record<string, unknown>, words: MessageWords = ENGLISH_WORDS): string {
  const text = textOf(type, content, words);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW_LENGTH ? `${line.slice(0, PREVIEW_LENGTH - 1)}…` : line;
}

function textOf(type: string, content: Record<string, unknown>, words: MessageWords): string {
  const string = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (type) {
    case 'text':
      return string(content.body);
    case 'template':
      return string(content.text);
    case 'interactive': {
      const interactive = content.interactive as { body?: { text?: unknown } } | undefined;
      const reply = (content.button_reply ?? content.list_reply) as { title?: unknown } | undefined;
      return string(interactive?.body?.text) || string(reply?.title) || words.interactive;
    }
    case 'button':
      return string(content.text);
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return words.media(type, string(content.caption) || string(content.filename));
    case 'reaction':
      return string(content.emoji) ? words.reacted(string(content.emoji)) : words.removedReaction;
    case 'location':
      return words.location(string(content.name));
    case 'contacts': {
      const [first] = Array.isArray(content.contacts)
        ? (content.contacts as { name?: { formatted_name?: unknown } }[])
        : [];
      return words.contact(string(first?.name?.formatted_name));
    }
    default:
      return words.other(type);
  }
}
