import { setTimeout as delay } from 'node:timers/promises';
import type { components } from './schema.js';

type Problem = components['schemas']['Problem'];

/** An API answer that retrying cannot change (401, 403, 400, 404…), with its problem details. */
export class ParleyApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(`Parley API answered ${status}${problem?.detail ? `: ${problem.detail}` : ''}`);
    this.name = 'ParleyApiError';
  }
}

/** Waits `ms`; rejects with an AbortError when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/** What openapi-fetch resolves to. */
interface FetchResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/**
 * Runs a request until it succeeds: after a 429 it waits as long as Retry-After says; after a
 * network error or a 5xx it backs off exponentially (1 s doubling to 60 s). Other errors throw a
 * ParleyApiError. Each retried failure is reported to `onError` first.
 */
export function retrying(options: { sleep: Sleep; signal?: AbortSignal; onError?: (error: unknown) => void }) {
  const { sleep, signal, onError } = options;
  return async function call<Data>(request: () => Promise<FetchResult<Data>>): Promise<Data> {
    for (let failures = 0; ;) {
      let result: FetchResult<Data>;
      try {
        result = await request();
      } catch (error) {
        if (signal?.aborted) throw error;
        onError?.(error);
        await sleep(backoff(++failures), signal);
        continue;
      }
      const { response } = result;
      if (response.ok) return result.data as Data;
      const error = new ParleyApiError(response.status, result.error as Problem | undefined);
      if (response.status !== 429 && response.status < 500) throw error;
      onError?.(error);
      await sleep(response.status === 429 ? retryAfterMs(response) : backoff(++failures), signal);
    }
  };
}

function backoff(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failures - 1));
}

/** Retry-After in seconds or as an HTTP date; a 429 without one waits like a first failure. */
function retryAfterMs(response: Response): number {
  const header = response.headers.get('retry-after') ?? '';
  const seconds = Number(header);
  if (header !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? FIRST_BACKOFF_MS : Math.max(0, date - Date.now());
}
