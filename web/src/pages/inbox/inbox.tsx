import { useEffect, useState } from 'preact/hooks';
import { action, dashboard } from '../../api';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, useAsync } from '../../ui';
import { AlertSettings } from './alerts';
import { useLiveReload } from './events';
import { InboxShortcuts, rememberOrder } from './shortcuts';
import { BulkBar, PRIORITIES, ToolBadges, useLabels, type Selection } from './tools';
import type { ConversationPage, ConversationSummary, Member } from './types';
import { formatDateTime } from '../../i18n/format';

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
  { value: 'snoozed', label: 'Snoozed', empty: 'No conversation is snoozed.' },
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
  const label = url.searchParams.get('label') ?? '';
  const priority = url.searchParams.get('priority') ?? '';
  const query = listHref(url, {
    filter: filter.value,
    q: search || null,
    channel: channel || null,
    label: label || null,
    priority: priority || null,
  }).slice('/inbox?'.length);
  const [selection, setSelection] = useState<Selection>({ all: false, ids: [] });
  const [bulkDone, setBulkDone] = useState('');
  const members = useAsync(() => dashboard.get<Member[]>('inbox/members'), []);
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
    <Page title="Inbox">
      <InboxShortcuts />
      <div class="inbox-tools">
        <SearchBox url={url} search={search} />
        <NumberFilter url={url} channel={channel} />
        <ToolFilters url={url} label={label} priority={priority} />
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
      <p role="status" class="bulk-result">
        {bulkDone}
      </p>
      {(selection.all || selection.ids.length > 0) && (
        <BulkBar
          selection={selection}
          shown={conversations.length}
          filter={{
            filter: filter.value,
            q: search || undefined,
            channel_id: channel || undefined,
            label_id: label || undefined,
            priority: priority || undefined,
          }}
          members={members.data ?? []}
          onSelectAll={() => setSelection({ all: true })}
          onDone={(message) => {
            setSelection({ all: false, ids: [] });
            setBulkDone(message);
            first.reload();
          }}
        />
      )}
      <ul class="conversation-list" aria-label="Conversations">
        {conversations.map((c) => (
          <ConversationItem
            key={c.contact_id}
            conversation={c}
            selected={selection.all || selection.ids.includes(c.contact_id)}
            onSelect={(on) =>
              setSelection((current) => {
                const ids = current.all ? conversations.map((x) => x.contact_id) : current.ids;
                return { all: false, ids: on ? [...ids, c.contact_id] : ids.filter((id) => id !== c.contact_id) };
              })
            }
          />
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

/** The list's URL query as the endpoint names it (`channel` is `channel_id` there, `label` is `label_id`). */
const apiQuery = (query: string) =>
  query.replace(/(^|&)channel=/, '$1channel_id=').replace(/(^|&)label=/, '$1label_id=');

/** Narrows the list to a label or a priority; both go into the URL. */
function ToolFilters({ url, label, priority }: { url: URL; label: string; priority: string }) {
  const labels = useLabels();
  return (
    <>
      <div class="field">
        <label for="label-filter">Label</label>
        <select
          id="label-filter"
          value={label}
          onChange={(e) => navigate(listHref(url, { label: e.currentTarget.value || null }))}
        >
          <option value="">Any label</option>
          {(labels.data ?? []).map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="priority-filter">Priority</label>
        <select
          id="priority-filter"
          value={priority}
          onChange={(e) => navigate(listHref(url, { priority: e.currentTarget.value || null }))}
        >
          <option value="">Any priority</option>
          {PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

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

function ConversationItem({
  conversation: c,
  selected,
  onSelect,
}: {
  conversation: ConversationSummary;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const title = c.name ?? c.phone;
  return (
    <li class={c.unread > 0 ? 'conversation unread' : 'conversation'}>
      <input
        type="checkbox"
        class="conversation-select"
        aria-label={`Select ${title}`}
        checked={selected}
        onChange={(e) => onSelect(e.currentTarget.checked)}
      />
      <Link href={`/inbox/${c.contact_id}`} class="conversation-link">
        <span class="conversation-top">
          <span class="conversation-name">{title}</span>
          {c.name && <span class="muted conversation-phone">{c.phone}</span>}
          <time class="muted conversation-time" dateTime={c.last_message_at ?? undefined}>
            {formatDateTime(c.last_message_at)}
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
          <ToolBadges state={c} />
        </span>
      </Link>
    </li>
  );
}
