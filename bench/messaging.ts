import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/connection.js';
import { systemClock } from '../src/shared/clock.js';
import { createIdGenerator } from '../src/shared/ids.js';
import type { Engine } from './config.js';
import { startGraphSink, type GraphSink } from './graph-sink.js';
import { generatedCertificate, NodeProcess, parleyCli, startPostgres } from './processes.js';
import { writeMarkdown } from './report.js';

/**
 * `npm run bench:messaging`: the outbox and the webhook under load, against a local Graph API
 * sink, on each engine. Queued messages are loaded straight into the outbox table; the real
 * Parley server (a child process) then delivers them, and its webhook is loaded with autocannon.
 */

const env = process.env;
const settings = {
  engines: (env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[],
  outboxMessages: Number(env.BENCH_OUTBOX_MESSAGES ?? 100_000),
  pacedMessages: Number(env.BENCH_PACED_MESSAGES ?? 1_200),
  webhookSeconds: Number(env.BENCH_WEBHOOK_SECONDS ?? 10),
  messagesPerWebhook: 10,
  contacts: 1_000,
  port: Number(env.BENCH_PORT ?? 18445),
  pgPort: Number(env.BENCH_PG_PORT ?? 54341),
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const APP_SECRET = 'bench-app-secret';
const WABA_ID = '2000001';
const PHONE_NUMBER_ID = '1000001';
const PACE = 80;

interface Result {
  engine: Engine;
  outboxPerSecond: number;
  pacedPerSecond: number;
  webhookMessagesPerSecond: number;
  webhookP99: number;
  webhookErrors: number;
  peakRssMiB: number;
}

const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const phone = (i: number) => `+1415${3_000_000 + i}`;

async function waitFor(condition: () => boolean, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Contacts to write to, and `count` queued text messages to them, as the API would leave them. */
async function enqueue(where: { databaseUrl: string | null; dataDir: string }, workspaceId: string, count: number) {
  const { db } = openDatabase(where);
  const newId = createIdGenerator(systemClock);
  const now = new Date().toISOString();
  try {
    const contacts = await db.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).execute();
    if (contacts.length === 0) {
      for (let i = 0; i < settings.contacts; i += 500) {
        const rows = Array.from({ length: Math.min(500, settings.contacts - i) }, (_, k) => ({
          id: newId(),
          workspace_id: workspaceId,
          phone: phone(i + k),
          name: `Bench ${i + k}`,
          email: null,
          custom_attributes: '{}',
          opted_out_at: null,
          last_message_at: now,
          last_inbound_at: now,
          created_at: now,
          updated_at: now,
        }));
        await db.insertInto('contacts').values(rows).execute();
        contacts.push(...rows.map((row) => ({ id: row.id })));
      }
    }
    for (let i = 0; i < count; i += 500) {
      const rows = Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
        id: newId(),
        workspace_id: workspaceId,
        contact_id: contacts[(i + k) % contacts.length]!.id,
        direction: 'outbound' as const,
        type: 'text',
        content: JSON.stringify({ body: `Bench message ${i + k}`, preview_url: false }),
        status: 'queued',
        provider_message_id: null,
        error: null,
        feed_record: null,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      }));
      await db.insertInto('messages').values(rows).execute();
    }
  } finally {
    await db.destroy();
  }
}

/** One signed webhook delivery of `size` inbound text messages with fresh wamids. */
function webhookBody(sequence: number, size: number): string {
  const messages = Array.from({ length: size }, (_, i) => ({
    from: phone((sequence * size + i) % settings.contacts).slice(1),
    id: `wamid.BENCHIN${sequence}x${i}`,
    timestamp: String(Math.floor(Date.now() / 1000)),
    type: 'text',
    text: { body: `Inbound ${sequence}/${i}` },
  }));
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA_ID,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001000', phone_number_id: PHONE_NUMBER_ID },
              contacts: messages.map((m) => ({ profile: { name: 'Bench' }, wa_id: m.from })),
              messages,
            },
          },
        ],
      },
    ],
  });
}

async function loadWebhook(baseUrl: string, ca: string) {
  let sequence = 0;
  const result = await autocannon({
    url: `${baseUrl}/webhooks/whatsapp`,
    connections: 10,
    duration: settings.webhookSeconds,
    tlsOptions: { ca },
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const body = webhookBody(sequence++, settings.messagesPerWebhook);
          const signature = `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
          return {
            ...request,
            body,
            headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
          };
        },
      },
    ],
  });
  return {
    messagesPerSecond: (result['2xx'] * settings.messagesPerWebhook) / settings.webhookSeconds,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

/** Arrivals per second over the paced run, leaving out the first second (the bucket's initial burst). */
function pacedRate(sink: GraphSink, from: number): number {
  const arrivals = sink.arrivals.slice(from);
  const steady = arrivals.filter((t) => t >= arrivals[0]! + 1000);
  return (steady.length - 1) / ((steady.at(-1)! - steady[0]!) / 1000);
}

async function runEngine(engine: Engine): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-messaging-${engine}-`));
  const postgres = engine === 'postgres' ? await startPostgres(settings.pgPort) : null;
  const where = { databaseUrl: postgres?.url ?? null, dataDir };
  const sink = await startGraphSink({ phoneNumberId: PHONE_NUMBER_ID, wabaId: WABA_ID });
  const processEnv: NodeJS.ProcessEnv = {
    PATH: env.PATH,
    HOME: env.HOME,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: String(settings.port),
    WHATSAPP_GRAPH_URL: sink.url,
    WHATSAPP_APP_SECRET: APP_SECRET,
    ...(postgres && { DATABASE_URL: postgres.url }),
  };
  let server: NodeProcess | undefined;
  try {
    const setup = await parleyCli(
      ['setup', '--workspace', 'bench', '--email', 'bench@bench.example', '--password', 'bench-pass-phrase'],
      processEnv,
    );
    const workspaceId = (setup.workspace as { id: string }).id;
    const channel = (perSecond: number) =>
      parleyCli(
        ['channel', 'set', '--workspace', workspaceId, '--provider', 'whatsapp-cloud'].concat(
          ['--phone-number-id', PHONE_NUMBER_ID, '--waba-id', WABA_ID, '--access-token', 'bench-token'],
          ['--messages-per-second', String(perSecond)],
        ),
        processEnv,
      );
    await channel(0);
    log(`${engine}: queueing ${settings.outboxMessages} messages`);
    await enqueue(where, workspaceId, settings.outboxMessages);

    server = new NodeProcess('parley', 'src/main.ts', processEnv, env.BENCH_SERVER_NODE_OPTIONS?.split(' ') ?? []);
    const ca = () => generatedCertificate(dataDir);
    const baseUrl = `https://127.0.0.1:${settings.port}`;
    await server.waitUntilReady(`${baseUrl}/healthz`, ca);
    await waitFor(() => sink.received() >= settings.outboxMessages, 'the outbox to drain');
    const outboxSeconds = (sink.arrivals[settings.outboxMessages - 1]! - sink.arrivals[0]!) / 1000;
    log(`${engine}: ${settings.outboxMessages} sent in ${outboxSeconds.toFixed(1)} s`);

    await channel(PACE);
    const pacedFrom = sink.received();
    await enqueue(where, workspaceId, settings.pacedMessages);
    await waitFor(() => sink.received() >= pacedFrom + settings.pacedMessages, 'the paced messages');
    const pacedPerSecond = pacedRate(sink, pacedFrom);
    log(`${engine}: paced at ${pacedPerSecond.toFixed(1)} messages/s (limit ${PACE})`);

    log(`${engine}: loading the webhook for ${settings.webhookSeconds} s`);
    const webhook = await loadWebhook(baseUrl, ca()!);
    return {
      engine,
      outboxPerSecond: settings.outboxMessages / outboxSeconds,
      pacedPerSecond,
      webhookMessagesPerSecond: webhook.messagesPerSecond,
      webhookP99: webhook.p99,
      webhookErrors: webhook.errors,
      peakRssMiB: server.peakRssMiB(),
    };
  } finally {
    await server?.stop();
    await sink.close();
    await postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function markdown(results: Result[]): string {
  const pass = (ok: boolean) => (ok ? 'pass' : '**FAIL**');
  const rows = results.flatMap((r) => [
    `| ${r.engine} | outbox, limit lifted (${settings.outboxMessages.toLocaleString('en')} messages) ≥ 2,000/s | ${r.outboxPerSecond.toFixed(0)}/s | ${pass(r.outboxPerSecond >= 2000)} |`,
    `| ${r.engine} | pacing at ${PACE}/s within ±5 % | ${r.pacedPerSecond.toFixed(1)}/s | ${pass(Math.abs(r.pacedPerSecond - PACE) <= PACE * 0.05)} |`,
    `| ${r.engine} | webhook ingestion ≥ 3,000 messages/s | ${r.webhookMessagesPerSecond.toFixed(0)}/s (${r.webhookErrors} errors) | ${pass(r.webhookMessagesPerSecond >= 3000 && r.webhookErrors === 0)} |`,
    `| ${r.engine} | webhook p99 ≤ 50 ms | ${r.webhookP99} ms | ${pass(r.webhookP99 <= 50)} |`,
    `| ${r.engine} | server peak RSS | ${r.peakRssMiB.toFixed(0)} MiB | – |`,
  ]);
  return [
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:messaging\``,
    '',
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}. Graph API: a local sink answering Meta's success shape (bench/graph-sink.ts). Webhook: autocannon, 10 connections, ${settings.webhookSeconds} s, signed deliveries of ${settings.messagesPerWebhook} messages each from ${settings.contacts} contacts.`,
    '',
    '| Engine | Target | Measured | Result |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

const results: Result[] = [];
for (const engine of settings.engines) results.push(await runEngine(engine));
console.log(markdown(results));
if (settings.output) writeMarkdown(settings.output, markdown(results), 'bench-messaging', 'npm run bench:messaging');
