import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { failedRoundRestMs } from './backoff.js';

/**
 * A background worker's run loop: it runs a round when woken (after a commit that gave it work) and
 * every `pollMs` (for work other processes queued). Wakes during a round fold into one more round,
 * so callers may wake it as often as they like; a round that says more is waiting is followed at once.
 * A round that fails is followed by a rest with backoff (wakes meanwhile are dropped; the poll after
 * the rest runs the next round), so an outage costs a few failed rounds rather than one per poll.
 */
export function createWakeLoop(options: {
  pollMs: number;
  /** One round of work; true when it stopped at its batch size and more may be due. */
  round: () => Promise<boolean>;
  onError: (error: unknown) => void;
}) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let poll: NodeJS.Timeout | undefined;
  let failures = 0;
  let restUntil = 0;

  function failed(error: unknown): void {
    failures += 1;
    restUntil = Date.now() + failedRoundRestMs(failures);
    options.onError(error);
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      if (await options.round()) again = true;
      // On SQLite a round never waits on I/O: without this, rounds back to back would hold the event loop.
      if (again) await yieldToEventLoop();
    } while (again && !stopped);
  }

  const loop = {
    wake: (): void => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      if (Date.now() < restUntil) return;
      running = drain()
        .then(() => {
          failures = 0;
        }, failed)
        .finally(() => {
          running = null;
        });
    },

    start(): void {
      if (!stopped) return;
      stopped = false;
      poll = setInterval(() => loop.wake(), options.pollMs);
      poll.unref();
      loop.wake();
    },

    /** Stops polling and waits for the round in flight. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(poll);
      await running;
    },

    /** Resolves when no round is in progress. */
    idle: async (): Promise<void> => {
      while (running) await running;
    },

    get started(): boolean {
      return !stopped;
    },

    /** True while a round is in progress. */
    get running(): boolean {
      return running !== null;
    },
  };
  return loop;
}
