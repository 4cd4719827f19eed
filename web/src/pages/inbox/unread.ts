import { useEffect } from 'preact/hooks';
import { dashboard } from '../../api/client';
import { useAsync } from '../../ui';
import { useLiveReload } from './events';

const COUNT_PREFIX = /^\(\d+\) /;

/**
 * How many open conversations have unread messages, kept current by live events, and shown in the
 * page title as "(3) Inbox · Parley" whatever page sets the title.
 */
export function useUnreadConversations(): number {
  const unread = useAsync(() => dashboard.get('/api/dashboard/inbox/unread'), []);
  useLiveReload(unread.reload, (event) => event.type !== 'status');
  const count = unread.data?.conversations ?? 0;
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(COUNT_PREFIX, '');
      const title = count > 0 ? `(${count}) ${base}` : base;
      if (document.title !== title) document.title = title;
    };
    apply();
    // Pages set their own titles as they load: the count goes back in front.
    const observer = new MutationObserver(apply);
    const element = document.querySelector('title');
    if (element) observer.observe(element, { childList: true, characterData: true, subtree: true });
    return () => observer.disconnect();
  }, [count]);
  return count;
}
