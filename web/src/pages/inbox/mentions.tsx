import { t } from '../../i18n/i18n';
import type { Member } from './types';

/** What follows an `@` right before the cursor (at the start or after a space); null when not mentioning. */
const TYPING_MENTION = /(^|\s)@([\p{L}\p{N}._-]*)$/u;

/** The handle a mention inserts: the teammate's name (the server matches it, in any case), else their email's local part. */
export const handleOf = (member: Member): string => member.name.trim() || (member.email.split('@')[0] ?? '');

export interface MentionQuery {
  /** Where the `@` is in the text. */
  start: number;
  matches: Member[];
}

/**
 * The teammates an `@` being typed in a note may mean: those whose name (any word of it) or email
 * starts with what was typed after the `@`; at most eight.
 */
export function mentionQuery(text: string, caret: number, members: Member[], selfId: string): MentionQuery | null {
  const typed = TYPING_MENTION.exec(text.slice(0, caret));
  if (!typed) return null;
  const query = typed[2]!.toLowerCase();
  const matches = members
    .filter((m) => m.id !== selfId)
    .filter((m) => [...m.name.toLowerCase().split(/\s+/), m.email.toLowerCase()].some((word) => word.startsWith(query)))
    .slice(0, 8);
  return matches.length > 0 ? { start: caret - query.length - 1, matches } : null;
}

/** The teammates matching the `@` being typed, as a listbox the note box points into. */
export function MentionMenu(props: { query: MentionQuery | null; active: number; onPick: (member: Member) => void }) {
  if (!props.query) return null;
  return (
    <ul id="mention-menu" class="quick-replies" role="listbox" aria-label={t('inbox:reply.mentions')}>
      {props.query.matches.map((member, i) => (
        <li
          key={member.id}
          id={`mention-${member.id}`}
          role="option"
          aria-selected={i === props.active}
          onMouseDown={(e) => {
            // Keeps the focus in the note box.
            e.preventDefault();
            props.onPick(member);
          }}
        >
          <strong>@{handleOf(member)}</strong> <span class="muted">{member.email}</span>
        </li>
      ))}
    </ul>
  );
}
