import { ThreadTools, ToolBadges } from './tools';
import { useEffect, useRef, useState } from 'preact/hooks';
import { action, dashboard, v1 } from '../../api/client';
import type { PublicSchema } from '../../api/public';
import { Link } from '../../router';
import { useSession } from '../../session';
import { ErrorNote, Page, useAsync } from '../../ui';
import { t } from '../../i18n/i18n';
import { afterDone } from './shortcuts';
import { useLiveReload } from './events';
import { ReplyBox } from './reply';
import { ThreadSummary, useCopilot } from './copilot';
import { HeldSends } from './held-sends';
import { CallEvent, MessageBubble, NoteBubble, RatingEvent } from './bubbles';
import { SidePanel } from './side-panel';
import { useThreadScroll, useWhenVisible } from './thread-scroll';
import type { Call, ConversationNote, InboxMessage, Rating, Thread } from './types';

/** What the thread lists: the messages, the staff's notes, the customer's ratings and calls, in time order. */
type Entry = { note: ConversationNote } | { message: InboxMessage } | { rating: Rating } | { call: Call };
function entryId(entry: Entry): string {
  if ('note' in entry) return entry.note.id;
  if ('rating' in entry) return `rating ${entry.rating.rated_at}`;
  return 'call' in entry ? entry.call.id : entry.message.id;
}
function entryTime(entry: Entry): string {
  if ('note' in entry) return entry.note.created_at;
  if ('rating' in entry) return entry.rating.rated_at;
  return 'call' in entry ? entry.call.placed_at : entry.message.created_at;
}

/** The entries of the pages shown, oldest first (a newer page's copy of a message wins). */
function timeline(pages: Pick<Thread, 'messages' | 'notes' | 'ratings' | 'calls'>[]): Entry[] {
  const entries = new Map<string, Entry>();
  for (const page of pages) {
    for (const message of page.messages) entries.set(message.id, { message });
    for (const note of page.notes) entries.set(note.id, { note });
    for (const rating of page.ratings) entries.set(entryId({ rating }), { rating });
    for (const call of page.calls) entries.set(call.id, { call });
  }
  return [...entries.values()].sort((a, b) => entryTime(a).localeCompare(entryTime(b)));
}

/**
 * One conversation: its messages (newest last, live; opened at the newest, earlier ones loading
 * upward as the top is reached), who handles it, and the reply box, always in view.
 */
export function ThreadPage({ contactId }: { contactId: string }) {
  const thread = useAsync(
    () => dashboard.get('/api/dashboard/conversations/{contactId}', { path: { contactId } }),
    [contactId],
  );
  const [older, setOlder] = useState<{ pages: Thread[]; next: string | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [replyTo, setReplyTo] = useState<InboxMessage | null>(null);
  const copilot = useCopilot();
  useEffect(() => {
    setOlder(null);
    setReplyTo(null);
  }, [contactId]);
  // The AI assistant's turns, for the citations under its replies.
  const turns = useAsync(() => action('list-assistant-turns', { contact_id: contactId }), [contactId]);
  const reload = () => {
    thread.reload();
    turns.reload();
  };
  useLiveReload(reload, (event) => event.type !== 'group' && event.contact_id === contactId);
  const turnOf = new Map(
    turns.data?.turns.flatMap((turn) => (turn.reply_message_id ? [[turn.reply_message_id, turn]] : [])),
  );

  // Opening the thread reads it, and so does every new inbound message while it is open.
  const newestInbound = thread.data?.messages.filter((m) => m.direction === 'inbound').at(-1)?.id;
  useEffect(() => {
    if (!thread.data) return;
    dashboard.post('/api/dashboard/conversations/{contactId}/read', { path: { contactId } }).catch(setError);
  }, [contactId, newestInbound, !!thread.data]);

  // The window closes while the page is open: reload then, by the server's clock.
  const span = thread.data?.window;
  const closesIn = span?.open && span.closes_at && span.now ? Date.parse(span.closes_at) - Date.parse(span.now) : null;
  useEffect(() => {
    if (closesIn === null || closesIn > 2 ** 31 - 1) return;
    const timer = setTimeout(thread.reload, closesIn + 1000);
    return () => clearTimeout(timer);
  }, [closesIn]);

  const data = thread.data;
  const title = data ? (data.contact.name ?? data.contact.phone) : t('inbox:thread.title');
  const loading = useRef(false);
  const loadEarlier = async () => {
    const before = older ? older.next : data?.next_before;
    if (!before || loading.current) return;
    loading.current = true;
    try {
      const page = await dashboard.get('/api/dashboard/conversations/{contactId}', {
        path: { contactId },
        query: { before },
      });
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
        <Link href="/inbox">{t('inbox:thread.back')}</Link>
        {data?.contact.name && (
          <span class="muted">
            {' · '}
            <span dir="ltr">{data.contact.phone}</span>
          </span>
        )}
        {data?.conversation.needs_person && <span class="badge handoff">{t('inbox:needsPerson')}</span>}
        {data?.conversation.done && <span class="badge done">{t('inbox:done')}</span>}
        {data && <ToolBadges state={data.conversation} />}
      </p>
      {data && <ThreadTools contactId={contactId} state={data.conversation} onChange={thread.reload} />}
      {data && <SidePanel thread={data} />}
      {data && <ThreadSummary contactId={contactId} copilot={copilot} />}
      <ErrorNote error={thread.error ?? error} />
      {!data && thread.loading && <p class="loading">{t('inbox:loading')}</p>}
      {data && (
        <>
          {moreBefore && (
            <button type="button" class="load-more" ref={earlierButton} onClick={() => void loadEarlier()}>
              {t('inbox:thread.loadEarlier')}
            </button>
          )}
          <ol class="thread" aria-label={t('inbox:thread.messages')} aria-live="polite" aria-relevant="additions">
            {entries.map((entry) =>
              'note' in entry ? (
                <NoteBubble key={entry.note.id} note={entry.note} />
              ) : 'rating' in entry ? (
                <RatingEvent key={entryId(entry)} rating={entry.rating} members={data.members} />
              ) : 'call' in entry ? (
                <CallEvent key={entry.call.id} call={entry.call} />
              ) : (
                <MessageBubble
                  key={entry.message.id}
                  message={entry.message}
                  turn={turnOf.get(entry.message.id)}
                  onReply={setReplyTo}
                />
              ),
            )}
          </ol>
          {entries.length === 0 && <p class="muted">{t('inbox:thread.noMessages')}</p>}
          <HeldSends contactId={contactId} onDecided={thread.reload} />
          <ReplyBox
            thread={data}
            onSent={thread.reload}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            copilot={copilot}
          />
        </>
      )}
    </Page>
  );
}

type Team = PublicSchema<'Team'>;

/** Who handles the conversation (a team, a person of it) and whether it is done. */
function ConversationActions(props: { contactId: string; thread: Thread; onChange: () => void }) {
  const { user } = useSession();
  const [error, setError] = useState<unknown>(null);
  const teams = useAsync(() => action('list-teams', {}), []);
  const { conversation, members } = props.thread;
  const markDone = (done: boolean, then: () => unknown = props.onChange) => {
    setError(null);
    const path = { contactId: props.contactId };
    dashboard.post('/api/dashboard/conversations/{contactId}/done', { path, body: { done } }).then(then, setError);
  };
  const assign = (teamId: string | null, assigneeId: string | null) => {
    setError(null);
    const body = { team_id: teamId, assignee_id: assigneeId };
    v1.put('/v1/conversations/{contact_id}/assignment', { path: { contact_id: props.contactId }, body }).then(
      props.onChange,
      setError,
    );
  };
  const teamOf = (id: string | null) => teams.data?.find((team) => team.id === id);
  const team = teamOf(conversation.team_id);
  // With a team, a person of that team: the server refuses anyone else.
  const people = team ? members.filter((m) => team.members.some((member) => member.id === m.id)) : members;
  const keeps = (next: Team | undefined) =>
    !next || next.members.some((member) => member.id === conversation.assignee_id) ? conversation.assignee_id : null;
  return (
    <div class="conversation-actions">
      {(teams.data?.length ?? 0) > 0 && (
        <div class="field">
          <label for="team">{t('inbox:thread.team')}</label>
          <select
            id="team"
            value={conversation.team_id ?? ''}
            onChange={(e) => {
              const next = teamOf(e.currentTarget.value || null);
              assign(next?.id ?? null, keeps(next));
            }}
          >
            <option value="">{t('inbox:thread.noTeam')}</option>
            {teams.data?.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="field">
        <label for="assignee">{t('inbox:thread.assignedTo')}</label>
        <select
          id="assignee"
          value={conversation.assignee_id ?? ''}
          onChange={(e) => assign(conversation.team_id, e.currentTarget.value || null)}
        >
          <option value="">{t('inbox:nobody')}</option>
          {people.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id === user.id ? t('inbox:thread.me', { name: m.name || m.email }) : m.name || m.email}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        // Done with this one: on to the next conversation.
        onClick={() => (conversation.done ? markDone(false) : markDone(true, () => afterDone(props.contactId)))}
      >
        {conversation.done ? t('inbox:thread.reopen') : t('inbox:thread.markDone')}
      </button>
      <ErrorNote
        error={error}
        labels={{ team_id: t('inbox:thread.team'), assignee_id: t('inbox:thread.assignedTo') }}
      />
    </div>
  );
}
