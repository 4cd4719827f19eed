import { useEffect, useRef, useState } from 'preact/hooks';
import { dashboard } from './api/client';
import { Link } from './router';
import { ErrorNote, useAsync } from './ui';
import { t } from './i18n/i18n';
import { desktopNotice } from './pages/inbox/alerts';
import { useLiveReload } from './pages/inbox/events';
import { formatDateTime } from './i18n/format';

interface Notice {
  id: string;
  kind: 'mention' | 'assignment' | 'new_conversation';
  contact: { id: string; name: string };
  actor: { id: string; name: string } | null;
  created_at: string;
  read_at: string | null;
}

interface Listed {
  notifications: Notice[];
  unread: number;
}

/**
 * What happened, in words. The customer is named (contact name, else phone) and never what they or
 * a teammate wrote: a desktop notice shows on a lock screen (docs/decisions/0092-notification-content.md).
 */
function sentence(notice: Notice): { title: string; body: string } {
  const names = { actor: notice.actor?.name || t('shell:notifications.someone'), customer: notice.contact.name };
  switch (notice.kind) {
    case 'mention':
      return {
        title: t('shell:notifications.mention.title', names),
        body: t('shell:notifications.mention.body', names),
      };
    case 'assignment':
      return {
        title: t('shell:notifications.assignment.title', names),
        body: t('shell:notifications.assignment.body', names),
      };
    case 'new_conversation':
      return {
        title: t('shell:notifications.newConversation.title'),
        body: t('shell:notifications.newConversation.body', names),
      };
  }
}

/** Tells of notifications that arrived since the page loaded, on the desktop (when the user allowed it). */
function useDesktopNotices(listed: Listed | undefined): void {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!listed) return;
    const unread = listed.notifications.filter((n) => !n.read_at);
    // The first list is what was there already: only later arrivals are news.
    if (seen.current) {
      for (const notice of unread.filter((n) => !seen.current!.has(n.id))) {
        const { title, body } = sentence(notice);
        desktopNotice(title, body, notice.contact.id, notice.id);
      }
    }
    seen.current = new Set([...(seen.current ?? []), ...listed.notifications.map((n) => n.id)]);
  }, [listed]);
}

/** The bell in the top bar: the unread count, and a panel listing the newest notifications. */
export function NotificationBell() {
  const list = useAsync(() => dashboard.get('/api/dashboard/notifications'), []);
  // Notifications come with conversation changes (notes, assignments) and customers' messages.
  useLiveReload(
    list.reload,
    (event) => event.type === 'conversation' || (event.type === 'message' && event.direction === 'inbound'),
  );
  useDesktopNotices(list.data);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const unread = list.data?.unread ?? 0;
  const markRead = async (body: { ids: string[] } | { all: true }) => {
    try {
      setError(null);
      await dashboard.post('/api/dashboard/notifications/read', { body: body });
      list.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    // Escape closes the panel, as it closes the page's other pop-ups.
    <div class="notifications" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button
        type="button"
        class="bell"
        aria-expanded={open}
        aria-controls="notification-panel"
        onClick={() => setOpen(!open)}
      >
        <BellIcon /> {t('shell:notifications.title')}
        {unread > 0 && (
          <span class="nav-count">
            {unread}
            <span class="visually-hidden"> {t('shell:unread')}</span>
          </span>
        )}
      </button>
      {open && (
        <section id="notification-panel" class="notification-panel" aria-label={t('shell:notifications.title')}>
          <div class="notification-head">
            <button type="button" disabled={unread === 0} onClick={() => void markRead({ all: true })}>
              {t('shell:notifications.markAllRead')}
            </button>
            <Link href="/settings/account" onClickCapture={() => setOpen(false)}>
              {t('shell:notifications.settings')}
            </Link>
          </div>
          <ErrorNote error={error ?? list.error} />
          {list.data && list.data.notifications.length === 0 && <p class="muted">{t('shell:notifications.empty')}</p>}
          <ul class="notification-list">
            {list.data?.notifications.map((notice) => (
              <NoticeItem
                key={notice.id}
                notice={notice}
                onOpen={() => {
                  setOpen(false);
                  if (!notice.read_at) void markRead({ ids: [notice.id] });
                }}
                onRead={() => void markRead({ ids: [notice.id] })}
              />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function NoticeItem(props: { notice: Notice; onOpen: () => void; onRead: () => void }) {
  const { notice } = props;
  const { title, body } = sentence(notice);
  return (
    <li class={notice.read_at ? 'notice' : 'notice unread'}>
      <Link href={`/inbox/${notice.contact.id}`} onClickCapture={props.onOpen}>
        <strong>{title}</strong>
        {!notice.read_at && <span class="visually-hidden"> {t('shell:notifications.unreadMark')}</span>}
        <span class="notice-body">{body}</span>
      </Link>
      <span class="notice-meta">
        <time dateTime={notice.created_at}>{formatDateTime(notice.created_at)}</time>
        {!notice.read_at && (
          <button type="button" class="link" onClick={props.onRead}>
            {t('shell:notifications.markRead')}
          </button>
        )}
      </span>
    </li>
  );
}

/** A bell drawn inline: an emoji's glyph depends on the fonts the device has. */
function BellIcon() {
  return (
    <svg class="bell-icon" aria-hidden="true" viewBox="0 0 24 24" width="16" height="16">
      <path
        fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
      />
    </svg>
  );
}
