import type { FastifyBaseLogger } from 'fastify';
import type { ChannelService, SendingChannel, SendOutcome } from '../channels/index.js';
import { isMarketing, storedContent } from '../content/message-content.js';
import type { Deps } from '../db/deps.js';
import { noteHandOff, type Address, type LeasedMessage, type QueuedWork } from '../shared/queued-work.js';
import { createWakeLoop } from '../shared/wake-loop.js';
import type { MessageEvents } from './message.service.js';
import { queueOutbound, type GroupOutboundRow, type OutboundRow } from './outbound/queue.js';
import { CLAIM_BATCH, createOutboxClaims } from './outbox-claims.js';
import { createOutboxLanes, type Held } from './outbox-lanes.js';
import { channelRemovedOutcome, outcomeOf } from './outbox-outcome.js';
import { createOutcomeRecorder, type EarlyStatuses } from './outbox-record.js';
import { verdictOf, type SendVerdict } from './send-breaker.js';
import { createSendPacer, THROTTLED_PAUSE_MS } from './throughput.js';

/** Retries due later are found by this poll; new messages wake the outbox at once. */
const POLL_MS = 1_000;
/** Claimed messages this process holds in its lanes at most (waiting or in flight). */
const MAX_HELD = 2_000;

type ChannelCache = (message: LeasedMessage) => Promise<SendingChannel | null>;

/** A leased message reaching this process's outbox (claimed, or handed off) at `heldAt` (clock ms). */
interface Arrival {
  message: LeasedMessage;
  heldAt: number;
}

/** How long a send whose outcome is unknown waits for the channel's status before it is sent again. */
export const DEFAULT_GRACE_MS = 15 * 60_000;

/**
 * The durable outbox: a send is committed (status queued, next_attempt_at set) before any network
 * call; this worker claims due messages with a lease, paces them, sends each through its workspace's
 * channel provider and records the outcome the provider classified: sent, failed, retried later with
 * backoff — or, when the outcome is unknown (a crash or a lost answer mid-send), left for the grace
 * period, in which a status webhook naming the message settles it (Meta has no idempotency key).
 * Each number sends on a lane of its own (outbox-lanes.ts): a number that hangs or fails, paused by
 * its circuit breaker, never holds back another.
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
  const { clock } = deps;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const pacer = createSendPacer(deps);
  let log: FastifyBaseLogger | undefined;

  const claims = createOutboxClaims(deps, graceMs);

  /**
   * Sends one held message (its slot is taken); resolves once the channel answered, with what that
   * says about the number and the recording of the outcome.
   */
  async function deliver({ message, channel }: Held): Promise<{ verdict: SendVerdict; recorded: Promise<void> }> {
    let sent: SendOutcome | null = null;
    try {
      sent = await sendThrough(message, channel);
    } catch (error) {
      unsent(message, error);
      return { verdict: 'neutral', recorded: Promise.resolve() };
    }
    const recorded = recordOutcome({
      message,
      outcome: outcomeOf(message, sent, channel.channelId, { nowMs: clock.now().getTime(), graceMs }),
    }).catch((error: unknown) => unrecorded(message, error));
    return { verdict: verdictOf(sent), recorded };
  }

  /**
   * An error before the message reached the channel. The database away (its channel, pace or content
   * could not be read): it is due again at the next round, not only once its lease runs out. Anything
   * else is unexpected: logged, and the lease brings the message back later.
   */
  function unsent(message: LeasedMessage, error: unknown): void {
    if (deps.health.failed(error)) claims.strand(message);
    else log?.error({ err: error, message_id: message.id }, 'outbox delivery failed');
  }

  /**
   * A send's outcome was not recorded (the outbox stopped while the database was away, or an unexpected
   * error): its lease brings the message back, for a status naming it to settle it meanwhile.
   */
  function unrecorded(message: LeasedMessage, error: unknown): void {
    const fields = { err: error, message_id: message.id };
    if (deps.health.failed(error)) log?.warn(fields, 'stopped before the outcome of a send could be recorded');
    else log?.error(fields, 'recording the outcome of a send failed');
  }

  async function sendThrough(message: LeasedMessage, channel: SendingChannel): Promise<SendOutcome> {
    const { provider, channelId } = channel;
    const content = storedContent(message.type, message.content);
    const sent = await provider.send({
      messageId: message.id,
      to: message.to,
      toGroup: message.toGroup,
      message: content,
      // Meta's Marketing Messages API takes marketing templates only; the rest stay on Cloud API.
      marketingMessages: channel.marketingMessages && isMarketing(content),
    });
    if (sent.outcome === 'retry' && sent.throttled && provider.pace) {
      // The send's outcome is known and must be recorded even if the pause cannot be.
      await pacer
        .slowDown(provider.pace.key, sent.afterMs ?? THROTTLED_PAUSE_MS)
        .catch((error: unknown) => logUnlessOutage(error, 'pausing a throttled number failed'));
    }
    deps.signals?.sendFinished(channelId, sent.outcome);
    return sent;
  }

  const recordOutcome = createOutcomeRecorder(
    deps,
    earlyStatuses,
    events,
    wakeFor,
    () => log,
    () => loop.started,
  );

  /** Committed messages this process leased when it wrote them (queueNow), waiting for the next round. */
  let handedOff: Arrival[] = [];

  /**
   * Puts the handed-off messages on their lanes, else claims due ones for the lanes with room; true
   * when more may be due and can be taken (after a hand-off, or a full batch while no lane is full). Sending happens on the lanes: a round
   * never waits for a send, so one number's slow sends hold back no other number's. Messages an
   * outage stranded are made due first.
   */
  async function round(): Promise<boolean> {
    await claims.releaseStranded();
    if (handedOff.length > 0) {
      const handOffs = handedOff;
      handedOff = [];
      // Sent right after their commit (replies, API sends): ahead of what the lanes hold from claims.
      await dispatch(handOffs, { first: true });
      return true;
    }
    if (!lanes.haveRoom()) return false;
    // Numbers Meta disconnected are skipped like full or paused ones: their messages wait, queued.
    const claimed = await claims.claimDue([...lanes.skipped(), ...(await channels.disconnectedChannelIds())]);
    const heldAt = clock.now().getTime();
    await dispatch(claimed.map((message) => ({ message, heldAt })));
    // Claiming again at once pays only while no lane is full: a claim that must skip a full lane
    // scans past its backlog. A full lane wakes the loop when it has room; the poll finds the others.
    return claimed.length === CLAIM_BATCH && lanes.skipped().length === 0;
  }

  /**
   * Finds each message's channel and puts it on that number's lane; a removed channel fails it, a number
   * Meta disconnected hands it back to wait (its claims skip it until the number is connected again).
   */
  async function dispatch(arrivals: Arrival[], order: { first?: boolean } = {}): Promise<void> {
    const channelOf = channelCache();
    const settled: Promise<void>[] = [];
    await Promise.all(
      arrivals.map(async ({ message, heldAt }) => {
        const channel = await channelOf(message).catch((error: unknown) => unsent(message, error));
        if (channel === null) {
          settled.push(recordOutcome({ message, outcome: channelRemovedOutcome(message, clock.now().getTime()) }));
        } else if (channel?.disconnected) {
          settled.push(release([message], clock.now().getTime()));
        } else if (channel) lanes.add({ message, channel, heldAt }, order);
      }),
    );
    await Promise.all(settled);
  }

  const loop = createWakeLoop({
    pollMs: POLL_MS,
    round,
    onError: (error) => logUnlessOutage(error, 'outbox run failed'),
  });

  /** Logs an error, unless it is the database being away (the database's health logs that once per outage). */
  function logUnlessOutage(error: unknown, message: string): void {
    if (!deps.health.failed(error)) log?.error({ err: error }, message);
  }

  const lanes = createOutboxLanes({
    clock,
    pacer,
    staleAfterMs: graceMs / 2,
    maxHeld: MAX_HELD,
    send: deliver,
    release,
    unsent: ({ message }, error) => unsent(message, error),
    paused: pauseNumber,
    onRoom: () => loop.wake(),
  });

  /**
   * Hands claimed messages that were never given to the channel back to the queue, due at `atMs`
   * (the claim's attempt is given back too). If this fails, their lease brings them back.
   */
  async function release(messages: LeasedMessage[], atMs: number): Promise<void> {
    await claims
      .release(messages, atMs)
      .catch((error: unknown) => logUnlessOutage(error, 'handing messages back to the outbox failed'));
  }

  /** A number in trouble pauses in every process: its next send slot moves past the pause (throughput.ts). */
  async function pauseNumber({ message, channel }: Held, pauseMs: number): Promise<void> {
    log?.warn(
      { channel_id: channel.channelId, workspace_id: message.workspace_id, pause_ms: pauseMs },
      'number paused: its sends time out or fail on the channel side',
    );
    deps.signals?.numberPaused(channel.channelId);
    const { pace } = channel.provider;
    if (!pace) return;
    await pacer
      .slowDown(pace.key, pauseMs)
      .catch((error: unknown) => logUnlessOutage(error, 'pausing a number in trouble failed'));
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
      message: OutboundRow | GroupOutboundRow,
      recipient: Address & { conversation_channel_id: string | null },
    ): Promise<void> {
      if (!loop.started) return queueOutbound(trx, [message]);
      const lease = claims.leaseFromNow();
      await queueOutbound(trx, [{ ...message, next_attempt_at: lease, attempts: 1 }]);
      const { id, workspace_id, contact_id, group_id, type, content, channel_id } = message;
      const { to, toGroup, conversation_channel_id } = recipient;
      noteHandOff(trx, {
        ...{ id, workspace_id, contact_id, group_id, type, content, attempts: 1 },
        ...{ to, toGroup, channel_id, conversation_channel_id, lease },
      });
    },

    /** Sends committed hand-offs (see queueNow). */
    send(messages: readonly LeasedMessage[]): void {
      const heldAt = clock.now().getTime();
      for (const message of messages) handedOff.push({ message, heldAt });
      loop.wake();
    },

    /** Starts delivering (the server does; CLI commands only queue). */
    start(logger: FastifyBaseLogger): void {
      log = logger;
      lanes.start();
      loop.start();
    },

    /**
     * Waits for the messages in flight and for their outcomes to be recorded; claimed messages not yet
     * sent go back to the queue, for another process or the next start.
     */
    async stop(): Promise<void> {
      await loop.stop();
      await lanes.stop();
    },

    /** Resolves when no run or send (with its recording) is in progress (tests wait for the outbox to settle). */
    async idle(): Promise<void> {
      while (loop.running || lanes.busy) {
        await loop.idle();
        await lanes.idle();
      }
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
