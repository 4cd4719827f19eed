/**
 * What a transaction queued for the background workers: outbound messages (the outbox), jobs (the
 * scheduler) and webhook deliveries (the webhook worker). The code that writes those rows notes it
 * against the transaction handle; after the commit, the caller wakes only the workers it gave work
 * to. A needless wake costs the worker a query, and on the reply path such queries compete with the
 * outbox's for the same cores.
 */
export type WorkKind = 'messages' | 'jobs' | 'deliveries';

/** An outbound message leased to this process's outbox, with what it needs to send it. */
export type LeasedMessage = {
  id: string;
  workspace_id: string;
  /** Null for a group's message. */
  contact_id: string | null;
  /** The WhatsApp group whose conversation it is in; null for a contact's message. */
  group_id: string | null;
  type: string;
  content: string;
  attempts: number;
} & Address & {
    /** The channel the sender named; null: the contact's conversation channel, else the default. */
    channel_id: string | null;
    conversation_channel_id: string | null;
    /** The next_attempt_at its claim wrote (stored form): while it holds, no other process claims the message. */
    lease: string;
  };

/** Where the outbox sends a message: a contact's number (or BSUID), or a WhatsApp group's id. */
export interface Address {
  to: string;
  toGroup: boolean;
}

export interface QueuedWork {
  kinds: ReadonlySet<WorkKind>;
  /** Messages written already leased to this process's outbox, to send without claiming them. */
  handOffs: readonly LeasedMessage[];
}

const queued = new WeakMap<object, { kinds: Set<WorkKind>; handOffs: LeasedMessage[] }>();

function entryOf(trx: object) {
  let entry = queued.get(trx);
  if (!entry) queued.set(trx, (entry = { kinds: new Set(), handOffs: [] }));
  return entry;
}

/** Notes that `trx` wrote work for a worker (read back after the commit with `queuedIn`). */
export function noteQueued(trx: object, kind: WorkKind): void {
  entryOf(trx).kinds.add(kind);
}

/** Notes a message `trx` wrote already leased to this process's outbox. */
export function noteHandOff(trx: object, message: LeasedMessage): void {
  const entry = entryOf(trx);
  entry.kinds.add('messages');
  entry.handOffs.push(message);
}

/** The work a transaction queued; nothing when it queued none. */
export function queuedIn(trx: object): QueuedWork {
  return queued.get(trx) ?? { kinds: new Set(), handOffs: [] };
}
