import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Deps } from '../db/deps.js';
import type { InboxEventTable } from '../db/schema.js';
import { toStoredTimestamp } from '../shared/time.js';

/**
 * What the dashboard hears about live: a message arrived or was queued, a status moved, a conversation
 * changed — a contact's, or a WhatsApp group's (its conversation or its state).
 */
export type InboxEvent = ContactEvent | GroupLiveEvent;

export interface ContactEvent {
  /** `approval`: a send held for a person's approval was made or decided (`message_id` names it). */
  type: 'message' | 'status' | 'conversation' | 'approval';
  contact_id: string;
  message_id?: string;
  /** On a new message: which way it went (the dashboard notifies of inbound ones). */
  direction?: 'inbound' | 'outbound';
}

export interface GroupLiveEvent {
  type: 'group';
  group_id: string;
  message_id?: string;
}

type Subscriber = (events: InboxEvent[]) => void;

/** How often a process with open streams reads the events other processes wrote (the delay a tab may see). */
export const EVENT_POLL_MS = 250;
/**
 * How far behind its cursor a reader reads again: PostgreSQL hands out ids before commit, so a row
 * may become visible after one with a higher id. Rows already delivered are skipped by id.
 */
const REREAD_IDS = 200;
/** Events are hints for open tabs; older rows are removed by publishers. */
const KEPT_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * The one publish point for live inbox events, per workspace. A publisher tells its own process's
 * streams at once and writes the events to `inbox_events`; every process with open streams polls
 * that table, so an event from any process (the CLI, another server) reaches every tab. Events are
 * hints to reload, not the data itself: a missed one costs only freshness, and the browser reloads
 * what it shows on reconnecting.
 */
export function createEventHub({ db, clock }: Pick<Deps, 'db' | 'clock'>) {
  const origin = randomUUID();
  const subscribers = new Map<string, Set<Subscriber>>();
  const reader = createReader(db, origin, deliver);
  let prunedAt = 0;

  function deliver(workspaceId: string, events: InboxEvent[]): void {
    for (const subscriber of subscribers.get(workspaceId) ?? []) {
      try {
        subscriber(events);
      } catch {
        // A stream that broke mid-write is cleaned up by its own close handler.
      }
    }
  }

  /** Removes expired rows now and then; a failure only leaves them for the next publisher. */
  async function pruneNowAndThen(): Promise<void> {
    const now = clock.now().getTime();
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    const expired = toStoredTimestamp(new Date(now - KEPT_MS));
    await db.deleteFrom('inbox_events').where('created_at', '<', expired).execute();
  }

  return {
    /** Tells this process's streams, then every other process's (through the table). */
    async publish(workspaceId: string, events: InboxEvent[]): Promise<void> {
      if (events.length === 0) return;
      deliver(workspaceId, events);
      const createdAt = toStoredTimestamp(clock.now());
      await db
        .insertInto('inbox_events')
        .values(
          events.map((event) => ({
            workspace_id: workspaceId,
            type: event.type,
            contact_id: event.type === 'group' ? null : event.contact_id,
            group_id: event.type === 'group' ? event.group_id : null,
            message_id: event.message_id ?? null,
            direction: (event.type !== 'group' && event.direction) || null,
            origin,
            created_at: createdAt,
          })),
        )
        .execute();
      await pruneNowAndThen();
    },

    /** Listens to one workspace's events; returns the unsubscribe function. */
    subscribe(workspaceId: string, subscriber: Subscriber): () => void {
      let set = subscribers.get(workspaceId);
      if (!set) subscribers.set(workspaceId, (set = new Set()));
      set.add(subscriber);
      reader.start();
      return () => {
        set.delete(subscriber);
        if (set.size === 0) subscribers.delete(workspaceId);
        if (subscribers.size === 0) reader.stop();
      };
    },

    /** Stops reading and waits for a read under way (before the database closes). */
    close: () => reader.close(),
  };
}

/** Polls `inbox_events` for other processes' rows while this process has subscribers. */
function createReader(db: Deps['db'], origin: string, deliver: (workspaceId: string, events: InboxEvent[]) => void) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let cursor: number | null = null;
  let delivered = new Set<number>();
  let reading: Promise<void> = Promise.resolve();

  async function read(): Promise<void> {
    if (cursor === null) {
      // Starts from now: a process that just began listening owes no one the past.
      const row = await db
        .selectFrom('inbox_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      cursor = Number(row?.id ?? 0);
      return;
    }
    const rows = await db
      .selectFrom('inbox_events')
      .selectAll()
      .where('id', '>', cursor - REREAD_IDS)
      .orderBy('id')
      .execute();
    const byWorkspace = new Map<string, InboxEvent[]>();
    for (const row of rows) {
      const id = Number(row.id);
      if (id <= cursor - REREAD_IDS || delivered.has(id)) continue;
      delivered.add(id);
      cursor = Math.max(cursor, id);
      if (row.origin === origin) continue;
      const events = byWorkspace.get(row.workspace_id) ?? [];
      events.push(eventOf(row));
      byWorkspace.set(row.workspace_id, events);
    }
    const floor = cursor - REREAD_IDS;
    delivered = new Set([...delivered].filter((id) => id > floor));
    for (const [workspaceId, events] of byWorkspace) deliver(workspaceId, events);
  }

  const tick = () => {
    reading = reading.then(read).catch(() => {
      // The next tick tries again (a busy or restarting database costs a moment's freshness).
    });
  };

  return {
    start(): void {
      if (timer) return;
      tick();
      timer = setInterval(tick, EVENT_POLL_MS);
      timer.unref();
    },
    stop(): void {
      clearInterval(timer);
      timer = undefined;
      cursor = null;
      delivered = new Set();
    },
    async close(): Promise<void> {
      this.stop();
      await reading;
    },
  };
}

function eventOf(row: Selectable<InboxEventTable>): InboxEvent {
  const message = row.message_id ? { message_id: row.message_id } : {};
  if (row.type === 'group') return { type: 'group', group_id: row.group_id!, ...message };
  const direction = row.direction ? { direction: row.direction as 'inbound' | 'outbound' } : {};
  return { type: row.type as ContactEvent['type'], contact_id: row.contact_id!, ...message, ...direction };
}

export type EventHub = ReturnType<typeof createEventHub>;
