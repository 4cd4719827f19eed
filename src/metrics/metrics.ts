import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolUsage, readPoolUsage } from '../db/connection.js';
import type { Deps } from '../db/deps.js';
import { toStoredTimestamp } from '../shared/time.js';
import { readBacklog, type Backlog } from './backlog.js';
import type { Signals } from '../shared/signals.js';

/** Request latencies: from a cached point read (~1 ms) to a large export. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** How late a job starts: a healthy scheduler starts within a poll (1 s); a backlog shows in minutes. */
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900];
/** A model's answer: from a small local model's quick reply to a long generation. */
const MODEL_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];
/** The route label of a request no route matched (a 404): one series, not one per URL tried. */
const UNMATCHED = '(unmatched)';

/**
 * This process's metrics in Prometheus form (prom-client). Counters and histograms count what this
 * process did (Prometheus sums the processes); the queue gauges are read from the database at
 * scrape time and are the same in every process.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Histogram({
    name: 'parley_http_request_duration_seconds',
    help: 'Time from request to response, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const sends = new Counter({
    name: 'parley_outbox_sends_total',
    help: 'Sends the outbox made, by channel (one number; "simulator" for the built-in one) and outcome',
    labelNames: ['channel_id', 'outcome'] as const,
    registers,
  });
  const pauses = new Counter({
    name: 'parley_outbox_number_pauses_total',
    help: 'Times the outbox paused a number whose sends timed out or met server errors (its circuit breaker opened)',
    labelNames: ['channel_id'] as const,
    registers,
  });
  const deliveries = new Counter({
    name: 'parley_webhook_deliveries_total',
    help: 'Outgoing-webhook delivery attempts, by result (delivered, retry, failed)',
    labelNames: ['result'] as const,
    registers,
  });
  const mediaDownloads = new Counter({
    name: 'parley_media_downloads_total',
    help: 'Background downloads of received media, by outcome (stored, retry, failed)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const modelCalls = new Counter({
    name: 'parley_ai_model_calls_total',
    help: "Calls to workspaces' AI models, by purpose and outcome (answered, or why not: timeout, rate_limited, budget_exhausted, model_error…)",
    labelNames: ['purpose', 'outcome'] as const,
    registers,
  });
  const modelTokens = new Counter({
    name: 'parley_ai_model_tokens_total',
    help: "Tokens workspaces' AI models used, by purpose and kind (prompt, completion)",
    labelNames: ['purpose', 'kind'] as const,
    registers,
  });
  const modelTime = new Histogram({
    name: 'parley_ai_model_call_duration_seconds',
    help: "Time inside answered AI model calls (the model's own time), by purpose",
    labelNames: ['purpose'] as const,
    buckets: MODEL_BUCKETS,
    registers,
  });
  const jobLag = new Histogram({
    name: 'parley_job_start_lag_seconds',
    help: 'How long after its due time a scheduled job started, by kind',
    labelNames: ['kind'] as const,
    buckets: LAG_BUCKETS,
    registers,
  });
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers });
  const backlog = {
    outboxQueued: gauge('parley_outbox_queued', 'Messages waiting to be sent (due, in flight or waiting to retry)'),
    outboxOverdue: gauge('parley_outbox_oldest_due_seconds', 'How long the longest-waiting due message has waited'),
    jobsDue: gauge('parley_jobs_due', 'Scheduled jobs due now that no process has started'),
    jobsOverdue: gauge('parley_jobs_oldest_due_seconds', 'How long the longest-waiting due job has waited (job lag)'),
    deliveriesPending: gauge('parley_webhook_deliveries_pending', 'Webhook deliveries waiting for an attempt'),
    deliveriesOverdue: gauge('parley_webhook_oldest_due_seconds', 'How long the longest-waiting due delivery waited'),
    mediaBytes: gauge('parley_media_stored_bytes', 'Bytes of media files the media store holds (every workspace)'),
    mediaFiles: gauge('parley_media_stored_files', 'Media files the media store holds (every workspace)'),
  };
  const pool = new Gauge({
    name: 'parley_db_pool_connections',
    help: 'PostgreSQL connections of this process: busy, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers,
  });
  const poolWaits = new Counter({
    name: 'parley_db_pool_acquire_seconds_total',
    help: 'Time this process waited to get a PostgreSQL connection (divided by acquires: the mean wait)',
    registers,
  });
  const poolAcquires = new Counter({
    name: 'parley_db_pool_acquires_total',
    help: 'PostgreSQL connections this process took from its pool',
    registers,
  });
  const readPool = new Gauge({
    name: 'parley_db_read_pool_threads',
    help: 'SQLite read worker threads of this process: reading now, idle, and reads queued behind them',
    labelNames: ['state'] as const,
    registers,
  });
  const readWaits = new Counter({
    name: 'parley_db_read_pool_wait_seconds_total',
    help: 'Time reads waited for a SQLite read worker (divided by reads: the mean wait)',
    registers,
  });
  const reads = new Counter({
    name: 'parley_db_read_pool_reads_total',
    help: 'Reads the SQLite read workers of this process answered',
    registers,
  });
  // The pools keep running totals; the counters move by what they grew since the last scrape.
  let counted = { acquires: 0, acquireSeconds: 0 };
  let countedReads = { reads: 0, waitSeconds: 0 };
  collectDefaultMetrics({ register: registry, prefix: 'parley_' });
  // prom-client names three of its gauges `…_total`, a suffix Prometheus keeps for counters (`promtool
  // check metrics` refuses them). Each is the sum of its `{type}`-labelled gauge, which stays.
  for (const name of ['active_handles', 'active_requests', 'active_resources']) {
    registry.removeSingleMetric(`parley_nodejs_${name}_total`);
  }

  const signals: Signals = {
    sendFinished: (channelId, outcome) => sends.inc({ channel_id: channelId ?? 'simulator', outcome }),
    numberPaused: (channelId) => pauses.inc({ channel_id: channelId ?? 'simulator' }),
    deliveryFinished: (result) => deliveries.inc({ result }),
    jobStarted: (kind, lagMs) => jobLag.observe({ kind }, Math.max(0, lagMs) / 1000),
    mediaDownloaded: (outcome) => mediaDownloads.inc({ outcome }),
    modelCalled: ({ purpose, outcome, promptTokens, completionTokens, modelMs }) => {
      modelCalls.inc({ purpose, outcome });
      if (outcome !== 'answered') return;
      modelTokens.inc({ purpose, kind: 'prompt' }, promptTokens);
      modelTokens.inc({ purpose, kind: 'completion' }, completionTokens);
      modelTime.observe({ purpose }, modelMs / 1000);
    },
  };

  function showBacklog(now: Date, queues: Backlog): void {
    const overdue = (at: string | null) => (at ? Math.max(0, now.getTime() - Date.parse(at)) / 1000 : 0);
    backlog.outboxQueued.set(queues.outboxQueued);
    backlog.outboxOverdue.set(overdue(queues.outboxNextAt));
    backlog.jobsDue.set(queues.jobsDue);
    backlog.jobsOverdue.set(overdue(queues.jobsNextAt));
    backlog.deliveriesPending.set(queues.deliveriesPending);
    backlog.deliveriesOverdue.set(overdue(queues.deliveriesNextAt));
    backlog.mediaBytes.set(queues.mediaBytes);
    backlog.mediaFiles.set(queues.mediaFiles);
  }

  return {
    signals,
    contentType: registry.contentType,

    /** One answered request; `route` is the matched pattern (undefined when none matched). */
    requestServed(method: string, route: string | undefined, statusCode: number, elapsedMs: number): void {
      requests.observe({ method, route: route ?? UNMATCHED, status_code: statusCode }, elapsedMs / 1000);
    },

    /** The text exposition: the queues read now (one statement), the pools as they stand, and every series. */
    async scrape({ db, reads: readsDb, clock }: Pick<Deps, 'db' | 'reads' | 'clock'>): Promise<string> {
      const now = clock.now();
      showBacklog(now, await readBacklog(db, toStoredTimestamp(now)));
      const readUsage = readPoolUsage(readsDb);
      if (readUsage) {
        readPool.set({ state: 'busy' }, readUsage.busy);
        readPool.set({ state: 'idle' }, readUsage.workers - readUsage.busy);
        readPool.set({ state: 'waiting' }, readUsage.waiting);
        readWaits.inc(readUsage.waitSeconds - countedReads.waitSeconds);
        reads.inc(readUsage.reads - countedReads.reads);
        countedReads = readUsage;
      }
      const usage = poolUsage(db);
      if (usage) {
        pool.set({ state: 'busy' }, usage.total - usage.idle);
        pool.set({ state: 'idle' }, usage.idle);
        pool.set({ state: 'waiting' }, usage.waiting);
        poolWaits.inc(usage.acquireSeconds - counted.acquireSeconds);
        poolAcquires.inc(usage.acquires - counted.acquires);
        counted = usage;
      }
      return registry.metrics();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
