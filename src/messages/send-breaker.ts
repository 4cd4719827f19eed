import type { SendOutcome } from '../channels/index.js';

/** Consecutive timeouts or server errors after which a number's sends pause. */
export const TRIP_AFTER = 3;
/** The first pause; each pause that ends in more trouble doubles the next, up to MAX_PAUSE_MS. */
export const FIRST_PAUSE_MS = 5_000;
export const MAX_PAUSE_MS = 5 * 60_000;

/**
 * What one send says about its number: `trouble` when the channel did not answer or answered with a
 * server error (a timeout, a lost answer, a 5xx or an outage code), `ok` when it answered for the
 * message (accepted or refused it), `neutral` when it says nothing of the number (Meta's throughput
 * limit, which the pacer handles; an error of Parley's own).
 */
export type SendVerdict = 'ok' | 'trouble' | 'neutral';

/** The breaker's reading of a provider's outcome (null: the send failed inside Parley). */
export function verdictOf(sent: SendOutcome | null): SendVerdict {
  if (sent === null) return 'neutral';
  switch (sent.outcome) {
    case 'accepted':
    case 'failed':
      return 'ok';
    case 'unknown':
      return 'trouble';
    case 'retry':
      return sent.throttled ? 'neutral' : 'trouble';
  }
}

/**
 * One number's circuit breaker, as the outbox keeps it per process: after TRIP_AFTER troubled sends
 * in a row it opens for a pause (5 s, doubling up to 5 min while the number stays in trouble); once
 * the pause is over a single probe goes out, and its answer closes the breaker or reopens it for the
 * next, longer pause. Times are the caller's clock in milliseconds.
 */
export function createSendBreaker() {
  let troubles = 0;
  let pauses = 0;
  let openUntil = 0;

  return {
    /** How many sends may be in flight at `now`: none while paused, one probe after a pause, else `full`. */
    allowance(now: number, full: number): number {
      if (now < openUntil) return 0;
      return pauses > 0 ? 1 : full;
    },

    /** The end of the pause at `now`; null when the number may send. */
    pausedUntil(now: number): number | null {
      return now < openUntil ? openUntil : null;
    },

    /** Counts one send's verdict; returns the pause it starts (ms), if it opens the breaker. */
    record(verdict: SendVerdict, now: number): number | null {
      if (verdict === 'neutral' || now < openUntil) return null;
      if (verdict === 'ok') {
        troubles = 0;
        pauses = 0;
        return null;
      }
      troubles += 1;
      // A probe's trouble reopens at once: the number has had its TRIP_AFTER chances.
      if (troubles < TRIP_AFTER && pauses === 0) return null;
      const pauseMs = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** pauses);
      pauses += 1;
      troubles = 0;
      openUntil = now + pauseMs;
      return pauseMs;
    },

    /** True when it remembers nothing: the number's lane may be forgotten. */
    get quiet(): boolean {
      return troubles === 0 && pauses === 0;
    },
  };
}

export type SendBreaker = ReturnType<typeof createSendBreaker>;
