import { useEffect, useState } from 'preact/hooks';
import { action, dashboard } from '../../api/client';
import { Link, navigate } from '../../router';
import { ErrorNote, Page, useAsync } from '../../ui';
import { t } from '../../i18n/i18n';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { AlertSettings } from './alerts';
import { useLiveReload } from './events';
import { InboxShortcuts, rememberOrder } from './shortcuts';
import { BulkBar, PRIORITIES, priorityName, ToolBadges, useLabels, type BulkFilter, type Selection } from './tools';
import type { ConversationPage, ConversationSummary } from './types';
import { around, previewIn } from './words';

/** The list's filters, in the order of its tabs; their names and empty-list texts are in the catalog. */
const FILTERS = [
  'open',
  'unread',
  'needs_person',
  'mine',
  'my_teams',
  'unassigned',
  'done',
  'snoozed',
  'awaiting_approval',
] as const;

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
  const filter = FILTERS.find((f) => f === requested) ?? FILTERS[0];
  const search = url.searchParams.get('q') ?? '';
  const channel = url.searchParams.get('channel') ?? '';
  const label = url.searchParams.get('label') ?? '';
  const priority = url.searchParams.get('priority') ?? '';
  const query = listHref(url, {
    filter,
    q: search || null,
    channel: channel || null,
    label: label || null,
    priority: priority || null,
  }).slice('/inbox?'.length);
  // The list's filters as the endpoint names them (`channel` is `channel_id` there, `label` is `label_id`).
  const listFilter: BulkFilter = {
    filter,
    q: search || undefined,
    channel_id: channel || undefined,
    label_id: label || undefined,
    priority: PRIORITIES.find((p) => p === priority),
  };
  const [selection, setSelection] = useState<Selection>({ all: false, ids: [] });
  const [bulkDone, setBulkDone] = useState('');
  const members = useAsync(() => dashboard.get('/api/dashboard/inbox/members'), []);
  const first = useAsync(() => dashboard.get('/api/dashboard/conversations', { query: listFilter }), [query]);
  const [older, setOlder] = useState<{ query: string; pages: ConversationPage[] }>({ query, pages: [] });
  const [olderError, setOlderError] = useState<unknown>(null);
  useLiveReload(first.reload, (event) => event.type !== 'group');

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
      const page = await dashboard.get('/api/dashboard/conversations', {
        query: { ...listFilter, before: nextBefore },
      });
      setOlder({ query, pages: [...pages, page] });
    } catch (error) {
      setOlderError(error);
    }
  };
  const unread = conversations.filter((c) => c.unread > 0).length;

  return (
    <Page title={t('inbox:title')} actions={<Link href="/inbox/groups">{t('inbox:groups.title')}</Link>}>
      <InboxShortcuts />
      <div class="inbox-tools">
        <SearchBox url={url} search={search} />
        <NumberFilter url={url} channel={channel} />
        <ToolFilters url={url} label={label} priority={priority} />
        <AlertSettings />
      </div>
      <nav class="tabs inbox-filters" aria-label={t('inbox:list.filters')}>
        {FILTERS.map((f) => (
          <Link key={f} href={listHref(url, { filter: f })} aria-current={f === filter ? 'page' : undefined}>
            {t(`inbox:list.filter.${f}`)}
          </Link>
        ))}
      </nav>
      <p class="visually-hidden" role="status">
        {first.data ? t('inbox:list.unreadConversations', { count: unread }) : ''}
      </p>
      <ErrorNote error={first.error} />
      {first.data && conversations.length === 0 && (
        <p class="muted">{search ? t('inbox:list.noMatch', { search }) : t(`inbox:list.empty.${filter}`)}</p>
      )}
      {!first.data && first.loading && <p class="loading">{t('inbox:loading')}</p>}
      <p role="status" class="bulk-result">
        {bulkDone}
      </p>
      {(selection.all || selection.ids.length > 0) && (
        <BulkBar
          selection={selection}
          shown={conversations.length}
          filter={listFilter}
          members={members.data ?? []}
          onSelectAll={() => setSelection({ all: true })}
          onDone={(message) => {
            setSelection({ all: false, ids: [] });
            setBulkDone(message);
            first.reload();
          }}
        />
      )}
      <ul class="conversation-list" aria-label={t('inbox:list.conversations')}>
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
          {t('inbox:list.loadOlder')}
        </button>
      )}
      <ShortcutsHint />
    </Page>
  );
}

/** Narrows the list to a label or a priority; both go into the URL. */
function ToolFilters({ url, label, priority }: { url: URL; label: string; priority: string }) {
  const labels = useLabels();
  return (
    <>
      <div class="field">
        <label for="label-filter">{t('inbox:list.label')}</label>
        <select
          id="label-filter"
          value={label}
          onChange={(e) => navigate(listHref(url, { label: e.currentTarget.value || null }))}
        >
          <option value="">{t('inbox:list.anyLabel')}</option>
          {(labels.data ?? []).map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="priority-filter">{t('inbox:list.priority')}</label>
        <select
          id="priority-filter"
          value={priority}
          onChange={(e) => navigate(listHref(url, { priority: e.currentTarget.value || null }))}
        >
          <option value="">{t('inbox:list.anyPriority')}</option>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {priorityName(p)}
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
        {t('inbox:list.searchLabel')}
      </label>
      <input
        id="conversation-search"
        type="search"
        placeholder={t('inbox:list.searchPlaceholder')}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit">{t('inbox:list.search')}</button>
    </form>
  );
}

/** Picks one number's conversations, shown only when the workspace has several numbers. */
function NumberFilter({ url, channel }: { url: URL; channel: string }) {
  const numbers = useAsync(() => action('list-channels', {}), []);
  const channels = (numbers.data?.channels ?? []).filter((c) => c.id !== null);
  if (channels.length < 2) return null;
  return (
    <div class="field number-filter">
      <label for="conversation-number">{t('inbox:list.number')}</label>
      <select
        id="conversation-number"
        value={channel}
        onChange={(e) => navigate(listHref(url, { channel: e.currentTarget.value || null }))}
      >
        <option value="">{t('inbox:list.allNumbers')}</option>
        {channels.map((c) => (
          <option key={c.id} value={c.id!}>
            {[c.display_phone_number ?? c.phone_number_id, c.verified_name].filter(Boolean).join(' · ')}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "Press ? for keyboard shortcuts.", with the key as a key. */
function ShortcutsHint() {
  const [before, after] = around((key) => t('inbox:list.shortcutsHint', { key }));
  return (
    <p class="muted shortcuts-hint">
      {before}
      <kbd>?</kbd>
      {after}
    </p>
  );
}

/** One conversation in the list: who, when, the newest message, and its state as badges. */
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
        aria-label={t('inbox:list.select', { name: title })}
        checked={selected}
        onChange={(e) => onSelect(e.currentTarget.checked)}
      />
      <Link href={`/inbox/${c.contact_id}`} class="conversation-link">
        <span class="conversation-top">
          <span class="conversation-name" dir="auto">
            {title}
          </span>
          {c.name && (
            <span class="muted conversation-phone" dir="ltr">
              {c.phone}
            </span>
          )}
          <time class="muted conversation-time" dateTime={c.last_message_at ?? undefined}>
            {formatDateTime(c.last_message_at)}
          </time>
        </span>
        <span class="conversation-bottom">
          <span class="conversation-preview">
            {c.last_message?.direction === 'outbound' && <span class="muted">{t('inbox:list.you')} </span>}
            <span dir="auto">{c.last_message ? previewIn(c.last_message) : ''}</span>
          </span>
          {c.unread > 0 && (
            <span class="unread-count">
              {formatNumber(c.unread)}
              <span class="visually-hidden"> {t('inbox:list.unread', { count: c.unread })}</span>
            </span>
          )}
        </span>
        <span class="conversation-tags">
          {c.needs_person && <span class="badge handoff">{t('inbox:needsPerson')}</span>}
          {c.awaiting_approval > 0 && (
            <span class="badge awaiting-approval">
              {t('inbox:list.awaitingApproval', { count: c.awaiting_approval })}
            </span>
          )}
          {c.done && <span class="badge done">{t('inbox:done')}</span>}
          {c.team && <span class="badge">{c.team.name}</span>}
          {c.assignee && (
            <span class="badge">{t('inbox:list.assignedTo', { name: c.assignee.name || c.assignee.email })}</span>
          )}
          <ToolBadges state={c} />
        </span>
      </Link>
    </li>
  );
}
