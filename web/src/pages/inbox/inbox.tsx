import { useEffect, useState } from 'preact/hooks';
import { action, dashboard } from '../../api';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, formatTime, useAsync } from '../../ui';
import { AlertSettings } from './alerts';
import { useLiveReload } from './events';
import { InboxSettingsToggle } from './settings';
import { InboxShortcuts, rememberOrder } from './shortcuts';
import type { ConversationPage, ConversationSummary } from './types';

const FILTERS = [
  {
    value: 'open',
    label: 'Open',
    empty: 'No open conversations. Messages your contacts send appear here as they arrive.',
  },
  { value: 'unread', label: 'Unread', empty: 'Nothing unread.' },
  { value: 'needs_person', label: 'Needs a person', empty: 'No conversation waits for a person.' },
  { value: 'mine', label: 'Assigned to me', empty: 'No open conversations are assigned to you.' },
  { value: 'my_teams', label: 'My teams', empty: 'No open conversations in your teams.' },
  { value: 'unassigned', label: 'Unassigned', empty: 'Every open conversation is assigned.' },
  { value: 'done', label: 'Done', empty: 'No conversations are done yet.' },
] as const;

/** One of the workspace's numbers, as list-channels answers. */
interface BusinessNumber {
  id: string | null;
  display_phone_number: string | null;
  verified_name: string | null;
  phone_number_id: string | null;
}

/** The list's address: the filter, number and search are in the URL, so Back and reload keep them. */
function listHref(url: URL, change: Record<string, string | null>): string {
  const params = new URLSearchParams(url.search);
  for (const [key, value] of Object.entries(change)) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const query = params.toString();
  return query ? `/inbox?${query}` : '/inbox';
}

/** The shared inbox: conversations, latest message first, filtered and searched, updated live. */
export function Inbox({ url }: { url: URL }) {
  const requested = url.searchParams.get('filter');
  const filter = FILTERS.find((f) => f.value === requested) ?? FILTERS[0];
  const search = url.searchParams.get('q') ?? '';
  const channel = url.searchParams.get('channel') ?? '';
  const query = listHref(url, { filter: filter.value, q: search || null, channel: channel || null }).slice(
    '/inbox?'.length,
  );
  const first = useAsync(() => dashboard.get<ConversationPage>(`conversations?${apiQuery(query)}`), [query]);
  const [older, setOlder] = useState<{ query: string; pages: ConversationPage[] }>({ query, pages: [] });
  const [olderError, setOlderError] = useState<unknown>(null);
  useLiveReload(first.reload, () => true);

  const pages = older.query === query ? older.pages : [];
  const seen = new Set<string>();
  const conversations = [first.data, ...pages]
    .flatMap((page) => page?.conversations ?? [])
    .filter((c) => !seen.has(c.contact_id) && !!seen.add(c.contact_id));
  rememberOrder(conversations.map((c) => c.contact_id));
  const nextBefore = (pages.at(-1) ?? first.data)?.next_before ?? null;
  const loadMore = async () => {
    if (!nextBefore) return;
    try {
      const page = await dashboard.get<ConversationPage>(
        `conversations?${apiQuery(query)}&before=${encodeURIComponent(nextBefore)}`,
      );
      setOlder({ query, pages: [...pages, page] });
    } catch (error) {
      setOlderError(error);
    }
  };
  const unread = conversations.filter((c) => c.unread > 0).length;

  return (
    <Page title="Inbox" actions={<InboxSettingsToggle />}>
      <InboxShortcuts />
      <div class="inbox-tools">
        <SearchBox url={url} search={search} />
        <NumberFilter url={url} channel={channel} />
        <AlertSettings />
      </div>
      <nav class="tabs inbox-filters" aria-label="Conversations to show">
        {FILTERS.map((f) => (
          <Link
            key={f.value}
            href={listHref(url, { filter: f.value })}
            aria-current={f === filter ? 'page' : undefined}
          >
            {f.label}
          </Link>
        ))}
      </nav>
      <p class="visually-hidden" role="status">
        {first.data ? `${unread} ${unread === 1 ? 'conversation' : 'conversations'} with unread messages` : ''}
      </p>
      <ErrorNote error={first.error} />
      {first.data && conversations.length === 0 && (
        <p class="muted">{search ? `No conversation mentions “${search}”.` : filter.empty}</p>
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
      <p class="muted shortcuts-hint">
        Press <kbd>?</kbd> for keyboard shortcuts.
      </p>
    </Page>
  );
}

/** The list's URL query as the endpoint names it (`channel` is `channel_id` there). */
const apiQuery = (query: string) => query.replace(/(^|&)channel=/, '$1channel_id=');

/** Searches names, phone numbers and message text; the search goes into the URL on submit. */
function SearchBox({ url, search }: { url: URL; search: string }) {
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);
  return (
    <form
      role="search"
      class="conversation-search"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(listHref(url, { q: text.trim() || null }));
      }}
    >
      <label for="conversation-search" class="visually-hidden">
        Search conversations
      </label>
      <input
        id="conversation-search"
        type="search"
        placeholder="Search name, number or message"
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit">Search</button>
    </form>
  );
}

/** Picks one number's conversations, shown only when the workspace has several numbers. */
function NumberFilter({ url, channel }: { url: URL; channel: string }) {
  const numbers = useAsync(() => action<{ channels: BusinessNumber[] }>('list-channels'), []);
  const channels = (numbers.data?.channels ?? []).filter((c) => c.id !== null);
  if (channels.length < 2) return null;
  return (
    <div class="field number-filter">
      <label for="conversation-number">Number</label>
      <select
        id="conversation-number"
        value={channel}
        onChange={(e) => navigate(listHref(url, { channel: e.currentTarget.value || null }))}
      >
        <option value="">All numbers</option>
        {channels.map((c) => (
          <option key={c.id} value={c.id!}>
            {[c.display_phone_number ?? c.phone_number_id, c.verified_name].filter(Boolean).join(' · ')}
          </option>
        ))}
      </select>
    </div>
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
          {c.team && <span class="badge">{c.team.name}</span>}
          {c.assignee && <span class="badge">Assigned to {c.assignee.name || c.assignee.email}</span>}
        </span>
      </Link>
    </li>
  );
}
