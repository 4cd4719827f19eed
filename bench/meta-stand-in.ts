import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { numberLookup } from './graph-sink.js';
import type { Timeline } from './timeline.js';

/**
 * Meta, as the load test meets it: the Graph API's send endpoint (Meta's success answer after
 * `graphLatencyMs`), and Meta's webhooks back to Parley — a `sent`, `delivered` and `read` status for
 * every accepted message, and customers' inbound messages — signed with the app secret (X-Hub-Signature-256),
 * batched in arrival order (up to `batchSize` items a delivery, as Meta batches under load: one entry whose
 * changes hold the messages and the statuses), at most `inFlight`
 * deliveries at once, and a delivery that fails retried with a growing delay (Meta retries for days).
 * Payloads follow Meta's "Webhooks: messages" reference (statuses with PMP pricing, text messages).
 *
 * What it records on the timeline: `send:<type>` per accepted send, `webhook:ms` per delivery's answer
 * time, `webhook:statuses` and `webhook:inbound` per delivered item, `webhook:failed` per failed delivery.
 */
export interface MetaOptions {
  phoneNumberId: string;
  wabaId: string;
  appSecret: string;
  timeline: Timeline;
  graphLatencyMs: number;
  /** After the send's answer: when Meta reports the message sent, delivered and read. */
  statusDelaysMs: { sent: number; delivered: number; read: number };
  batchSize: number;
  inFlight: number;
}

export interface SentMessage {
  /** The recipient's number as Meta's `wa_id` (digits only). */
  to: string;
  type: string;
  text: string | null;
  at: number;
}

type Delivery = { kind: 'status'; status: object } | { kind: 'message'; from: string; message: object };

const DISPLAY_PHONE = '15550100000';
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export async function startMeta(options: MetaOptions) {
  const { timeline } = options;
  const listeners: ((sent: SentMessage) => void)[] = [];
  const queue: Delivery[] = [];
  const retries: { at: number; items: Delivery[]; attempt: number }[] = [];
  const delayed: { at: number; item: Delivery }[][] = [[], [], []];
  let targets: string[] = [];
  let nextTarget = 0;
  let running = 0;
  let dispatcher: Agent | null = null;
  let sequence = 0;
  let inboundSequence = 0;

  const graph = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://graph').pathname.split('/').slice(2).join('/');
      const lookup = req.method === 'GET' ? numberLookup(options, path) : null;
      if (lookup !== null) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(lookup);
        return;
      }
      if (req.method !== 'POST' || path !== `${options.phoneNumberId}/messages`) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"error":{"code":100,"message":"Unsupported"}}');
        return;
      }
      const message = JSON.parse(Buffer.concat(chunks).toString()) as {
        to: string;
        type: string;
        text?: { body?: string };
      };
      const wamid = `wamid.LOOP${(sequence++).toString(36)}${randomBytes(4).toString('hex')}`;
      const to = message.to.replace(/\D/g, '');
      setTimeout(() => {
        const at = performance.now();
        timeline.count(`send:${message.type}`, 1, at);
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            messaging_product: 'whatsapp',
            contacts: [{ input: message.to, wa_id: to }],
            messages: [{ id: wamid }],
          }),
        );
        const sent = { to, type: message.type, text: message.text?.body ?? null, at };
        for (const listener of listeners) listener(sent);
        scheduleStatuses(wamid, to, message.type === 'template' ? 'marketing' : 'service', at);
      }, options.graphLatencyMs);
    });
  });
  graph.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));

  function scheduleStatuses(wamid: string, recipient: string, category: string, at: number) {
    (['sent', 'delivered', 'read'] as const).forEach((status, index) => {
      delayed[index]!.push({
        at: at + options.statusDelaysMs[status],
        item: { kind: 'status', status: statusOf(wamid, recipient, status, category) },
      });
    });
  }

  function statusOf(wamid: string, recipient: string, status: string, category: string) {
    const billable = category !== 'service';
    return {
      id: wamid,
      status,
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: recipient,
      ...(status !== 'read' && {
        pricing: { billable, pricing_model: 'PMP', category, type: billable ? 'regular' : 'free_customer_service' },
      }),
    };
  }

  /** One entry of the business account: a change with the customers' messages, a change with the statuses. */
  function payload(items: Delivery[]): string {
    const metadata = { display_phone_number: DISPLAY_PHONE, phone_number_id: options.phoneNumberId };
    const statuses = items.flatMap((item) => (item.kind === 'status' ? [item.status] : []));
    const messages = items.flatMap((item) => (item.kind === 'message' ? [item] : []));
    const change = (value: object) => ({
      value: { messaging_product: 'whatsapp', metadata, ...value },
      field: 'messages',
    });
    const changes = [
      ...(messages.length > 0
        ? [
            change({
              contacts: messages.map((m) => ({ profile: { name: 'Load test customer' }, wa_id: m.from })),
              messages: messages.map((m) => m.message),
            }),
          ]
        : []),
      ...(statuses.length > 0 ? [change({ statuses })] : []),
    ];
    return JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: options.wabaId, changes }] });
  }

  /** The next delivery: a due retry first, else the oldest batchSize items waiting, messages and statuses alike. */
  function take(): { items: Delivery[]; attempt: number } | null {
    const now = performance.now();
    const retry = retries.findIndex((r) => r.at <= now);
    if (retry >= 0) return retries.splice(retry, 1)[0]!;
    if (queue.length === 0) return null;
    return { items: queue.splice(0, options.batchSize), attempt: 0 };
  }

  function pump(): void {
    while (dispatcher && targets.length > 0 && running < options.inFlight) {
      const next = take();
      if (!next) return;
      running++;
      void deliver(next.items, next.attempt).finally(() => {
        running--;
        pump();
      });
    }
  }

  async function deliver(items: Delivery[], attempt: number): Promise<void> {
    const body = payload(items);
    const signature = `sha256=${createHmac('sha256', options.appSecret).update(body).digest('hex')}`;
    const target = targets[nextTarget++ % targets.length]!;
    const started = performance.now();
    let ok = false;
    try {
      const response = await request(`${target}/webhooks/whatsapp`, {
        method: 'POST',
        dispatcher: dispatcher!,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
      });
      await response.body.dump();
      ok = response.statusCode === 200;
    } catch {
      ok = false;
    }
    const answered = performance.now();
    timeline.sample('webhook:ms', answered - started, answered);
    if (!ok) {
      timeline.count('webhook:failed', 1, answered);
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
      retries.push({ at: answered + delay, items, attempt: attempt + 1 });
      return;
    }
    const statuses = items.filter((item) => item.kind === 'status').length;
    timeline.count('webhook:statuses', statuses, answered);
    timeline.count('webhook:inbound', items.length - statuses, answered);
  }

  // Statuses fall due in time order within each kind: move the due ones to the delivery queue.
  const ticker = setInterval(() => {
    const now = performance.now();
    for (const list of delayed) {
      let due = 0;
      while (due < list.length && list[due]!.at <= now) due++;
      for (const { item } of list.splice(0, due)) queue.push(item);
    }
    pump();
  }, 20);

  return {
    graphUrl: `http://127.0.0.1:${(graph.address() as AddressInfo).port}`,
    /** Where Meta delivers webhooks (in turn: several Parley processes behind no balancer), trusting `ca`. */
    deliverTo(urls: string[], ca: string) {
      targets = urls;
      dispatcher = new Agent({ connect: { ca }, connections: options.inFlight, keepAliveTimeout: 60_000 });
      pump();
    },
    onSend(listener: (sent: SentMessage) => void) {
      listeners.push(listener);
    },
    /** A customer writes `text` from `from` (digits): Meta's inbound webhook, queued behind what is waiting. */
    customerWrites(from: string, text: string): void {
      const message = {
        from,
        id: `wamid.LOOPIN${(inboundSequence++).toString(36)}${randomBytes(4).toString('hex')}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'text',
        text: { body: text },
      };
      queue.push({ kind: 'message', from, message });
      pump();
    },
    /** Webhook items Meta holds: queued, waiting to retry, and statuses not yet due. */
    backlog(): { queued: number; retrying: number; scheduled: number } {
      return {
        queued: queue.length,
        retrying: retries.reduce((sum, r) => sum + r.items.length, 0),
        scheduled: delayed.reduce((sum, list) => sum + list.length, 0),
      };
    },
    async close(): Promise<void> {
      clearInterval(ticker);
      await dispatcher?.close();
      await new Promise<void>((resolve) => {
        graph.close(() => resolve());
        graph.closeAllConnections();
      });
    },
  };
}

export type MetaStandIn = Awaited<ReturnType<typeof startMeta>>;
