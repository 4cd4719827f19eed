import type { FastifyBaseLogger } from 'fastify';
import type { ChannelService } from '../channels/channel.service.js';
import { GraphError, templatePayload, textPayload, type GraphClient } from '../channels/whatsapp-cloud.js';
import type { Deps } from '../shared/context.js';
import { toStoredTimestamp } from '../shared/time.js';
import type { MessageError } from './message.repository.js';
import type { TemplateContent } from './template-message.js';
import { ThroughputLimiter } from './throughput.js';

const BATCH = 200;
/** A claimed message is due again after this long, so a crash mid-send leaves it to be retried. */
const LEASE_MS = 60_000;
/** Retries back off exponentially (with jitter) up to this, for at most MAX_ATTEMPTS tries. */
const MAX_BACKOFF_MS = 15 * 60_000;
const BASE_BACKOFF_MS = 1_000;
const MAX_ATTEMPTS = 10;
/** Retries due later are found by this poll; new messages wake the outbox at once. */
const POLL_MS = 1_000;
const CONCURRENCY = 32;
/** The simulator's delivery receipts, after the send. */
const SIMULATED_DELIVERY_MS = 1_000;
const SIMULATED_READ_MS = 3_000;

interface Claimed {
  id: string;
  workspace_id: string;
  type: string;
  content: string;
  attempts: number;
  phone: string;
}

/** Where the simulator's receipts go: the same path as Meta's status webhooks. */
export interface StatusSink {
  applyStatus(
    caller: { workspaceId: string },
    update: { wamid: string; status: 'delivered' | 'read'; errors: [] },
  ): Promise<unknown>;
}

/**
 * The durable outbox: a send is committed (status queued, next_attempt_at set) before any
 * network call; this worker claims due messages with a lease, delivers them through the
 * workspace's channel and records the outcome. Retryable failures (429, 5xx, Meta's rate-limit
 * codes, network errors) come back with backoff; permanent ones fail the message with Meta's code.
 */
export function createOutbox(deps: Deps, channels: ChannelService, graph: GraphClient, statuses: () => StatusSink) {
  const { db, clock, newId } = deps;
  const limiter = new ThroughputLimiter();
  const timers = new Set<NodeJS.Timeout>();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let poll: NodeJS.Timeout | undefined;
  let log: FastifyBaseLogger | undefined;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  async function claimDue(): Promise<Claimed[]> {
    const now = toStoredTimestamp(clock.now());
    const due = await db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .select(['m.id', 'm.workspace_id', 'm.type', 'm.content', 'm.attempts', 'm.next_attempt_at', 'c.phone'])
      .where('m.next_attempt_at', '<=', now)
      .orderBy('m.next_attempt_at')
      .limit(BATCH)
      .execute();
    const lease = toStoredTimestamp(new Date(clock.now().getTime() + LEASE_MS));
    const claimed: Claimed[] = [];
    for (const message of due) {
      // Conditional on the value read: of several Parley processes, exactly one claims each message.
      const result = await db
        .updateTable('messages')
        .set({ next_attempt_at: lease, attempts: message.attempts + 1 })
        .where('id', '=', message.id)
        .where('next_attempt_at', '=', message.next_attempt_at)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push({ ...message, attempts: message.attempts + 1 });
    }
    return claimed;
  }

  async function deliver(message: Claimed): Promise<void> {
    const credentials = await channels.cloudCredentials(message.workspace_id);
    if (!credentials) return simulate(message);
    await limiter.take(credentials.phoneNumberId, credentials.messagesPerSecond);
    try {
      const { wamid } = await graph.sendMessage(credentials.phoneNumberId, credentials.accessToken, payloadOf(message));
      await settle(message.id, { status: 'sent', provider_message_id: wamid });
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      if (error.retryable && message.attempts < MAX_ATTEMPTS) {
        await retryLater(message, error.retryAfterMs ?? backoff(message.attempts));
      } else {
        await settle(message.id, { status: 'failed', error: JSON.stringify(errorOf(error)) });
      }
    }
  }

  async function simulate(message: Claimed): Promise<void> {
    const wamid = `wamid.SIMULATED.${newId()}`;
    await settle(message.id, { status: 'sent', provider_message_id: wamid });
    const caller = { workspaceId: message.workspace_id };
    const receipt = (status: 'delivered' | 'read') => () =>
      void statuses()
        .applyStatus(caller, { wamid, status, errors: [] })
        .catch((error: unknown) => {
          log?.error({ err: error, message_id: message.id }, 'simulated receipt failed');
        });
    later(SIMULATED_DELIVERY_MS, receipt('delivered'));
    later(SIMULATED_READ_MS, receipt('read'));
  }

  async function settle(
    id: string,
    outcome: { status: 'sent' | 'failed'; provider_message_id?: string; error?: string },
  ): Promise<void> {
    await db
      .updateTable('messages')
      .set({ ...outcome, next_attempt_at: null, updated_at: toStoredTimestamp(clock.now()) })
      .where('id', '=', id)
      .execute();
  }

  async function retryLater(message: Claimed, delayMs: number): Promise<void> {
    const due = toStoredTimestamp(new Date(clock.now().getTime() + delayMs));
    await db.updateTable('messages').set({ next_attempt_at: due }).where('id', '=', message.id).execute();
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      const claimed = await claimDue();
      for (let i = 0; i < claimed.length; i += CONCURRENCY) {
        await Promise.all(claimed.slice(i, i + CONCURRENCY).map((message) => deliverSafely(message)));
      }
      if (claimed.length === BATCH) again = true;
    } while (again && !stopped);
  }

  async function deliverSafely(message: Claimed): Promise<void> {
    try {
      await deliver(message);
    } catch (error) {
      // Unexpected (a database error): the lease brings the message back later.
      log?.error({ err: error, message_id: message.id }, 'outbox delivery failed');
    }
  }

  return {
    /** Runs the outbox now (a message was queued); concurrent wakes fold into one run. */
    wake(): void {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = drain()
        .catch((error: unknown) => log?.error({ err: error }, 'outbox run failed'))
        .finally(() => {
          running = null;
        });
    },

    /** Starts delivering (the server does; CLI commands only queue). */
    start(logger: FastifyBaseLogger): void {
      if (!stopped) return;
      log = logger;
      stopped = false;
      poll = setInterval(() => this.wake(), POLL_MS);
      poll.unref();
      this.wake();
    },

    /** Waits for the messages in flight; queued ones stay queued for the next start. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(poll);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await running;
    },

    /** Resolves when no run is in progress (tests wait for the outbox to settle). */
    idle: async (): Promise<void> => {
      while (running) await running;
    },
  };
}

function payloadOf(message: Claimed): object {
  // Meta advises the leading + : without it a number may be read in the business number's country.
  const to = message.phone;
  const content = JSON.parse(message.content) as Record<string, unknown>;
  if (message.type === 'text') return textPayload(to, content.body as string, content.preview_url === true);
  const template = content as unknown as TemplateContent;
  return templatePayload(to, {
    name: template.template_name,
    language: template.language,
    ...(template.header && { header: template.header }),
    bodyParams: template.body_parameters,
    buttonParams: template.url_button_parameters.map((b) => ({ index: b.index, subType: 'url', param: b.text })),
  });
}

/** Exponential backoff with full jitter: spreads the retries of a burst that failed together. */
function backoff(attempts: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempts - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

function errorOf(error: GraphError): MessageError {
  return { code: error.code, title: error.title, details: error.details ?? null };
}

export type Outbox = ReturnType<typeof createOutbox>;
