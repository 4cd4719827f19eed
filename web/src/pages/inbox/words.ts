import { messageText, previewOf, type MessageWords } from '../../../../src/content/message-text';
import { t } from '../../i18n/i18n';

/**
 * The inbox's words that are built from parts: a message's text in the reader's language (the server's
 * rule in src/content/message-text.ts, with this language's words), and sentences with an element in
 * the middle of them.
 */

/** The words a message without text of its own is described with ("Image: receipt.pdf", "Location"). */
function messageWords(): MessageWords {
  return {
    interactive: t('inbox:preview.interactive'),
    media: (kind, caption) =>
      caption ? t('inbox:preview.withCaption', { kind: t(`inbox:media.${kind}`), caption }) : t(`inbox:media.${kind}`),
    reacted: (emoji) => t('inbox:preview.reacted', { emoji }),
    removedReaction: t('inbox:preview.removedReaction'),
    location: (name) => (name ? t('inbox:preview.locationNamed', { name }) : t('inbox:preview.location')),
    contact: (name) => (name ? t('inbox:preview.contact', { name }) : t('inbox:preview.contactCard')),
    other: (type) => t('inbox:preview.other', { type }),
  };
}

type Shown = { type: string; content: Record<string, unknown> };

/** A message as one line (the list, a quote), in the reader's language. */
export const previewIn = (message: Shown): string => previewOf(message.type, message.content, messageWords());

/** A message's full text (a text's lines kept; other kinds as their preview), in the reader's language. */
export const textIn = (message: Shown): string => messageText(message.type, message.content, messageWords());

/** Stands for an element inside a translated sentence, which `around` then splits at. */
const SLOT = '\u2063';

/**
 * A translated sentence cut where an element goes (`Press {{key}} for…`, `Flow {{name}} is…`): the text
 * before it and after it, in the language's own order. `translate` is given the slot to put in.
 */
export function around(translate: (slot: string) => string): [string, string] {
  const [before = '', after = ''] = translate(SLOT).split(SLOT);
  return [before, after];
}
