import type { SendingChannel } from '../channels/index.js';
import type { Clock } from '../shared/clock.js';
import type { LeasedMessage } from '../shared/queued-work.js';
import { createSendBreaker, type SendBreaker, type SendVerdict } from './send-breaker.js';
import type { SendPacer } from './throughput.js';

/** Sends in flight on a lane without a pace (the simulator), and on any lane before its answers come back. */
const BASE_CONCURRENCY = 32;
/**
 * A paced number may keep one second's worth of sends in flight, so it holds its pace while the Graph
 * API takes up to a second to answer (Meta's top tier, 1,000 sends a second of 100–300 ms each, needs
 * 100–300) — but only as many more than BASE_CONCURRENCY as it was answered in the last second: a number
 * whose sends hang is not handed a second's worth of them before its breaker sees the failures.
 */
const MAX_PACED_CONCURRENCY = 1_000;
/**
 * How far ahead of now a lane reserves its number's send slots: a reply queued behind a campaign waits
 * for the slots reserved before it, so reserving one second's worth would make it wait a second.
 */
const SLOTS_AHEAD_MS = 100;

/** A claimed message on its way out through `channel`, held since `heldAt` (the clock's ms). */
export interface Held {
  message: LeasedMessage;
  channel: SendingChannel;
  heldAt: number;
}

export interface LaneOptions {
  clock: Clock;
  pacer: SendPacer;
  /** Held messages older than this are left to their lease (another process may claim them by then). */
  staleAfterMs: number;
  /** Messages held in all lanes together at most: beyond it the outbox claims no more. */
  maxHeld: number;
  /**
   * Sends one message; resolves once the channel answered, with what that says about the number and
   * the recording of the outcome (which never rejects).
   */
  send(held: Held): Promise<{ verdict: SendVerdict; recorded: Promise<void> }>;
  /** Hands unsent messages back to the queue, due at `atMs`; they were never given to the channel. */
  release(messages: LeasedMessage[], atMs: number): Promise<void>;
  /** A send slot could not be taken (the pacer's database away): the message was never given to the channel. */
  unsent(held: Held, error: unknown): void;
  /** The breaker of `held`'s number opened for `pauseMs`: every process should hold off too. */
  paused(held: Held, pauseMs: number): Promise<void>;
  /** A number the claims were skipping has room again: claim more. */
  onRoom(): void;
}

interface Lane {
  key: string;
  concurrency: number;
  waiting: Held[];
  /** How many at the front of `waiting` were handed off (first come, first sent among themselves). */
  handedOff: number;
  /** Sends the channel has not answered yet: bounded by the concurrency. */
  inFlight: number;
  /** Of those, the sends still waiting for their send slot: bounded by `slotsAhead`. */
  pacing: number;
  slotsAhead: number;
  /** When the channel answered the lane's sends of the last second (oldest first). */
  answeredAt: number[];
  /** Sends answered whose outcome is still being recorded: held, but no longer using the channel. */
  recording: number;
  breaker: SendBreaker;
}

/**
 * The lane of a message: its number (channel), or a workspace's built-in simulator. The claim's SQL
 * (`laneKeySql` in outbox.ts) computes the same key to skip full and paused lanes.
 */
export function laneKey(message: LeasedMessage, channel: SendingChannel): string {
  return channel.channelId ?? `simulator ${message.workspace_id}`;
}

/**
 * Every number sends on a lane of its own, so a number that hangs or fails never delays another: at
 * most `concurrency` sends in flight (one second's worth at its pace, up to MAX_PACED_CONCURRENCY), paced
 * through the shared pacer, with a circuit breaker (send-breaker.ts) that pauses a number in trouble.
 * A lane holding twice its concurrency is full; the claims skip full and paused lanes.
 */
export function createOutboxLanes(options: LaneOptions) {
  const { clock, pacer } = options;
  const lanes = new Map<string, Lane>();
  /** Lanes the last claim skipped, to be told when they have room. */
  let skipped = new Set<string>();
  const running = new Set<Promise<void>>();
  /**
   * Ids of the messages this process holds, from their lane until their outcome is written (or they are
   * handed back). A claim can find one again when its lease runs out mid-send: sending it twice would be
   * worse than letting the holder's outcome decide.
   */
  const holding = new Set<string>();
  let stopping = false;
  /** The outbox stopped claiming because every lane together held maxHeld. */
  let atMax = false;

  const now = () => clock.now().getTime();
  const heldIn = (lane: Lane) => lane.waiting.length + lane.inFlight + lane.recording;
  const isFull = (lane: Lane) => heldIn(lane) >= 2 * lane.concurrency;

  function laneOf(key: string, channel: SendingChannel): Lane {
    let lane = lanes.get(key);
    if (!lane)
      lanes.set(
        key,
        (lane = {
          key,
          concurrency: 1,
          waiting: [],
          handedOff: 0,
          inFlight: 0,
          pacing: 0,
          slotsAhead: 1,
          answeredAt: [],
          recording: 0,
          breaker: createSendBreaker(),
        }),
      );
    const pace = channel.provider.pace;
    lane.concurrency = pace
      ? Math.max(1, Math.min(MAX_PACED_CONCURRENCY, Math.ceil(pace.perSecond)))
      : BASE_CONCURRENCY;
    lane.slotsAhead = pace ? Math.max(1, Math.ceil((pace.perSecond * SLOTS_AHEAD_MS) / 1000)) : Infinity;
    return lane;
  }

  /** Takes every waiting message off the lane. */
  function emptied(lane: Lane): Held[] {
    lane.handedOff = 0;
    return lane.waiting.splice(0);
  }

  /** Sends the lane may have in flight now: its concurrency, grown to as its number answers (see MAX_PACED_CONCURRENCY). */
  function allowedInFlight(lane: Lane, at: number): number {
    while (lane.answeredAt.length > 0 && lane.answeredAt[0]! <= at - 1000) lane.answeredAt.shift();
    const earned = Math.min(lane.concurrency, BASE_CONCURRENCY + lane.answeredAt.length);
    return lane.breaker.allowance(at, earned);
  }

  /** Starts as many of the lane's waiting sends as its breaker, pace and concurrency allow. */
  function pump(lane: Lane): void {
    while (lane.waiting.length > 0 && lane.pacing < lane.slotsAhead && lane.inFlight < allowedInFlight(lane, now())) {
      const held = lane.waiting.shift()!;
      lane.handedOff = Math.max(0, lane.handedOff - 1);
      lane.inFlight += 1;
      track(sendOne(lane, held));
    }
    if (heldIn(lane) === 0 && lane.breaker.quiet) lanes.delete(lane.key);
  }

  function track(work: Promise<unknown>): void {
    const run = work.then(() => undefined).finally(() => running.delete(run));
    running.add(run);
  }

  function heldInAll(): number {
    let count = 0;
    for (const lane of lanes.values()) count += heldIn(lane);
    return count;
  }

  async function sendOne(lane: Lane, held: Held): Promise<void> {
    try {
      await sendAndRecord(lane, held);
    } finally {
      holding.delete(held.message.id);
    }
  }

  async function sendAndRecord(lane: Lane, held: Held): Promise<void> {
    let recorded: Promise<void> | undefined;
    try {
      const { pace } = held.channel.provider;
      if (pace && !(await slotTaken(lane, held, pace))) return;
      // Decided after the wait for a slot: the number may have been paused meanwhile.
      const pausedUntil = lane.breaker.pausedUntil(now());
      if (pausedUntil !== null || stopping) {
        await options.release([held.message], pausedUntil ?? now());
        return;
      }
      // A message held this long may be claimed by another process once its lease ends: sending it
      // here too could send it twice. Its lease brings it back.
      if (now() - held.heldAt > options.staleAfterMs) return;
      const sent = await options.send(held);
      lane.answeredAt.push(now());
      recorded = sent.recorded;
      const pause = lane.breaker.record(sent.verdict, now());
      if (pause !== null) await pauseLane(lane, held, pause);
    } finally {
      // The channel has answered: its slot is free while the outcome is written.
      lane.inFlight -= 1;
      if (recorded !== undefined) lane.recording += 1;
      pump(lane);
    }
    if (recorded !== undefined) {
      await recorded;
      lane.recording -= 1;
    }
    afterSend(lane);
  }

  /** Waits for the number's next send slot; false when none could be taken (the message is then `unsent`). */
  async function slotTaken(lane: Lane, held: Held, pace: { key: string; perSecond: number }): Promise<boolean> {
    lane.pacing += 1;
    try {
      await pacer.take(pace.key, pace.perSecond);
      return true;
    } catch (error) {
      options.unsent(held, error);
      return false;
    } finally {
      lane.pacing -= 1;
      pump(lane);
    }
  }

  /** The breaker opened: the lane's waiting messages go back to the queue until the pause ends. */
  async function pauseLane(lane: Lane, held: Held, pauseMs: number): Promise<void> {
    const waiting = emptied(lane);
    for (const entry of waiting) holding.delete(entry.message.id);
    await Promise.all([
      options.paused(held, pauseMs),
      waiting.length > 0 &&
        options.release(
          waiting.map((entry) => entry.message),
          now() + pauseMs,
        ),
    ]);
  }

  function afterSend(lane: Lane): void {
    pump(lane);
    if (skipped.has(lane.key) && heldIn(lane) <= lane.concurrency) {
      skipped.delete(lane.key);
      options.onRoom();
    } else if (atMax && heldInAll() <= options.maxHeld / 2) {
      atMax = false;
      options.onRoom();
    }
  }

  return {
    /**
     * Puts a claimed message on its number's lane (or back in the queue, while the number is paused);
     * `first`: ahead of what the lane holds (a reply or an API send, not to wait behind a campaign).
     */
    add(held: Held, { first = false } = {}): void {
      if (holding.has(held.message.id)) return;
      const lane = laneOf(laneKey(held.message, held.channel), held.channel);
      const pausedUntil = lane.breaker.pausedUntil(now());
      if (pausedUntil !== null) return track(options.release([held.message], pausedUntil));
      holding.add(held.message.id);
      if (first) lane.waiting.splice(lane.handedOff++, 0, held);
      else lane.waiting.push(held);
      pump(lane);
    },

    /** The lanes the next claim should skip: full, or paused. */
    skipped(): string[] {
      const at = now();
      const keys = [...lanes.values()].filter((lane) => isFull(lane) || lane.breaker.pausedUntil(at) !== null);
      skipped = new Set(keys.map((lane) => lane.key));
      return [...skipped];
    },

    /** False when the lanes hold maxHeld messages: claim nothing until they have sent half. */
    haveRoom(): boolean {
      atMax = heldInAll() >= options.maxHeld;
      return !atMax;
    },

    /** Resolves when no send or release is under way. */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all(running);
    },

    get busy(): boolean {
      return running.size > 0;
    },

    /** Sends again after a stop. */
    start(): void {
      stopping = false;
    },

    /** Hands the waiting messages back (due at once, for another process or the next start) and waits for the sends in flight. */
    async stop(): Promise<void> {
      stopping = true;
      const waiting = [...lanes.values()].flatMap((lane) => emptied(lane).map((held) => held.message));
      for (const message of waiting) holding.delete(message.id);
      if (waiting.length > 0) await options.release(waiting, now());
      while (running.size > 0) await Promise.all(running);
    },
  };
}

export type OutboxLanes = ReturnType<typeof createOutboxLanes>;
