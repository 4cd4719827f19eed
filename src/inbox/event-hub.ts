/** What the dashboard hears about live: a message arrived or was queued, a status moved, a conversation changed. */
export interface InboxEvent {
  type: 'message' | 'status' | 'conversation';
  contact_id: string;
  message_id?: string;
}

type Subscriber = (events: InboxEvent[]) => void;

/**
 * The in-process fan-out from the message service and the outbox to the dashboard's event streams,
 * per workspace. Events are hints to reload, not the data itself: a missed one (a reconnect, another
 * Parley process) costs only freshness, and the browser reloads what it shows on reconnecting.
 */
export function createEventHub() {
  const subscribers = new Map<string, Set<Subscriber>>();
  return {
    /** Tells the workspace's open streams; a subscriber that throws does not stop the others. */
    publish(workspaceId: string, events: InboxEvent[]): void {
      if (events.length === 0) return;
      for (const subscriber of subscribers.get(workspaceId) ?? []) {
        try {
          subscriber(events);
        } catch {
          // A stream that broke mid-write is cleaned up by its own close handler.
        }
      }
    },

    /** Listens to one workspace's events; returns the unsubscribe function. */
    subscribe(workspaceId: string, subscriber: Subscriber): () => void {
      let set = subscribers.get(workspaceId);
      if (!set) subscribers.set(workspaceId, (set = new Set()));
      set.add(subscriber);
      return () => {
        set.delete(subscriber);
        if (set.size === 0) subscribers.delete(workspaceId);
      };
    },

    /** Whether anyone listens to the workspace (publishers may skip building events otherwise). */
    hasSubscribers: (workspaceId: string): boolean => subscribers.has(workspaceId),
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
