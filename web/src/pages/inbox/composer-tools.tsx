import { useState } from 'preact/hooks';
import { render } from '../../../../src/automation/render';
import { action } from '../../api/client';
import { useAsync } from '../../ui';
import { t } from '../../i18n/i18n';
import type { Thread } from './types';

/** The emoji a support team reaches for; a full picker would outweigh the whole dashboard. */
const EMOJI = [
  '😀',
  '😊',
  '😉',
  '😂',
  '🙂',
  '😍',
  '🤔',
  '😅',
  '😢',
  '🙏',
  '👍',
  '👋',
  '👏',
  '🙌',
  '💪',
  '🎉',
  '❤️',
  '✅',
  '❌',
  '⭐',
  '🔥',
  '📦',
  '🚚',
  '⏰',
];

/** A small built-in emoji picker: a button that opens a grid; choosing one inserts it. */
export function EmojiPicker({ onPick }: { onPick: (emoji: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <div class="emoji-picker">
      <button type="button" aria-expanded={open} aria-controls="emoji-grid" onClick={() => setOpen(!open)}>
        <span aria-hidden="true">😊</span> {t('inbox:reply.emoji')}
      </button>
      {open && (
        <div id="emoji-grid" class="emoji-grid" role="group" aria-label={t('inbox:reply.emoji')}>
          {EMOJI.map((emoji) => (
            <button
              key={emoji}
              type="button"
              aria-label={t('inbox:reply.insertEmoji', { emoji })}
              onClick={() => {
                onPick(emoji);
                setOpen(false);
              }}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

export interface QuickReply {
  id: string;
  shortcut: string;
  body: string;
}

/** The workspace's quick replies whose shortcut starts with what follows a leading `/` (none otherwise). */
export function useQuickReplies(text: string): QuickReply[] {
  const saved = useAsync(() => action('list-quick-replies', {}), []);
  const typed = /^\/([\w-]*)$/.exec(text)?.[1]?.toLowerCase();
  if (typed === undefined) return [];
  return (saved.data ?? []).filter((q) => q.shortcut.startsWith(typed)).slice(0, 8);
}

/**
 * A quick reply's text for the open thread's contact: `{{contact.…}}`, `{{attributes.…}}` and
 * `{{x | "fallback"}}` filled by the automations' renderer, so a saved answer reads as a flow's would.
 */
export function fillQuickReply(body: string, contact: Thread['contact']): string {
  const custom_attributes = JSON.stringify(contact.custom_attributes);
  return render(body, { contact: { ...contact, custom_attributes }, context: {} });
}

/** The quick replies matching the typed `/shortcut`, as a listbox the reply box points into. */
export function QuickReplyMenu(props: { matches: QuickReply[]; active: number; onPick: (q: QuickReply) => void }) {
  if (props.matches.length === 0) return null;
  return (
    <ul id="quick-replies" class="quick-replies" role="listbox" aria-label={t('inbox:reply.quickReplies')}>
      {props.matches.map((q, i) => (
        <li
          key={q.id}
          id={`quick-reply-${q.id}`}
          role="option"
          aria-selected={i === props.active}
          // Before the textarea's blur: the pick must land while the box still has the text.
          onMouseDown={(e) => {
            e.preventDefault();
            props.onPick(q);
          }}
        >
          <strong>/{q.shortcut}</strong> <span class="muted">{q.body}</span>
        </li>
      ))}
    </ul>
  );
}
