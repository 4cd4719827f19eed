import type { ParleyClient } from './index.js';
import { realSleep, retrying, type Sleep } from './retry.js';
import type { components, paths } from './schema.js';
import type { CursorStore } from './store.js';

/** The polling feeds: the spec's four (§4 Triggers) and WhatsApp Flows' answers. */
export type Trigger =
  | 'new-message-received'
  | 'new-campaign-sent'
  | 'new-flow-triggered'
  | 'new-sequence-triggered'
  | 'new-whatsapp-flow-answer';

/** The record each feed returns. */
export interface TriggerRecords {
  'new-message-received': components['schemas']['MessageReceivedRecord'];
  'new-campaign-sent': components['schemas']['CampaignSentRecord'];
  'new-flow-triggered': components['schemas']['FlowTriggeredRecord'];
  'new-sequence-triggered': components['schemas']['SequenceTriggeredRecord'];
  'new-whatsapp-flow-answer': components['schemas']['WhatsappFlowAnswerRecord'];
}

type FeedPath = `/v1/triggers/${Trigger}`;
type FeedQuery<T extends Trigger> = NonNullable<paths[`/v1/triggers/${T}`]['get']['parameters']['query']>;

/** A feed's filter: message_type, flow_id or sequence_id (the campaign feed has none). */
export type TriggerFilter<T extends Trigger> = Omit<FeedQuery<T>, 'paginate' | 'cursor' | 'limit'>;

export interface PollOptions<T extends Trigger> {
  /**
   * Called once for each new record, oldest first; the next waits until it settles. If it throws,
   * `poll` rejects with that error and the record is delivered again when polling restarts.
   */
  onRecord: (record: TriggerRecords[T]) => unknown;
  /** Remembers the last delivered id per workspace, feed and filter, across restarts. */
  store: CursorStore;
  filter?: TriggerFilter<T>;
  /** Stops polling: `poll` resolves once the record being handled (if any) is stored. */
  signal?: AbortSignal;
  /** Milliseconds between polls. Default: the workspace's interval from GET /v1/me (1 s if it has none). */
  interval?: number;
  /**
   * The first time a feed is polled (nothing stored), also deliver up to this many of its latest
   * records (at most 500). Default 0: start from now and deliver only records that arrive later.
   */
  backfill?: number;
  /** Told about each transient failure (network error, 5xx, 429) before it is retried. */
  onError?: (error: unknown) => void;
  /** Replaces the timer, e.g. to run on a test's clock. */
  sleep?: Sleep;
}

/** Records per page when following a backlog (the server's maximum). */
const PAGE_LIMIT = 500;
/** Records on the first page of each poll: the feed's default size, usually more than enough. */
const FIRST_PAGE_LIMIT = 100;
/** Interval for workspaces whose polls are not limited (poll interval 0). */
const UNLIMITED_INTERVAL_MS = 1_000;

interface Page<R> {
  data: R[];
  next_cursor: string | null;
}

/**
 * Polls a trigger feed until `signal` aborts, handing every new record to `onRecord` exactly once,
 * oldest first, and storing its id once handled (so a restart resumes after it). Each poll reads
 * the feed newest first, following cursor pages until it meets the last delivered id, so a
 * backlog larger than a page is not skipped. Waits the workspace interval between polls,
 * Retry-After after a 429 and a growing backoff after network errors and 5xx.
 */
export async function poll<T extends Trigger>(
  client: ParleyClient,
  trigger: T,
  options: PollOptions<NoInfer<T>>,
): Promise<void> {
  const { signal, store } = options;
  const sleep = options.sleep ?? realSleep;
  const call = retrying({ sleep, signal, onError: options.onError });
  try {
    const me = await call(() => client.GET('/v1/me', { signal }));
    const interval = options.interval ?? (me.workspace.poll_interval_seconds * 1000 || UNLIMITED_INTERVAL_MS);
    const key = storeKey(me.workspace.id, trigger, options.filter);
    // With paginate=cursor the answer is always a page, of the records of `trigger`.
    const readPage = (cursor: string | null, limit: number): Promise<Page<TriggerRecords[T]>> =>
      call(() =>
        client.GET(`/v1/triggers/${trigger}` as FeedPath, {
          params: { query: { ...options.filter, paginate: 'cursor', limit: String(limit), ...(cursor && { cursor }) } },
          signal,
        }),
      ) as Promise<Page<TriggerRecords[T]>>;

    while (!signal?.aborted) {
      const lastId = await store.get(key);
      const fresh =
        lastId === undefined
          ? await firstRun(readPage, options.backfill ?? 0, (id) => store.set(key, id))
          : await since(readPage, lastId);
      for (const record of fresh.reverse()) {
        if (signal?.aborted) return;
        await options.onRecord(record);
        await store.set(key, record.id);
      }
      await sleep(interval, signal);
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
}

type ReadPage<R> = (cursor: string | null, limit: number) => Promise<Page<R>>;

/**
 * The first poll of a feed: its latest `backfill` records, newest first. With none to deliver, the
 * newest id is remembered straight away ("" for an empty feed), so the next poll knows where now was.
 */
async function firstRun<R extends { id: string }>(
  readPage: ReadPage<R>,
  backfill: number,
  remember: (id: string) => Promise<void>,
): Promise<R[]> {
  const { data } = await readPage(null, Math.max(1, Math.min(backfill, PAGE_LIMIT)));
  const latest = data.slice(0, backfill);
  if (latest.length === 0) await remember(data[0]?.id ?? '');
  return latest;
}

/** The records newer than `lastId`, newest first (every record when `lastId` is "" or no longer listed). */
async function since<R extends { id: string }>(readPage: ReadPage<R>, lastId: string): Promise<R[]> {
  const fresh: R[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<R> = await readPage(cursor, cursor ? PAGE_LIMIT : FIRST_PAGE_LIMIT);
    for (const record of page.data) {
      if (record.id === lastId) return fresh;
      fresh.push(record);
    }
    cursor = page.next_cursor;
  } while (cursor);
  return fresh;
}

/** One stored position per workspace, feed and filter; an empty filter value is no filter. */
function storeKey(workspaceId: string, trigger: Trigger, filter: object | undefined): string {
  const entries = Object.entries(filter ?? {})
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]): [string, string] => [name, String(value)])
    .sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(entries).toString();
  return `${workspaceId}/${trigger}${query ? `?${query}` : ''}`;
}
