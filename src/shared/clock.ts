/** Source of the current time; injected everywhere so tests can run days of schedule instantly. */
export interface Clock {
  now(): Date;
}

/**
 * Wall-clock time that never goes backwards (an NTP step back would otherwise give new records
 * an earlier created_at than records already polled, and the polling rule would skip them).
 */
let lastSystemTime = 0;
export const systemClock: Clock = {
  now: () => {
    lastSystemTime = Math.max(lastSystemTime, Date.now());
    return new Date(lastSystemTime);
  },
};

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
