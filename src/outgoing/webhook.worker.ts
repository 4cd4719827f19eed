import type { FastifyBaseLogger } from 'fastify';
import type { Agent } from 'undici';
import type { Deps } from '../db/deps.js';
import type { SecretBox } from '../shared/secret-box.js';
import { toStoredTimestamp } from '../shared/time.js';
import { postSigned, signedPostAgent } from './signed-post.js';
import { webhookRepository, type ClaimedDelivery, type DeliveryOutcome } from './webhook.repository.js';
import type { DeliveryAttempt } from './webhook.schema.js';
import { targetProblem } from './webhook.target.js';
import { createWakeLoop } from '../shared/wake-loop.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Waits after the 1st, 2nd, … failed attempt; the last repeats until the retry window has passed. */
export const RETRY_DELAYS_MS = [10_000, MINUTE, 5 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR];
/** A delivery is retried until this long after its first attempt, then failed. */
export const RETRY_WINDOW_MS = 24 * HOUR;
/** A subscription whose every attempt failed for this long is disabled. */
export const DISABLE_AFTER_MS = 24 * HOUR;
/** Deliveries claimed per round, and POSTs in flight at once. */
const BATCH = 64;
const CONCURRENCY = 16;
/** One attempt's limit: connecting, the answer's headers and its body. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Longer than a round can take (BATCH / CONCURRENCY attempts at most ATTEMPT_TIMEOUT_MS each). */
const LEASE_MS = 2 * MINUTE;
/** Retries and other processes' deliveries are found by this poll; this process's events wake it. */
const POLL_MS = 1_000;
const ATTEMPT_LOG_LENGTH = 20;

interface Target {
  url: string;
  secret: string;
}

/**
 * Sends webhook deliveries from their durable queue (the webhook_deliveries table). A round claims
 * due deliveries with a lease, POSTs them signed (at most CONCURRENCY at once, each bounded by
 * ATTEMPT_TIMEOUT_MS), and records every outcome in one statement: 2xx is delivered; anything else
 * is retried after RETRY_DELAYS_MS until RETRY_WINDOW_MS has passed since the first attempt, then
 * failed. A subscription whose attempts all failed for DISABLE_AFTER_MS is disabled and its pending
 * deliveries wait. A process that dies mid-round leaves its claims to be retried after the lease.
 */
export function createWebhookWorker(deps: Deps, secrets: SecretBox, options: { allowPrivate: boolean }) {
  const { db, dialect, clock } = deps;
  const newAgent = () => signedPostAgent({ allowPrivate: options.allowPrivate, timeoutMs: ATTEMPT_TIMEOUT_MS });
  let agent: Agent | null = null;
  let log: FastifyBaseLogger | undefined;

  async function targetsOf(claimed: ClaimedDelivery[]): Promise<Map<string, Target>> {
    const rows = await webhookRepository(db).targets([...new Set(claimed.map((d) => d.subscription_id))]);
    return new Map(rows.map((row) => [row.id, { url: row.url, secret: secrets.open(row.secret) }]));
  }

  /** One POST; never throws: a failure is an attempt with its reason. */
  async function attempt(dispatcher: Agent, delivery: ClaimedDelivery, target: Target): Promise<DeliveryAttempt> {
    const at = clock.now();
    const started = performance.now();
    const result = (statusCode: number | null, error: string | null): DeliveryAttempt => ({
      at: toStoredTimestamp(at),
      status_code: statusCode,
      error,
      duration_ms: Math.round(performance.now() - started),
    });
    const problem = targetProblem(target.url, options.allowPrivate);
    if (problem) return result(null, `url ${problem.message}`);
    const timestamp = Math.floor(at.getTime() / 1000);
    try {
      const response = await postSigned(dispatcher, {
        ...target,
        id: delivery.id,
        timestamp,
        body: delivery.payload,
        timeoutMs: ATTEMPT_TIMEOUT_MS,
      });
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return result(response.statusCode, ok ? null : `answered ${response.statusCode}`);
    } catch (error) {
      return result(null, error instanceof Error ? error.message : String(error));
    }
  }

  /** What an attempt makes of its delivery: delivered, failed once its retry window has passed, or due again. */
  function outcomeOf(delivery: ClaimedDelivery, tried: DeliveryAttempt): DeliveryOutcome {
    const firstAttemptAt = delivery.first_attempt_at ?? tried.at;
    const outcome = {
      id: delivery.id,
      lease: delivery.lease,
      first_attempt_at: firstAttemptAt,
      last_status_code: tried.status_code,
      last_error: tried.error,
      attempt_log: [...(JSON.parse(delivery.attempt_log) as DeliveryAttempt[]), tried].slice(-ATTEMPT_LOG_LENGTH),
      updated_at: tried.at,
    };
    if (tried.error === null) return { ...outcome, status: 'delivered', next_attempt_at: null };
    const at = Date.parse(tried.at);
    if (at - Date.parse(firstAttemptAt) >= RETRY_WINDOW_MS)
      return { ...outcome, status: 'failed', next_attempt_at: null };
    const delay = RETRY_DELAYS_MS[Math.min(delivery.attempts, RETRY_DELAYS_MS.length) - 1]!;
    return { ...outcome, status: 'pending', next_attempt_at: toStoredTimestamp(new Date(at + delay)) };
  }

  /** Stores a round's outcomes and what they say about each subscription, in one transaction. */
  async function record(claimed: ClaimedDelivery[], outcomes: DeliveryOutcome[]): Promise<void> {
    const delivered = new Set<string>();
    const failing = new Set<string>();
    outcomes.forEach((outcome, i) =>
      (outcome.status === 'delivered' ? delivered : failing).add(claimed[i]!.subscription_id),
    );
    const now = toStoredTimestamp(clock.now());
    const cutoff = toStoredTimestamp(new Date(clock.now().getTime() - DISABLE_AFTER_MS));
    await db.transaction().execute(async (trx) => {
      const webhooks = webhookRepository(trx);
      await webhooks.record(dialect, outcomes);
      await webhooks.markHealthy([...delivered]);
      const stillFailing = [...failing].filter((id) => !delivered.has(id));
      const disabled = await webhooks.markFailing(stillFailing, now, cutoff, 'every delivery failed for 24 hours');
      await webhooks.pause(disabled);
      for (const id of disabled) log?.warn({ webhook_id: id }, 'webhook subscription disabled after 24 h of failures');
    });
  }

  async function round(dispatcher: Agent): Promise<number> {
    const now = clock.now();
    // Polls, and the wakes of API changes (replay, enable), mostly find nothing to send: one cheap query first.
    if (!(await webhookRepository(db).hasDue(toStoredTimestamp(now)))) return 0;
    const lease = toStoredTimestamp(new Date(now.getTime() + LEASE_MS));
    const claimed = await webhookRepository(db).claim(dialect, toStoredTimestamp(now), lease, BATCH);
    if (claimed.length === 0) return 0;
    const targets = await targetsOf(claimed);
    // A subscription deleted since the claim took its deliveries with it.
    const sendable = claimed.filter((delivery) => targets.has(delivery.subscription_id));
    const tried = await inPool(sendable, CONCURRENCY, (delivery) =>
      attempt(dispatcher, delivery, targets.get(delivery.subscription_id)!),
    );
    const outcomes = sendable.map((delivery, i) => outcomeOf(delivery, tried[i]!));
    await record(sendable, outcomes);
    for (const { status } of outcomes) deps.signals?.deliveryFinished(status === 'pending' ? 'retry' : status);
    return claimed.length;
  }

  const loop = createWakeLoop({
    pollMs: POLL_MS,
    round: async () => agent !== null && (await round(agent)) === BATCH,
    onError: (error) => {
      if (!deps.health.failed(error)) log?.error({ err: error }, 'webhook delivery round failed');
    },
  });

  return {
    /** Runs a round now (events committed); concurrent wakes fold into one more round. */
    wake: loop.wake,

    /** Starts sending (the server does; CLI commands only queue). */
    start(logger: FastifyBaseLogger): void {
      if (loop.started) return;
      log = logger;
      agent = newAgent();
      loop.start();
    },

    /** Waits for the round in flight and closes its connections; pending deliveries stay queued. */
    async stop(): Promise<void> {
      await loop.stop();
      await agent?.close();
      agent = null;
    },

    /** Resolves when no round is in progress. */
    idle: loop.idle,
  };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;

/** Runs `task` over `items` with at most `limit` in flight; results in item order. */
async function inPool<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return results;
}
