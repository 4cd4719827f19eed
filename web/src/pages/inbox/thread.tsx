import { useEffect, useRef, useState } from 'preact/hooks';
import { dashboard } from '../../api';
import { Link } from '../../router';
import { useSession } from '../../session';
import { ErrorNote, Page, formatTime, useAsync } from '../../ui';
import { useLiveReload } from './events';
import { ReplyBox } from './reply';
import { RICH_TYPES, RichContent } from './rich';
import { useThreadScroll, useWhenVisible } from './thread-scroll';
import type { ConversationNote, InboxMessage, MessageSender, Thread } from './types';

/** What the thread lists: the messages and the staff's notes, in time order. */
type Entry = { note: ConversationNote } | { message: InboxMessage };
const entryId = (entry: Entry) => ('note' in entry ? entry.note.id : entry.message.id);
const entryTime = (entry: Entry) => ('note' in entry ? entry.note.created_at : entry.message.created_at);

/** The messages and notes of the pages shown, oldest first (a newer page's copy of a message wins). */
function timeline(pages: Pick<Thread, 'messages' | 'notes'>[]): Entry[] {
  const entries = new Map<string, Entry>();
  for (const page of pages) {
    for (const message of page.messages) entries.set(message.id, { message });
    for (const note of page.notes) entries.set(note.id, { note });
  }
  return [...entries.values()].sort((a, b) => entryTime(a).localeCompare(entryTime(b)));
}

/**
 * One conversation: its messages (newest last, live; opened at the newest, earlier ones loading
 * upward as the top is reached), who handles it, and the reply box, always in view.
 */
export function ThreadPage({ contactId }: { contactId: string }) {
  const thread = useAsync(() => dashboard.get<Thread>(`conversations/${contactId}`), [contactId]);
  const [older, setOlder] = useState<{ pages: Thread[]; next: string | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [replyTo, setReplyTo] = useState<InboxMessage | null>(null);
  useEffect(() => {
    setOlder(null);
    setReplyTo(null);
  }, [contactId]);
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
  const loading = useRef(false);
  const loadEarlier = async () => {
    const before = older ? older.next : data?.next_before;
    if (!before || loading.current) return;
    loading.current = true;
    try {
      const page = await dashboard.get<Thread>(`conversations/${contactId}?before=${encodeURIComponent(before)}`);
      setOlder({ pages: [page, ...(older?.pages ?? [])], next: page.next_before });
    } catch (e) {
      setError(e);
    } finally {
      loading.current = false;
    }
  };
  const entries = timeline([...(older?.pages ?? []), ...(data ? [data] : [])]);
  const moreBefore = older ? older.next : data?.next_before;
  useThreadScroll(contactId, entries.map(entryId));
  const earlierButton = useRef<HTMLButtonElement>(null);
  useWhenVisible(earlierButton, () => void loadEarlier(), !!moreBefore);

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
            <button type="button" class="load-more" ref={earlierButton} onClick={() => void loadEarlier()}>
              Load earlier messages
            </button>
          )}
          <ol class="thread" aria-label="Messages" aria-live="polite" aria-relevant="additions">
            {entries.map((entry) =>
              'note' in entry ? (
                <NoteBubble key={entry.note.id} note={entry.note} />
              ) : (
                <MessageBubble key={entry.message.id} message={entry.message} onReply={setReplyTo} />
              ),
            )}
          </ol>
          {entries.length === 0 && <p class="muted">No messages yet.</p>}
          <ReplyBox thread={data} onSent={thread.reload} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
        </>
      )}
    </Page>
  );
}

function ConversationActions(props: { contactId: string; thread: Thread; onChange: () => void }) {
  const { user } = useSession();
  const [error, setError] = useState<unknown>(null);
  const { conversation, members } = props.thread;
  const run = (path: string, body: object) => {
    setError(null);
    dashboard.post(`conversations/${props.contactId}/${path}`, body).then(props.onChange, setError);
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
      <button type="button" onClick={() => run('done', { done: !conversation.done })}>
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

/** Who sent an outbound message, in words: the member, "API", the automation by name, or Parley. */
export function senderLabel(sender: MessageSender): string {
  switch (sender.type) {
    case 'user':
      return sender.name || 'A former team member';
    case 'api':
      return sender.name ? `API · ${sender.name}` : 'API';
    case 'campaign':
      return `Campaign ${sender.name || '(deleted)'}`;
    case 'sequence':
      return `Sequence ${sender.name || '(deleted)'}`;
    case 'flow':
      return `Flow ${sender.name || '(deleted)'}`;
    case 'system':
      return 'Parley (automatic reply)';
  }
}

/** A staff member's private note: shown only here, never sent to the customer. */
function NoteBubble({ note }: { note: ConversationNote }) {
  return (
    <li class="bubble note">
      <span class="bubble-sender">Private note · {note.author?.name || 'A former team member'}</span>
      <p class="bubble-text">{note.body}</p>
      <span class="bubble-meta">
        <time dateTime={note.created_at}>{formatTime(note.created_at)}</time>
      </span>
    </li>
  );
}

/**
 * A message: who sent it (outbound), its text (a template's rendered text), media, time, and for
 * outbound ones the delivery tick.
 */
function MessageBubble({ message: m, onReply }: { message: InboxMessage; onReply: (m: InboxMessage) => void }) {
  const tick = m.direction === 'outbound' ? TICKS[m.status] : undefined;
  const sender = m.direction === 'outbound' && m.sender ? senderLabel(m.sender) : null;
  return (
    <li class={`bubble ${m.direction}`} data-status={m.status} data-sender={m.sender?.type}>
      {m.direction === 'inbound' ? (
        <span class="visually-hidden">They wrote: </span>
      ) : (
        <span class="bubble-sender">{sender ?? 'Sent'}</span>
      )}
      {m.quote && (
        <blockquote class="bubble-quote">
          <span class="visually-hidden">In reply to {m.quote.direction === 'inbound' ? 'their' : 'our'} message: </span>
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
        {m.provider_message_id && m.type !== 'reaction' && !m.revoked_at && (
          <button type="button" class="link bubble-reply" onClick={() => onReply(m)}>
            Reply<span class="visually-hidden"> to this message</span>
          </button>
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
          alt={caption ?? (m.direction === 'inbound' ? `${m.type} from the contact` : `${m.type} sent to the contact`)}
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
