/**
 * A message's text as people read it, for every screen that shows messages (the inbox's list and
 * thread, a contact's conversation): one rule, so a button message reads "Order now" everywhere.
 */

const PREVIEW_LENGTH = 140;

/**
 * What a conversation view shows for a message: a text in full (its lines kept), any other message
 * as its one-line preview (a template's rendered text, an interactive message's body, the kind of
 * media with its caption).
 */
export function messageText(type: string, content: Record<string, unknown>): string {
  if (type === 'text' && typeof content.body === 'string') return content.body;
  return previewOf(type, content);
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
