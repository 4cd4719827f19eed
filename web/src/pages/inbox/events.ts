import { useEffect, useRef } from 'preact/hooks';
import type { InboxEvent } from './types';

type Listener = (event: InboxEvent) => void;

const listeners = new Set<Listener>();
let source: EventSource | null = null;

/** One EventSource per tab, open while any page listens (browsers allow few connections per host). */
function connect(): void {
  if (source) return;
  source = new EventSource('/api/dashboard/events');
  source.addEventListener('open', () => {
    // Anything may have happened between a page's first read and the stream opening (a slow server, a
    // reconnect): listeners reload once it is open, so nothing that happened meanwhile is missed.
    emit({ type: 'stream-opened', contact_id: '' });
  });
  for (const type of ['message', 'status', 'conversation', 'approval', 'group'] as const) {
    source.addEventListener(type, (event: MessageEvent<string>) => emit(JSON.parse(event.data) as InboxEvent));
  }
}

function emit(event: InboxEvent): void {
  for (const listener of listeners) listener(event);
}

/** Hears every live event of the session's workspace while mounted (the stream opens with the first listener). */
export function useLiveEvents(listen: Listener): void {
  const latest = useRef(listen);
  latest.current = listen;
  useEffect(() => {
    const listener: Listener = (event) => latest.current(event);
    listeners.add(listener);
    connect();
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) {
        source?.close();
        source = null;
      }
    };
  }, []);
}

/**
 * Calls `reload` shortly after live events that `concerns` (a burst, such as a campaign's statuses,
 * folds into a few reloads) and whenever the stream opens (at first and after a reconnect).
 */
export function useLiveReload(reload: () => void, concerns: (event: InboxEvent) => boolean): void {
  const latest = useRef({ reload, concerns });
  latest.current = { reload, concerns };
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvents((event) => {
    if (event.type !== 'stream-opened' && !latest.current.concerns(event)) return;
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current.reload();
    }, 150);
  });
}
