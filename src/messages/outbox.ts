import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelService, SendingChannel } from '../channels/channel.service.js';
import type { SendError, SendOutcome } from '../channels/provider.js';
import { emitStatusChanges, type StatusChange } from '../outgoing/webhook.events.js';
import { backoffMs } from '../shared/backoff.js';
import type { Deps } from '../shared/context.js';
import { noteHandOff, queuedIn, type LeasedMessage, type QueuedWork } from '../shared/queued-work.js';
import { toStoredTimestamp } from '../shared/time.js';
import { createWakeLoop } from '../shared/wake-loop.js';
import { messageRepository, type MessageError, type OutboxChange } from './message.repository.js';
import type { MessageEvents } from './message.service.js';
import { storedContent } from './outbound/content.js';
import { queueOutbound, type OutboundRow } from './outbound/queue.js';
import { createSendPacer, THROTTLED_PAUSE_MS } from './throughput.js';

const BATCH = 200;
/** Retries back off exponentially (with jitter) up to this, for at most MAX_ATTEMPTS tries. */
const MAX_BACKOFF_MS = 15 * 60_000;
const BASE_BACKOFF_MS = 1_000;
const MAX_ATTEMPTS = 10;
/** Retries due later are found by this poll; new messages wake the outbox at once. */
const POLL_MS = 1_000;
const CONCURRENCY = 32;
/** Outcomes the database could not take are stored again after this (doubling up to 5 s: stopping waits for it). */
const RECORD_RETRY_BASE_MS = 250;
const RECORD_RETRY_MAX_MS = 5_000;

/** What delivering one message changes on its row, and what to do once that is stored. */
interface Outcome {
  change: OutboxChange;
  /** A settled message's new status, announced to webhook subscribers with the change. */
  statusChange?: StatusChange;
  /** The channel said the contact's customer service window is closed. */
  closesWindowOf?: { workspaceId: string; contactId: string };
}

type ChannelCache = (message: LeasedMessage) => Promise<SendingChannel | null>;

/** A message queued on a channel the workspace has since removed: it must not go out from another number. */
const CHANNEL_REMOVED: MessageError = {
  code: null,
  title: 'Channel removed',
  details: 'The number this message was to be sent from was removed from the workspace before it was sent',
};

/** How long a send whose outcome is unknown waits for the channel's status before it is sent again. */
export const DEFAULT_GRACE_MS = 15 * 60_000;

/** Statuses that overtook their sends: kept by the status path (statuses.ts), applied once the sends are recorded. */
export interface EarlyStatuses {
  sendsRecorded(wamids: string[]): Promise<void>;
}

/**
 * The durable outbox: a send is committed (status queued, next_attempt_at set) before any network
 * call; this worker claims due messages with a lease, paces them, sends each through its workspace's
 * channel provider and records the outcome the provider classified: sent, failed, retried later with
 * backoff — or, when the outcome is unknown (a crash or a lost answer mid-send), left for the grace
 * period, in which a status webhook naming the message settles it (Meta has no idempotency key).
 */
export function createOutbox(
  deps: Deps,
  channels: ChannelService,
  earlyStatuses: () => EarlyStatuses,
  options: { graceMs?: number } = {},
  events: MessageEvents = { publish: () => Promise.resolve() },
  /** Wakes the workers a committed transaction queued work for (the webhook deliveries of status changes). */
  wakeFor: (work: QueuedWork) => void = () => undefined,
) {
  const { db, dialect, clock } = deps;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const pacer = createSendPacer(deps);
  let log: FastifyBaseLogger | undefined;

  /**
   * A claim's lease is the grace period: a process that dies mid-send leaves its messages' outcome
   * unknown, and they are sent again only once a status naming them had time to arrive.
   */
  const leaseFromNow = () => toStoredTimestamp(new Date(clock.now().getTime() + graceMs));

  /**
   * Claims the due messages in one statement: moving next_attempt_at past now is the lease, and
   * the `<= now` condition makes it exclusive (a message another process claimed is no longer due).
   */
  async function claimDue(): Promise<{ messages: LeasedMessage[]; lease: string }> {
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
      .returning(['id', 'workspace_id', 'contact_id', 'type', 'content', 'attempts', 'channel_id'])
      // The recipient's number and conversation channel come back with the claim: fewer round trips per batch.
      .returning((eb) => [
        eb.selectFrom('contacts').select('phone').whereRef('contacts.id', '=', 'messages.contact_id').as('phone'),
        eb
          .selectFrom('contacts')
          .select('conversation_channel_id')
          .whereRef('contacts.id', '=', 'messages.contact_id')
          .as('conversation_channel_id'),
      ])
      .execute();
    const messages = claimed.map((m) => ({
      ...m,
      phone: m.phone!,
      conversation_channel_id: m.conversation_channel_id ?? null,
    }));
    return { messages, lease };
  }

  async function deliver(message: LeasedMessage, channelOf: ChannelCache): Promise<Outcome> {
    const channel = await channelOf(message);
    if (!channel) return settled(message, { status: 'failed', error: CHANNEL_REMOVED });
    const { provider, channelId } = channel;
    if (provider.pace) await pacer.take(provider.pace.key, provider.pace.perSecond);
    const content = storedContent(message.type, message.content);
    const sent = await provider.send({ messageId: message.id, to: message.phone, message: content });
    if (sent.outcome === 'retry' && sent.throttled && provider.pace) {
      // The send's outcome is known and must be recorded even if the pause cannot be.
      await pacer
        .slowDown(provider.pace.key, sent.afterMs ?? THROTTLED_PAUSE_MS)
        .catch((error: unknown) => log?.error({ err: error }, 'pausing a throttled number failed'));
    }
    deps.signals?.sendFinished(channelId, sent.outcome);
    return outcomeOf(message, sent, channelId);
  }

  function outcomeOf(message: LeasedMessage, sent: SendOutcome, channelId: string | null): Outcome {
    const at = clock.now().getTime();
    switch (sent.outcome) {
      case 'accepted':
        return settled(message, { status: 'sent', provider_message_id: sent.providerMessageId, channel_id: channelId });
      case 'retry':
        if (message.attempts >= MAX_ATTEMPTS) return settled(message, { status: 'failed', error: errorOf(sent.error) });
        return {
          change: dueAgain(
            message,
            at + (sent.afterMs ?? backoffMs(message.attempts, BASE_BACKOFF_MS, MAX_BACKOFF_MS)),
          ),
        };
      case 'unknown':
        return { change: dueAgain(message, at + graceMs) };
      case 'failed':
        return {
          ...settled(message, { status: 'failed', error: errorOf(sent.error), channel_id: channelId }),
          ...(sent.windowClosed && {
            closesWindowOf: { workspaceId: message.workspace_id, contactId: message.contact_id },
          }),
        };
    }
  }

  const dueAgain = (message: LeasedMessage, at: number) => ({
    id: message.id,
    next_attempt_at: toStoredTimestamp(new Date(at)),
  });

  function settled(
    message: LeasedMessage,
    result: {
      status: 'sent' | 'failed';
      provider_message_id?: string;
      error?: MessageError;
      channel_id?: string | null;
    },
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
      await closeWindows(
        trx,
        outcomes.flatMap((outcome) => outcome.closesWindowOf ?? []),
      );
      return queuedIn(trx);
    });
    wakeFor(queued);
  }

  /** Marks the contacts' windows closed as the channel said (before their 24 hours seemed up). */
  async function closeWindows(trx: Deps['db'], contacts: { workspaceId: string; contactId: string }[]) {
    const at = toStoredTimestamp(clock.now());
    for (const { workspaceId, contactId } of contacts) {
      await trx
        .updateTable('contacts')
        .set({ window_closed_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', contactId)
        .execute();
    }
  }

  /**
   * Records the outcomes of sends that reached the channel. With the database away they are kept and
   * stored again (with backoff) once it answers: forgotten, they would be sent again when their lease
   * ran out. Stopping gives up, as a crash does: the lease then brings them back.
   */
  async function recordSurely(outcomes: Outcome[]): Promise<void> {
    for (let failures = 1; ; failures++) {
      try {
        return await record(outcomes);
      } catch (error) {
        if (!deps.health.failed(error) || !loop.started) throw error;
        await sleep(backoffMs(failures, RECORD_RETRY_BASE_MS, RECORD_RETRY_MAX_MS));
      }
    }
  }

  /**
   * Claimed messages that were not sent because the database went away (their channel or pace could not
   * be read), by the lease they were claimed with: due again at the next round, not after their lease.
   */
  const stranded = new Map<string, string[]>();

  function strand(message: LeasedMessage, lease: string | null): void {
    if (lease === null) return; // a hand-off: its lease brings it back
    stranded.set(lease, [...(stranded.get(lease) ?? []), message.id]);
  }

  /** Makes stranded messages due now, unless another process has claimed them since (their lease changed). */
  async function releaseStranded(): Promise<void> {
    for (const [lease, ids] of stranded) {
      await db
        .updateTable('messages')
        .set({ next_attempt_at: toStoredTimestamp(clock.now()) })
        .where('id', 'in', ids)
        .where('next_attempt_at', '=', lease)
        .execute();
      stranded.delete(lease);
    }
  }

  /** Statuses that overtook these recorded sends are applied now (one look per round, not per chunk). */
  async function applyEarlyStatuses(outcomes: Outcome[]): Promise<void> {
    const wamids = outcomes.flatMap((outcome) => outcome.change.provider_message_id ?? []);
    if (wamids.length === 0) return;
    await earlyStatuses()
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
    const fresh = clock.now().getTime() - graceMs / 2;
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
    await releaseStranded();
    const handOffs = nextHandOffs();
    const { messages: claimed, lease } = handOffs.length > 0 ? { messages: handOffs, lease: null } : await claimDue();
    const channelOf = channelCache();
    const recorded: Outcome[] = [];
    for (let i = 0; i < claimed.length; i += CONCURRENCY) {
      const chunk = claimed.slice(i, i + CONCURRENCY);
      const outcomes = await Promise.all(chunk.map((message) => deliverSafely(message, channelOf, lease)));
      const delivered = outcomes.filter((outcome): outcome is Outcome => outcome !== null);
      await recordSurely(delivered);
      recorded.push(...delivered);
      await announce(chunk.filter((_, j) => outcomes[j] !== null));
    }
    await applyEarlyStatuses(recorded);
    return handOffs.length > 0 || handedOff.length > 0 || claimed.length === BATCH;
  }

  const loop = createWakeLoop({
    pollMs: POLL_MS,
    round,
    onError: (error) => {
      if (!deps.health.failed(error)) log?.error({ err: error }, 'outbox run failed');
    },
  });

  /**
   * Tells listeners (the dashboard) which messages' rows the outbox just changed, per workspace. The
   * events are hints to reload: one lost (the database away) must not hold back the round's other sends.
   */
  async function announce(messages: LeasedMessage[]): Promise<void> {
    await publishChanges(messages).catch((error: unknown) => {
      if (!deps.health.failed(error)) log?.error({ err: error }, 'announcing sends failed');
    });
  }

  async function publishChanges(messages: LeasedMessage[]): Promise<void> {
    const byWorkspace = new Map<string, LeasedMessage[]>();
    for (const message of messages) {
      const group = byWorkspace.get(message.workspace_id);
      if (group) group.push(message);
      else byWorkspace.set(message.workspace_id, [message]);
    }
    for (const [workspaceId, changed] of byWorkspace) {
      await events.publish(
        workspaceId,
        changed.map((message) => ({ type: 'status', contact_id: message.contact_id, message_id: message.id })),
      );
    }
  }

  /** A message's channel and provider, read (and its token decrypted) once per batch rather than per message. */
  function channelCache(): ChannelCache {
    const cache = new Map<string, Promise<SendingChannel | null>>();
    return ({ workspace_id, channel_id, conversation_channel_id }) => {
      const key = `${workspace_id} ${channel_id ?? ''} ${channel_id ? '' : (conversation_channel_id ?? '')}`;
      let channel = cache.get(key);
      if (!channel) {
        cache.set(key, (channel = channels.sendingChannel(workspace_id, channel_id, conversation_channel_id)));
      }
      return channel;
    };
  }

  /** A message delivered, or null when an error came before its send (it was not sent). */
  async function deliverSafely(message: LeasedMessage, channelOf: ChannelCache, lease: string | null) {
    try {
      return await deliver(message, channelOf);
    } catch (error) {
      if (deps.health.failed(error)) {
        strand(message, lease);
      } else {
        // Unexpected: the lease brings the message back later.
        log?.error({ err: error, message_id: message.id }, 'outbox delivery failed');
      }
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
    async queueNow(
      trx: Deps['db'],
      message: OutboundRow,
      contact: { phone: string; conversation_channel_id: string | null },
    ): Promise<void> {
      if (!loop.started) return queueOutbound(trx, [message]);
      await queueOutbound(trx, [{ ...message, next_attempt_at: leaseFromNow(), attempts: 1 }]);
      const { id, workspace_id, contact_id, type, content, channel_id } = message;
      const { phone, conversation_channel_id } = contact;
      noteHandOff(trx, {
        ...{ id, workspace_id, contact_id, type, content, attempts: 1 },
        ...{ phone, channel_id, conversation_channel_id },
      });
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
      await loop.stop();
    },

    /** Resolves when no run is in progress (tests wait for the outbox to settle). */
    idle: loop.idle,
  };
}

function errorOf(error: SendError): MessageError {
  return { code: error.code, title: error.title, details: error.details };
}

export type Outbox = ReturnType<typeof createOutbox>;
