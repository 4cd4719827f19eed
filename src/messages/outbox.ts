import type { FastifyBaseLogger } from 'fastify';
import type { ChannelService } from '../channels/channel.service.js';
import { GraphError, type GraphClient } from '../channels/whatsapp-cloud.js';
import { interactivePayload, templatePayload, textPayload, type Interactive } from '../channels/whatsapp-payloads.js';
import { emitStatusChanges, type StatusChange } from '../outgoing/webhook.events.js';
import type { Deps } from '../shared/context.js';
import { noteHandOff, queuedIn, type LeasedMessage, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { createWakeLoop } from '../shared/wake-loop.js';
import { messageRepository, type MessageError, type OutboxChange } from './message.repository.js';
import { queueOutbound, type MessageEvents, type OutboundMessage } from './message.service.js';
import type { TemplateContent } from './template-message.js';
import { ThroughputLimiter } from './throughput.js';

const BATCH = 200;
/** A claimed message is due again after this long, so a crash mid-send leaves it to be retried. */
const LEASE_MS = 60_000;
/** Retries back off exponentially (with jitter) up to this, for at most MAX_ATTEMPTS tries. */
const MAX_BACKOFF_MS = 15 * 60_000;
const BASE_BACKOFF_MS = 1_000;
const MAX_ATTEMPTS = 10;
/** Retries due later are found by this poll; new messages wake the outbox at once. */
const POLL_MS = 1_000;
const CONCURRENCY = 32;
/** The simulator's delivery receipts, after the send. */
const SIMULATED_DELIVERY_MS = 1_000;
const SIMULATED_READ_MS = 3_000;

/** What delivering one message changes on its row, and what to do once that is stored. */
interface Outcome {
  change: OutboxChange;
  /** A settled message's new status, announced to webhook subscribers with the change. */
  statusChange?: StatusChange;
  afterwards?: () => void;
}

type CredentialsCache = (workspaceId: string) => ReturnType<ChannelService['cloudCredentials']>;

/** Where the simulator's receipts go: the same path as Meta's status webhooks. */
export interface StatusSink {
  applyStatuses(
    caller: { workspaceId: string },
    updates: { wamid: string; status: 'delivered' | 'read'; errors: [] }[],
  ): Promise<unknown>;
  /** Applies the statuses that arrived before these sends were recorded (statuses.ts). */
  sendsRecorded(wamids: string[]): Promise<void>;
}

/**
 * The durable outbox: a send is committed (status queued, next_attempt_at set) before any
 * network call; this worker claims due messages with a lease, delivers them through the
 * workspace's channel and records the outcome. Retryable failures (429, 5xx, Meta's rate-limit
 * codes, network errors) come back with backoff; permanent ones fail the message with Meta's code.
 */
export function createOutbox(
  deps: Deps,
  channels: ChannelService,
  graph: GraphClient,
  statuses: () => StatusSink,
  events: MessageEvents = { publish: () => undefined },
  /** Wakes the workers a committed transaction queued work for (the webhook deliveries of status changes). */
  wakeFor: (work: QueuedWork) => void = () => undefined,
) {
  const { db, dialect, clock, newId } = deps;
  const limiter = new ThroughputLimiter();
  const timers = new Set<NodeJS.Timeout>();
  let log: FastifyBaseLogger | undefined;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  const leaseFromNow = () => toStoredTimestamp(new Date(clock.now().getTime() + LEASE_MS));

  /**
   * Claims the due messages in one statement: moving next_attempt_at past now is the lease, and
   * the `<= now` condition makes it exclusive (a message another process claimed is no longer due).
   */
  async function claimDue(): Promise<LeasedMessage[]> {
    const now = toStoredTimestamp(clock.now());
    const lease = leaseFromNow();
    const due = db
      .selectFrom('messages')
      .select('id')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(BATCH);
    const claimed = await db
      .updateTable('messages')
      .set((eb) => ({ next_attempt_at: lease, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .where('next_attempt_at', '<=', now)
      .returning(['id', 'workspace_id', 'contact_id', 'type', 'content', 'attempts'])
      // The recipient's number comes back with the claim: one round trip fewer per batch.
      .returning((eb) =>
        eb.selectFrom('contacts').select('phone').whereRef('contacts.id', '=', 'messages.contact_id').as('phone'),
      )
      .execute();
    return claimed.map((m) => ({ ...m, phone: m.phone! }));
  }

  async function deliver(message: LeasedMessage, credentialsOf: CredentialsCache): Promise<Outcome> {
    const credentials = await credentialsOf(message.workspace_id);
    if (!credentials) return simulate(message);
    if (credentials.messagesPerSecond > 0) await limiter.take(credentials.phoneNumberId, credentials.messagesPerSecond);
    try {
      const { wamid } = await graph.sendMessage(credentials.phoneNumberId, credentials.accessToken, payloadOf(message));
      return settled(message, { status: 'sent', provider_message_id: wamid });
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      if (error.retryable && message.attempts < MAX_ATTEMPTS) {
        const due = clock.now().getTime() + (error.retryAfterMs ?? backoff(message.attempts));
        return { change: { id: message.id, next_attempt_at: toStoredTimestamp(new Date(due)) } };
      }
      return settled(message, { status: 'failed', error: errorOf(error) });
    }
  }

  function simulate(message: LeasedMessage): Outcome {
    const wamid = `wamid.SIMULATED.${newId()}`;
    const caller = { workspaceId: message.workspace_id };
    const receipt = (status: 'delivered' | 'read') => () =>
      void statuses()
        .applyStatuses(caller, [{ wamid, status, errors: [] }])
        .catch((error: unknown) => {
          log?.error({ err: error, message_id: message.id }, 'simulated receipt failed');
        });
    return {
      ...settled(message, { status: 'sent', provider_message_id: wamid }),
      afterwards: () => {
        later(SIMULATED_DELIVERY_MS, receipt('delivered'));
        later(SIMULATED_READ_MS, receipt('read'));
      },
    };
  }

  function settled(
    message: LeasedMessage,
    result: { status: 'sent' | 'failed'; provider_message_id?: string; error?: MessageError },
  ): Outcome {
    return {
      change: { id: message.id, ...result, next_attempt_at: null, updated_at: toStoredTimestamp(clock.now()) },
      statusChange: { workspaceId: message.workspace_id, id: message.id, status: result.status },
    };
  }

  /**
   * Records a chunk's outcomes in one statement (one commit, not one per message), with the webhook
   * deliveries of their status changes (one more statement, which finds no subscriber for most workspaces).
   */
  async function record(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const queued = await db.transaction().execute(async (trx) => {
      await messageRepository(trx).applyOutboxChanges(
        dialect,
        outcomes.map((outcome) => outcome.change),
      );
      await emitStatusChanges(
        trx,
        deps,
        outcomes.flatMap((outcome) => outcome.statusChange ?? []),
      );
      return queuedIn(trx);
    });
    wakeFor(queued);
    for (const outcome of outcomes) outcome.afterwards?.();
  }

  /** Statuses that overtook these recorded sends are applied now (one look per round, not per chunk). */
  async function applyEarlyStatuses(outcomes: Outcome[]): Promise<void> {
    const wamids = outcomes.flatMap((outcome) => outcome.change.provider_message_id ?? []);
    if (wamids.length === 0) return;
    await statuses()
      .sendsRecorded(wamids)
      .catch((error: unknown) => log?.error({ err: error }, 'applying early statuses failed'));
  }

  /** Committed messages this process leased when it wrote them (queueNow), waiting for the next round. */
  const handedOff: { message: LeasedMessage; handedAt: number }[] = [];

  /**
   * The next hand-offs, oldest first. One whose lease has run half its time (a long queue behind a
   * slow rate tier) is left to its lease: once that expires any process claims it, and sending it
   * here as well could send it twice.
   */
  function nextHandOffs(): LeasedMessage[] {
    const fresh = clock.now().getTime() - LEASE_MS / 2;
    return handedOff
      .splice(0, BATCH)
      .filter((entry) => entry.handedAt > fresh)
      .map((entry) => entry.message);
  }

  /**
   * Sends the handed-off messages, else one batch of due ones; true when more may be due (after a
   * hand-off, or a full batch).
   */
  async function round(): Promise<boolean> {
    const handOffs = nextHandOffs();
    const claimed = handOffs.length > 0 ? handOffs : await claimDue();
    const credentialsOf = credentialsCache();
    const recorded: Outcome[] = [];
    for (let i = 0; i < claimed.length; i += CONCURRENCY) {
      const chunk = claimed.slice(i, i + CONCURRENCY);
      const outcomes = await Promise.all(chunk.map((message) => deliverSafely(message, credentialsOf)));
      const delivered = outcomes.filter((outcome): outcome is Outcome => outcome !== null);
      await record(delivered);
      recorded.push(...delivered);
      announce(chunk.filter((_, j) => outcomes[j] !== null));
    }
    await applyEarlyStatuses(recorded);
    return handOffs.length > 0 || handedOff.length > 0 || claimed.length === BATCH;
  }

  const loop = createWakeLoop({
    pollMs: POLL_MS,
    round,
    onError: (error) => log?.error({ err: error }, 'outbox run failed'),
  });

  /** Tells listeners (the dashboard) which messages' rows the outbox just changed, per workspace. */
  function announce(messages: LeasedMessage[]): void {
    const byWorkspace = new Map<string, LeasedMessage[]>();
    for (const message of messages) {
      const group = byWorkspace.get(message.workspace_id);
      if (group) group.push(message);
      else byWorkspace.set(message.workspace_id, [message]);
    }
    for (const [workspaceId, changed] of byWorkspace) {
      events.publish(
        workspaceId,
        changed.map((message) => ({ type: 'status', contact_id: message.contact_id, message_id: message.id })),
      );
    }
  }

  /** A workspace's channel, read (and its token decrypted) once per batch rather than per message. */
  function credentialsCache(): CredentialsCache {
    const cache = new Map<string, ReturnType<CredentialsCache>>();
    return (workspaceId) => {
      let credentials = cache.get(workspaceId);
      if (!credentials) cache.set(workspaceId, (credentials = channels.cloudCredentials(workspaceId)));
      return credentials;
    };
  }

  async function deliverSafely(message: LeasedMessage, credentialsOf: CredentialsCache): Promise<Outcome | null> {
    try {
      return await deliver(message, credentialsOf);
    } catch (error) {
      // Unexpected (a database error): the lease brings the message back later.
      log?.error({ err: error, message_id: message.id }, 'outbox delivery failed');
      return null;
    }
  }

  return {
    /** Runs the outbox now (a message was queued); concurrent wakes fold into one run. */
    wake: loop.wake,

    /**
     * Queues one message in the caller's transaction to send right after the commit (a flow's answer,
     * an API send). While this process's outbox runs, the row is written already leased to it and
     * noted as a hand-off (queued-work.ts): the commit's wake passes it to `send`, which saves the
     * claim's round trip. A crash before the send leaves it to the lease, like any claimed message.
     */
    async queueNow(trx: Deps['db'], message: OutboundMessage, phone: string): Promise<void> {
      if (!loop.started) return queueOutbound(trx, [message]);
      await queueOutbound(trx, [{ ...message, next_attempt_at: leaseFromNow(), attempts: 1 }]);
      const { id, workspace_id, contact_id, type, content } = message;
      noteHandOff(trx, { id, workspace_id, contact_id, type, content, attempts: 1, phone });
    },

    /** Sends committed hand-offs (see queueNow). */
    send(messages: readonly LeasedMessage[]): void {
      const handedAt = clock.now().getTime();
      for (const message of messages) handedOff.push({ message, handedAt });
      loop.wake();
    },

    /** Starts delivering (the server does; CLI commands only queue). */
    start(logger: FastifyBaseLogger): void {
      log = logger;
      loop.start();
    },

    /** Waits for the messages in flight; queued ones stay queued for the next start. */
    async stop(): Promise<void> {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await loop.stop();
    },

    /** Resolves when no run is in progress (tests wait for the outbox to settle). */
    idle: loop.idle,
  };
}

function payloadOf(message: LeasedMessage): object {
  // Meta advises the leading + : without it a number may be read in the business number's country.
  const to = message.phone;
  const content = JSON.parse(message.content) as Record<string, unknown>;
  if (message.type === 'text') return textPayload(to, content.body as string, content.preview_url === true);
  if (message.type === 'interactive') return interactivePayload(to, content.interactive as Interactive);
  const template = content as unknown as TemplateContent;
  return templatePayload(to, {
    name: template.template_name,
    language: template.language,
    ...(template.header && { header: template.header }),
    bodyParams: template.body_parameters,
    buttonParams: template.url_button_parameters.map((b) => ({ index: b.index, subType: 'url', param: b.text })),
  });
}

/** Exponential backoff with full jitter: spreads the retries of a burst that failed together. */
function backoff(attempts: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempts - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function errorOf(error: GraphError): MessageError {
  return { code: error.code, title: error.title, details: error.details ?? null };
}

export type Outbox = ReturnType<typeof createOutbox>;
