import { useState } from 'preact/hooks';
import { dashboard } from '../../api';
import { Link } from '../../router';
import { ErrorNote, Page, formatTime, useAsync } from '../../ui';
import { useLiveReload } from './events';
import { InboxSettingsToggle } from './settings';
import type { ConversationPage, ConversationSummary } from './types';

const FILTERS = [
  { value: 'open', label: 'Open' },
  { value: 'mine', label: 'Assigned to me' },
  { value: 'done', label: 'Done' },
] as const;
type Filter = (typeof FILTERS)[number]['value'];

/** The shared inbox: conversations, latest message first, updated live. */
export function Inbox({ url }: { url: URL }) {
  const requested = url.searchParams.get('filter');
  const filter: Filter = FILTERS.some((f) => f.value === requested) ? (requested as Filter) : 'open';
  const first = useAsync(() => dashboard.get<ConversationPage>(`conversations?filter=${filter}`), [filter]);
  const [older, setOlder] = useState<{ filter: Filter; pages: ConversationPage[] }>({ filter, pages: [] });
  const [olderError, setOlderError] = useState<unknown>(null);
  useLiveReload(first.reload, () => true);

  const pages = older.filter === filter ? older.pages : [];
  const seen = new Set<string>();
  const conversations = [first.data, ...pages]
    .flatMap((page) => page?.conversations ?? [])
    .filter((c) => !seen.has(c.contact_id) && !!seen.add(c.contact_id));
  const nextBefore = (pages.at(-1) ?? first.data)?.next_before ?? null;
  const loadMore = async () => {
    if (!nextBefore) return;
    try {
      const page = await dashboard.get<ConversationPage>(
        `conversations?filter=${filter}&before=${encodeURIComponent(nextBefore)}`,
      );
      setOlder({ filter, pages: [...pages, page] });
    } catch (error) {
      setOlderError(error);
    }
  };
  const unread = conversations.filter((c) => c.unread > 0).length;

  return (
    <Page title="Inbox" actions={<InboxSettingsToggle />}>
      <nav class="tabs" aria-label="Conversations to show">
        {FILTERS.map((f) => (
          <Link key={f.value} href={`/inbox?filter=${f.value}`} aria-current={f.value === filter ? 'page' : undefined}>
            {f.label}
          </Link>
        ))}
      </nav>
      <p class="visually-hidden" role="status">
        {first.data ? `${unread} ${unread === 1 ? 'conversation' : 'conversations'} with unread messages` : ''}
      </p>
      <ErrorNote error={first.error} />
      {first.data && conversations.length === 0 && (
        <p class="muted">
          {filter === 'done'
            ? 'No conversations are done yet.'
            : filter === 'mine'
              ? 'No open conversations are assigned to you.'
              : 'No open conversations. Messages your contacts send appear here as they arrive.'}
        </p>
      )}
      {!first.data && first.loading && <p class="loading">Loading…</p>}
      <ul class="conversation-list" aria-label="Conversations">
        {conversations.map((c) => (
          <ConversationItem key={c.contact_id} conversation={c} />
        ))}
      </ul>
      <ErrorNote error={olderError} />
      {nextBefore && (
        <button type="button" class="load-more" onClick={() => void loadMore()}>
          Load older conversations
        </button>
      )}
    </Page>
  );
}

function ConversationItem({ conversation: c }: { conversation: ConversationSummary }) {
  const title = c.name ?? c.phone;
  return (
    <li class={c.unread > 0 ? 'conversation unread' : 'conversation'}>
      <Link href={`/inbox/${c.contact_id}`} class="conversation-link">
        <span class="conversation-top">
          <span class="conversation-name">{title}</span>
          {c.name && <span class="muted conversation-phone">{c.phone}</span>}
          <time class="muted conversation-time" dateTime={c.last_message_at ?? undefined}>
            {formatTime(c.last_message_at)}
          </time>
        </span>
        <span class="conversation-bottom">
          <span class="conversation-preview">
            {c.last_message?.direction === 'outbound' && <span class="muted">You: </span>}
            {c.last_message?.preview ?? ''}
          </span>
          {c.unread > 0 && (
            <span class="unread-count">
              {c.unread}
              <span class="visually-hidden"> unread</span>
            </span>
          )}
        </span>
        <span class="conversation-tags">
          {c.needs_person && <span class="badge handoff">Needs a person</span>}
          {c.done && <span class="badge done">Done</span>}
          {c.assignee && <span class="badge">Assigned to {c.assignee.name || c.assignee.email}</span>}
        </span>
      </Link>
    </li>
  );
}
