import { useEffect, useState } from 'preact/hooks';
import { dashboard } from '../../api';
import { Link } from '../../router';
import { useSession } from '../../session';
import { ErrorNote, Page, formatTime, useAsync } from '../../ui';
import { afterDone } from './shortcuts';
import { useLiveReload } from './events';
import { ReplyBox } from './reply';
import { RICH_TYPES, RichContent } from './rich';
import type { InboxMessage, Thread } from './types';

/** One conversation: its messages (newest last, live), who handles it, and the reply box. */
export function ThreadPage({ contactId }: { contactId: string }) {
  const thread = useAsync(() => dashboard.get<Thread>(`conversations/${contactId}`), [contactId]);
  const [older, setOlder] = useState<{ messages: InboxMessage[]; next: string | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setOlder(null), [contactId]);
  useLiveReload(thread.reload, (event) => event.contact_id === contactId);

  // Opening the thread reads it, and so does every new inbound message while it is open.
  const newestInbound = thread.data?.messages.filter((m) => m.direction === 'inbound').at(-1)?.id;
  useEffect(() => {
    if (!thread.data) return;
    dashboard.post(`conversations/${contactId}/read`).catch(setError);
  }, [contactId, newestInbound, !!thread.data]);

  // The window closes while the page is open: reload then, by the server's clock.
  const closesIn = thread.data?.window.open
    ? Date.parse(thread.data.window.closes_at!) - Date.parse(thread.data.window.now)
    : null;
  useEffect(() => {
    if (closesIn === null || closesIn > 2 ** 31 - 1) return;
    const timer = setTimeout(thread.reload, closesIn + 1000);
    return () => clearTimeout(timer);
  }, [closesIn]);

  const data = thread.data;
  const title = data ? (data.contact.name ?? data.contact.phone) : 'Conversation';
  const loadEarlier = async () => {
    const before = older ? older.next : data?.next_before;
    if (!before) return;
    try {
      const page = await dashboard.get<Thread>(`conversations/${contactId}?before=${encodeURIComponent(before)}`);
      setOlder({ messages: [...page.messages, ...(older?.messages ?? [])], next: page.next_before });
    } catch (e) {
      setError(e);
    }
  };
  const current = new Set(data?.messages.map((m) => m.id));
  const messages = [...(older?.messages.filter((m) => !current.has(m.id)) ?? []), ...(data?.messages ?? [])];
  const moreBefore = older ? older.next : data?.next_before;

  return (
    <Page
      title={title}
      actions={data && <ConversationActions contactId={contactId} thread={data} onChange={thread.reload} />}
    >
      <p class="thread-back">
        <Link href="/inbox">← Inbox</Link>
        {data?.contact.name && <span class="muted"> · {data.contact.phone}</span>}
        {data?.conversation.needs_person && <span class="badge handoff">Needs a person</span>}
        {data?.conversation.done && <span class="badge done">Done</span>}
      </p>
      <ErrorNote error={thread.error ?? error} />
      {!data && thread.loading && <p class="loading">Loading…</p>}
      {data && (
        <>
          {moreBefore && (
            <button type="button" class="load-more" onClick={() => void loadEarlier()}>
              Load earlier messages
            </button>
          )}
          <ol class="thread" aria-label="Messages" aria-live="polite" aria-relevant="additions">
            {messages.map((m) => (
              <MessageBubble key={m.id} message={m} />
            ))}
          </ol>
          {messages.length === 0 && <p class="muted">No messages yet.</p>}
          <ReplyBox thread={data} onSent={thread.reload} />
        </>
      )}
    </Page>
  );
}

function ConversationActions(props: { contactId: string; thread: Thread; onChange: () => void }) {
  const { user } = useSession();
  const [error, setError] = useState<unknown>(null);
  const { conversation, members } = props.thread;
  const run = (path: string, body: object, then: () => unknown = props.onChange) => {
    setError(null);
    dashboard.post(`conversations/${props.contactId}/${path}`, body).then(then, setError);
  };
  return (
    <div class="conversation-actions">
      <div class="field">
        <label for="assignee">Assigned to</label>
        <select
          id="assignee"
          value={conversation.assignee_id ?? ''}
          onChange={(e) => run('assign', { user_id: e.currentTarget.value || null })}
        >
          <option value="">Nobody</option>
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id === user.id ? `Me (${m.name || m.email})` : m.name || m.email}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        // Done with this one: on to the next conversation.
        onClick={() =>
          conversation.done
            ? run('done', { done: false })
            : run('done', { done: true }, () => afterDone(props.contactId))
        }
      >
        {conversation.done ? 'Reopen' : 'Mark done'}
      </button>
      <ErrorNote error={error} />
    </div>
  );
}

const TICKS: Record<string, { symbol: string; label: string }> = {
  queued: { symbol: '◷', label: 'Queued' },
  sent: { symbol: '✓', label: 'Sent' },
  delivered: { symbol: '✓✓', label: 'Delivered' },
  read: { symbol: '✓✓', label: 'Read' },
  failed: { symbol: '⚠', label: 'Failed' },
};
const MEDIA = ['image', 'sticker', 'video', 'audio', 'document'];

/** A message: its text (a template's rendered text), media, time, and for outbound ones the delivery tick. */
function MessageBubble({ message: m }: { message: InboxMessage }) {
  const tick = m.direction === 'outbound' ? TICKS[m.status] : undefined;
  return (
    <li class={`bubble ${m.direction}`} data-status={m.status}>
      <span class="visually-hidden">{m.direction === 'inbound' ? 'They wrote: ' : 'You sent: '}</span>
      {m.quote && (
        <blockquote class="bubble-quote">
          <span class="visually-hidden">
            In reply to {m.quote.direction === 'inbound' ? 'their' : 'your'} message:{' '}
          </span>
          {m.quote.preview}
        </blockquote>
      )}
      {MEDIA.includes(m.type) ? (
        <Media message={m} />
      ) : RICH_TYPES.includes(m.type) ? (
        <RichContent message={m} />
      ) : (
        <p class="bubble-text">{m.preview ? bodyOf(m) : `${m.type} message`}</p>
      )}
      {m.type === 'template' && typeof m.content.template_name === 'string' && (
        <span class="muted bubble-kind">Template {m.content.template_name}</span>
      )}
      <span class="bubble-meta">
        {m.revoked_at && <span class="bubble-note">Deleted by the sender</span>}
        {m.edits.length > 0 && !m.revoked_at && <span class="bubble-note">Edited</span>}
        {m.reaction && (
          <span class="bubble-reaction" title="Their reaction">
            {m.reaction}
          </span>
        )}
        <time dateTime={m.created_at}>{formatTime(m.created_at)}</time>
        {tick && (
          <span class={`tick tick-${m.status}`} title={tick.label}>
            <span aria-hidden="true">{tick.symbol}</span>
            <span class="visually-hidden">{tick.label}</span>
          </span>
        )}
      </span>
      {m.status === 'failed' && m.error && (
        <p class="error bubble-error">
          Not delivered: {m.error.title}
          {m.error.code !== null && ` (${m.error.code})`}
          {m.error.details && ` — ${m.error.details}`}
        </p>
      )}
    </li>
  );
}

/** The full text (the preview is one shortened line). */
function bodyOf(m: InboxMessage): string {
  if (m.type === 'text' && typeof m.content.body === 'string') return m.content.body;
  if (m.type === 'template' && typeof m.content.text === 'string') return m.content.text;
  return m.preview;
}

/**
 * Media through the dashboard's media endpoint (received files, and files the team uploaded): images
 * inline, everything else as a link. Media sent by link is shown as that link: the dashboard never
 * loads a third party's file by itself.
 */
function Media({ message: m }: { message: InboxMessage }) {
  const [broken, setBroken] = useState(false);
  const link = typeof m.content.link === 'string' ? m.content.link : null;
  const src = link ?? `/api/dashboard/media/${m.id}`;
  const caption = typeof m.content.caption === 'string' ? m.content.caption : null;
  const filename = typeof m.content.filename === 'string' ? m.content.filename : null;
  const mime = typeof m.content.mime_type === 'string' ? m.content.mime_type : (filename ?? m.type);
  const inline = (m.type === 'image' || m.type === 'sticker') && !broken && !link;
  return (
    <figure class="bubble-media">
      {inline && (
        <img
          src={src}
          alt={caption ?? (m.direction === 'inbound' ? `${m.type} from the contact` : `${m.type} you sent`)}
          loading="lazy"
          onError={() => setBroken(true)}
        />
      )}
      <figcaption>
        <a href={src} target="_blank" rel="noopener noreferrer">
          {m.type[0]!.toUpperCase() + m.type.slice(1)} ({mime})
        </a>
        {caption && <span> — {caption}</span>}
      </figcaption>
    </figure>
  );
}
