import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { dashboard } from '../../api/client';
import { navigate } from '../../router';
import { t } from '../../i18n/i18n';

/** The conversation j/k last moved to: it is being read, not answered yet. */
let skimmedTo: string | null = null;

/** Whether this conversation was reached with j/k, which keeps the focus off its reply box. */
export function reachedBySkimming(contactId: string): boolean {
  return skimmedTo === contactId;
}

/** The conversations the list last showed, in order: where "next" and "previous" lead from a thread. */
let order: string[] = [];

/** Remembers the list's order (the inbox list calls this as it renders). */
export function rememberOrder(contactIds: string[]): void {
  order = contactIds;
}

/** The list's order, or the open conversations' first page when no list was shown in this tab yet. */
async function knownOrder(): Promise<string[]> {
  if (order.length === 0) {
    const page = await dashboard.get('/api/dashboard/conversations', { query: { filter: 'open' } });
    order = page.conversations.map((c) => c.contact_id);
  }
  return order;
}

/** The conversation `step` places from this one in the list, or null at either end. */
export async function neighbourOf(contactId: string, step: 1 | -1): Promise<string | null> {
  const ids = await knownOrder();
  const at = ids.indexOf(contactId);
  // A conversation opened from elsewhere (a link, a search) is followed by the list's first.
  return (at === -1 ? ids[0] : ids[at + step]) ?? null;
}

/** Where to go once a conversation is done: the next one in the list, else the list. */
export async function afterDone(contactId: string): Promise<void> {
  const next = await neighbourOf(contactId, 1).catch(() => null);
  order = order.filter((id) => id !== contactId);
  navigate(next ? `/inbox/${next}` : '/inbox');
}

/** The keys (as printed on keyboards, in every language) and what each does, by its words in the catalog. */
const SHORTCUTS = [
  { keys: 'j', does: 'next' },
  { keys: 'k', does: 'previous' },
  { keys: 'r', does: 'reply' },
  { keys: '/', does: 'search' },
  { keys: '?', does: 'help' },
  { keys: 'Esc', does: 'leave' },
] as const;

/** Whether the key was typed into a field (shortcuts are letters a user may be typing). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/** Moves focus along the list's conversation links (on the list page). */
function focusAlongList(step: 1 | -1): void {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('.conversation-list .conversation-link')];
  const at = links.findIndex((link) => link === document.activeElement);
  links[at === -1 ? 0 : Math.min(links.length - 1, Math.max(0, at + step))]?.focus();
}

/**
 * The inbox's keyboard shortcuts (j/k next and previous conversation, r reply, / search or, in a thread, reply, ? help),
 * on the list and in a thread, with the help dialog.
 */
export function InboxShortcuts({ contactId }: { contactId?: string }) {
  const [help, setHelp] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (help) dialog.current?.showModal();
    else dialog.current?.close();
  }, [help]);
  // Read when a key is pressed, not when the listener was added: j then k in quick succession must step
  // from the conversation j reached, even before effects have run for it.
  const current = useRef(contactId);
  current.current = contactId;
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const contactId = current.current;
      // A thread opens with the reply box focused; Escape hands the keys back to the shortcuts.
      if (event.key === 'Escape' && typing(event.target) && !event.defaultPrevented) {
        (event.target as HTMLElement).blur();
        return;
      }
      if (event.metaKey || event.ctrlKey || event.altKey || typing(event.target)) return;
      const step = event.key === 'j' ? 1 : event.key === 'k' ? -1 : 0;
      if (step !== 0 && contactId) {
        void neighbourOf(contactId, step).then((id) => {
          if (!id) return;
          skimmedTo = id;
          navigate(`/inbox/${id}`);
        });
      } else if (step !== 0) focusAlongList(step);
      else if (event.key === 'r') document.getElementById('reply-text')?.focus();
      // A thread has no search box: there `/` goes where a reply is written, as in most chat tools.
      else if (event.key === '/') document.getElementById(contactId ? 'reply-text' : 'conversation-search')?.focus();
      else if (event.key === '?') setHelp(true);
      else return;
      event.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  return (
    <dialog ref={dialog} class="shortcuts" aria-labelledby="shortcuts-title" onClose={() => setHelp(false)}>
      <h2 id="shortcuts-title">{t('inbox:shortcuts.title')}</h2>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.keys}>
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{t(`inbox:shortcuts.${s.does}`)}</dd>
          </div>
        ))}
      </dl>
      {/* Closed at once (onClose updates the state), so focus is back on the page before the next key. */}
      <button type="button" onClick={() => dialog.current?.close()}>
        {t('inbox:shortcuts.close')}
      </button>
    </dialog>
  );
}
