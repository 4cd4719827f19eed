import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { lineChart } from './chart.js';
import type { Engine } from './config.js';
import { summariseProfiles } from './cpu-profile.js';
import { startMeta, type MetaStandIn } from './meta-stand-in.js';
import {
  generatedCertificate,
  httpsJson,
  NodeProcess,
  parleyCli,
  setCloudChannel,
  startPostgres,
} from './processes.js';
import { machine, writeMarkdown } from './report.js';
import { percentile, Timeline } from './timeline.js';

/**
 * `npm run bench:loop`: the end-to-end load test at Meta's top tier. A real Parley deployment (one
 * process on SQLite; one and three on PostgreSQL) sends a campaign from one number at 1,000 messages
 * a second to the Meta stand-in (bench/meta-stand-in.ts), which answers like the Graph API and sends
 * back a signed `sent`, `delivered` and `read` webhook for every message, while customers write in at a
 * tenth of that rate (one in ten with a flow's keyword), an agent's live inbox (the dashboard's event
 * stream) and an integration's poller (new-message-received) are connected. Every second it records
 * sends, webhook answer times, the time from a customer's message to the inbox and to the feed, the
 * outbox and job backlogs (Prometheus /metrics), and each process's CPU and RSS; it writes a table to
 * BENCHMARKS.md and charts to docs/benchmarks/.
 */
const env = process.env;
const settings = {
  scenarios: (env.BENCH_LOOP_SCENARIOS ?? 'sqlite:1,postgres:1,postgres:3').split(',').map((s) => {
    const [engine, processes] = s.split(':');
    return { engine: engine as Engine, processes: Number(processes ?? 1) };
  }),
  rate: Number(env.BENCH_LOOP_RATE ?? 1_000),
  seconds: Number(env.BENCH_LOOP_SECONDS ?? 120),
  graphLatencyMs: Number(env.BENCH_LOOP_GRAPH_MS ?? 100),
  pollEveryMs: 500,
  /** Customers who write in during the run (their phones are looked up once, for the inbox's events). */
  writers: 500,
  port: Number(env.BENCH_PORT ?? 18460),
  pgPort: Number(env.BENCH_PG_PORT ?? 54345),
  cpuProfileDir: env.BENCH_CPU_PROF ?? null,
  /** Node options for the Parley processes (e.g. heap sizes to compare). */
  serverNodeOptions: env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [],
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
  charts: 'docs/benchmarks',
};
const APP_SECRET = 'bench-loop-app-secret';
const METRICS_TOKEN = 'bench-loop-metrics-token';
const PHONE_NUMBER_ID = '1000460';
const WABA_ID = '2000460';
const OWNER = { email: 'owner@loop.example', password: 'correct horse battery' };
const KEYWORD = 'order';
const GRACE_SECONDS = 90;

const log = (message: string) => console.log(`[bench:loop ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const phoneOf = (i: number) => `+1415${String(5_000_000 + i)}`;
const digits = (phone: string) => phone.slice(1);

interface ProcessFigures {
  cpuCores: number;
  peakRssMiB: number;
}

interface Outcome {
  label: string;
  engine: Engine;
  processes: number;
  recipients: number;
  /** How long create-campaign took to answer (the sampling starts once it has). */
  createSeconds: number;
  sendsPerSecond: number;
  sendSeconds: number;
  webhook: { p50: number; p99: number; max: number; deliveries: number; failed: number; statusesPerSecond: number };
  inbox: { p50: number; p99: number; seen: number; sent: number };
  feed: { p50: number; p99: number; seen: number; sent: number };
  flowReply: { p50: number; p99: number; seen: number; sent: number };
  outboxPeak: number;
  jobsDuePeak: number;
  metaBacklogPeak: number;
  perProcess: ProcessFigures[];
  benchCpuCores: number;
  charts: string[];
}

/** The workspace's starting data, imported by `parley import`: the template, the keyword flow, the audience. */
function loopDocument(recipients: number) {
  return {
    version: 1,
    templates: [
      {
        name: 'loop_offer',
        category: 'MARKETING',
        translations: [{ language: 'en', status: 'APPROVED', body: 'Hi {{1}}, 10% off today.' }],
      },
    ],
    flows: [
      {
        name: 'Order status',
        definition: {
          start: 'answer',
          keywords: [KEYWORD],
          nodes: [{ id: 'answer', type: 'send_text', text: 'Your order is on its way, {{contact.name}}.' }],
        },
      },
    ],
    contacts: Array.from({ length: recipients }, (_, i) => ({
      phone: phoneOf(i),
      name: `Customer ${i}`,
      tags: ['audience'],
    })),
  };
}

/** Pending times by key, oldest first: a customer may write again before the first message was seen. */
class Pending {
  private readonly waiting = new Map<string, number[]>();
  sent = 0;
  add(key: string, at: number) {
    this.sent++;
    (this.waiting.get(key) ?? this.waiting.set(key, []).get(key)!).push(at);
  }
  take(key: string): number | undefined {
    return this.waiting.get(key)?.shift();
  }
}

async function runScenario(engine: Engine, processCount: number): Promise<Outcome> {
  const label = `${engine}, ${processCount} process${processCount > 1 ? 'es' : ''}`;
  const recipients = settings.rate * settings.seconds;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-loop-${engine}-`));
  const postgres = engine === 'postgres' ? await startPostgres(settings.pgPort) : null;
  const timeline = new Timeline();
  const meta = await startMeta({
    phoneNumberId: PHONE_NUMBER_ID,
    wabaId: WABA_ID,
    appSecret: APP_SECRET,
    timeline,
    graphLatencyMs: settings.graphLatencyMs,
    statusDelaysMs: { sent: 200, delivered: 1_000, read: 5_000 },
    batchSize: 50,
    inFlight: 8,
  });
  const baseEnv: NodeJS.ProcessEnv = {
    PATH: env.PATH,
    HOME: env.HOME,
    DATA_DIR: dataDir,
    LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'warn',
    WHATSAPP_GRAPH_URL: meta.graphUrl,
    WHATSAPP_APP_SECRET: APP_SECRET,
    METRICS_TOKEN,
    ...(postgres && { DATABASE_URL: postgres.url }),
  };
  const servers: NodeProcess[] = [];
  try {
    const { workspaceId, token } = await prepareWorkspace(baseEnv, dataDir, recipients);
    log(`${label}: ${recipients.toLocaleString('en')} contacts imported; starting Parley`);
    const profileDir = settings.cpuProfileDir && path.resolve(settings.cpuProfileDir, label.replace(/\W+/g, '-'));
    for (let i = 0; i < processCount; i++) {
      const nodeOptions = [
        ...settings.serverNodeOptions,
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ];
      const server = new NodeProcess(
        `parley ${i + 1}`,
        'src/main.ts',
        { ...baseEnv, PORT: String(settings.port + i) },
        nodeOptions,
      );
      servers.push(server);
      // The first process makes DATA_DIR's certificate; the others start once it exists.
      await server.waitUntilReady(`https://127.0.0.1:${settings.port + i}/healthz`, () =>
        generatedCertificate(dataDir),
      );
    }
    const ca = generatedCertificate(dataDir)!;
    const urls = servers.map((_, i) => `https://127.0.0.1:${settings.port + i}`);
    const outcome = await drive({ label, engine, urls, ca, token, workspaceId, meta, timeline, servers, recipients });
    for (const server of servers) await server.stop();
    if (profileDir) log(`${label}: where the CPU went\n${summariseProfiles(profileDir)}`);
    return outcome;
  } finally {
    for (const server of servers) await server.stop();
    await meta.close();
    await postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function prepareWorkspace(baseEnv: NodeJS.ProcessEnv, dataDir: string, recipients: number) {
  const setup = await parleyCli(
    ['setup', '--workspace', 'Loop', '--email', OWNER.email, '--password', OWNER.password],
    baseEnv,
  );
  const workspaceId = (setup.workspace as { id: string }).id;
  const { token } = (await parleyCli(['token', 'create', '--workspace', workspaceId], baseEnv)) as { token: string };
  // One integration token polls and reads throughout: lift its request budget and polling interval.
  await parleyCli(
    ['workspace', 'set', '--id', workspaceId, '--rate-limit', '10000000', '--poll-interval', '0'],
    baseEnv,
  );
  await setCloudChannel(baseEnv, workspaceId, {
    phoneNumberId: PHONE_NUMBER_ID,
    wabaId: WABA_ID,
    messagesPerSecond: settings.rate,
  });
  const file = path.join(dataDir, 'loop.json');
  fs.writeFileSync(file, JSON.stringify(loopDocument(recipients)));
  await parleyCli(['import', '--workspace', workspaceId, file], baseEnv);
  fs.rmSync(file);
  return { workspaceId, token };
}

interface Drive {
  label: string;
  engine: Engine;
  urls: string[];
  ca: string;
  token: string;
  workspaceId: string;
  meta: MetaStandIn;
  timeline: Timeline;
  servers: NodeProcess[];
  recipients: number;
}

async function drive(run: Drive): Promise<Outcome> {
  const { urls, ca, token, meta, timeline, servers, recipients } = run;
  const api = (action: string, body: unknown, i = 0) =>
    httpsJson(`${urls[i % urls.length]}/api/v1/actions/${action}`, ca, { method: 'POST', token, body });
  const writers = await lookUpWriters(api);
  meta.deliverTo(urls, ca);

  const inbox = new Pending();
  const feed = new Pending();
  const flowReply = new Pending();
  const stopStream = await followLiveInbox(urls[0]!, ca, (contactId, at) => {
    const sentAt = inbox.take(contactId);
    if (sentAt !== undefined) timeline.sample('inbox:ms', at - sentAt, at);
  });
  meta.onSend((sent) => {
    if (sent.type !== 'text') return;
    const sentAt = flowReply.take(sent.to);
    if (sentAt !== undefined) timeline.sample('flow-reply:ms', sent.at - sentAt, sent.at);
  });
  const stopPolling = pollFeed(urls, ca, token, (sequence, at) => {
    const sentAt = feed.take(String(sequence));
    if (sentAt !== undefined) timeline.sample('feed:ms', at - sentAt, at);
  });

  const templates = await api('list-templates', { name: 'loop_offer' });
  const templateId = (templates.body as { id: string }[])[0]!.id;
  const cpu = servers.map((server) => server.cpuSeconds());
  const benchCpu = process.cpuUsage();
  const from = timeline.second();
  const creating = performance.now();
  const created = await api('create-campaign', {
    name: 'Loop',
    template_id: templateId,
    audience: { tag: 'audience' },
    variables: ['{{contact.name}}'],
  });
  if (created.status !== 200) throw new Error(`create-campaign: ${JSON.stringify(created.body)}`);
  const createSeconds = (performance.now() - creating) / 1000;
  log(
    `${run.label}: campaign to ${recipients.toLocaleString('en')} at ${settings.rate}/s, customers writing at ${settings.rate / 10}/s`,
  );

  const stopCustomers = customersWrite(meta, writers, { inbox, feed, flowReply });
  const stopSampling = sample(run);
  const deadline = performance.now() + (settings.seconds + GRACE_SECONDS) * 1000;
  while (timeline.total('send:template') < recipients && performance.now() < deadline) await sleep(250);
  stopCustomers();
  const sendsDoneAt = timeline.second();
  // Let the last statuses and customers' messages arrive before the figures are read.
  const settle = performance.now() + 30_000;
  while (performance.now() < settle && Object.values(meta.backlog()).some((n) => n > 0)) await sleep(250);
  await sleep(2_000);
  stopSampling();
  stopPolling();
  stopStream();
  const to = timeline.seconds;

  const wall = to - from || 1;
  const templateSends = timeline.perSecond('send:template', from, to);
  const sending = templateSends.findIndex((n) => n > 0);
  const sendSeconds = Math.max(1, sendsDoneAt - from - sending);
  const webhookMs = timeline.all('webhook:ms', from, to);
  const latency = (name: string, pending: Pending) => {
    const values = timeline.all(name, from, to);
    return { p50: percentile(values, 50), p99: percentile(values, 99), seen: values.length, sent: pending.sent };
  };
  const outcome: Outcome = {
    label: run.label,
    engine: run.engine,
    processes: servers.length,
    recipients,
    createSeconds,
    sendsPerSecond: timeline.total('send:template', from, to) / sendSeconds,
    sendSeconds,
    webhook: {
      p50: percentile(webhookMs, 50),
      p99: percentile(webhookMs, 99),
      max: Math.max(...webhookMs),
      deliveries: webhookMs.length,
      failed: timeline.total('webhook:failed', from, to),
      statusesPerSecond: timeline.total('webhook:statuses', from, to) / sendSeconds,
    },
    inbox: latency('inbox:ms', inbox),
    feed: latency('feed:ms', feed),
    flowReply: latency('flow-reply:ms', flowReply),
    outboxPeak: Math.max(0, ...timeline.all('outbox', from, to)),
    jobsDuePeak: Math.max(0, ...timeline.all('jobs-due', from, to)),
    metaBacklogPeak: Math.max(0, ...timeline.all('meta-backlog', from, to)),
    perProcess: servers.map((server, i) => ({
      cpuCores: (server.cpuSeconds() - cpu[i]!) / wall,
      peakRssMiB: server.peakRssMiB(),
    })),
    benchCpuCores: cpuCoresSince(benchCpu, wall),
    charts: writeCharts(run, from, to),
  };
  log(`${run.label}: ${JSON.stringify(outcome)}`);
  return outcome;
}

function cpuCoresSince(start: NodeJS.CpuUsage, seconds: number): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6 / seconds;
}

/** The contact ids of the customers who will write in (the live inbox names contacts by id). */
async function lookUpWriters(api: (action: string, body: unknown) => Promise<{ status: number; body: unknown }>) {
  const writers: { phone: string; contactId: string }[] = [];
  for (let i = 0; i < settings.writers; i++) {
    const phone = phoneOf(i * 7);
    const answer = await api('get-contact', { phone });
    if (answer.status !== 200) throw new Error(`get-contact ${phone}: ${JSON.stringify(answer.body)}`);
    writers.push({ phone, contactId: (answer.body as { id: string }).id });
  }
  return writers;
}

/** Customers write in at a tenth of the send rate, in ticks of 100 ms; one message in ten is the flow's keyword. */
function customersWrite(
  meta: MetaStandIn,
  writers: { phone: string; contactId: string }[],
  pending: { inbox: Pending; feed: Pending; flowReply: Pending },
): () => void {
  const perTick = settings.rate / 10 / 10;
  let sequence = 0;
  const timer = setInterval(() => {
    for (let i = 0; i < perTick; i++) {
      const n = sequence++;
      const writer = writers[n % writers.length]!;
      const at = performance.now();
      pending.inbox.add(writer.contactId, at);
      if (n % 10 === 9) {
        pending.flowReply.add(digits(writer.phone), at);
        meta.customerWrites(digits(writer.phone), KEYWORD);
      } else {
        pending.feed.add(String(n), at);
        meta.customerWrites(digits(writer.phone), `Hello from the load test ${n}`);
      }
    }
  }, 100);
  return () => clearInterval(timer);
}

/** The agent's live inbox: the dashboard's event stream, signed in as the owner; calls `seen` per inbound message. */
async function followLiveInbox(baseUrl: string, ca: string, seen: (contactId: string, at: number) => void) {
  const dispatcher = new Agent({ connect: { ca } });
  const login = await request(`${baseUrl}/api/dashboard/login`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  await login.body.dump();
  const cookie = /__Host-parley_session=[^;]+/.exec(String(login.headers['set-cookie']))?.[0];
  if (login.statusCode !== 200 || !cookie) throw new Error(`dashboard login: ${login.statusCode}`);
  const controller = new AbortController();
  const stream = await request(`${baseUrl}/api/dashboard/events`, {
    dispatcher,
    headers: { cookie },
    signal: controller.signal,
  });
  let buffer = '';
  stream.body.setEncoding('utf8');
  stream.body.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (!data || !frame.startsWith('event: message')) continue;
      const event = JSON.parse(data) as { contact_id: string; direction?: string };
      if (event.direction === 'inbound') seen(event.contact_id, performance.now());
    }
  });
  stream.body.on('error', () => undefined);
  return () => {
    controller.abort();
    void dispatcher.close();
  };
}

/** An integration polling new-message-received by the spec's polling rule, over the processes in turn. */
function pollFeed(urls: string[], ca: string, token: string, seen: (sequence: number, at: number) => void) {
  const dispatcher = new Agent({ connect: { ca } });
  let newest: string | null = null;
  let stopped = false;
  let turn = 0;
  void (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const response = await request(
          `${urls[turn++ % urls.length]}/api/v1/triggers/new-message-received?message_type=text`,
          {
            dispatcher,
            headers: { authorization: `Bearer ${token}` },
          },
        );
        const records = (await response.body.json()) as { id: string; text: string | null }[];
        const at = performance.now();
        for (const record of records) {
          if (record.id === newest) break;
          const sequence = /^Hello from the load test (\d+)$/.exec(record.text ?? '')?.[1];
          if (sequence) seen(Number(sequence), at);
        }
        newest = records[0]?.id ?? newest;
      } catch {
        // A poll that fails is tried again at the next interval, as an integration does.
      }
      await sleep(Math.max(0, settings.pollEveryMs - (performance.now() - started)));
    }
  })();
  return () => {
    stopped = true;
    void dispatcher.close();
  };
}

/** Once a second: the backlogs (Prometheus /metrics of the first process), Meta's own backlog, CPU and RSS. */
function sample(run: Drive): () => void {
  const { timeline, servers, meta, urls, ca } = run;
  const dispatcher = new Agent({ connect: { ca } });
  let cpu = servers.map((server) => server.cpuSeconds());
  const timer = setInterval(() => {
    const backlog = meta.backlog();
    timeline.sample('meta-backlog', backlog.queued + backlog.retrying);
    const now = servers.map((server) => server.cpuSeconds());
    servers.forEach((server, i) => {
      timeline.sample(`cpu:${i}`, now[i]! - cpu[i]!);
      timeline.sample(`rss:${i}`, server.rssMiB());
    });
    cpu = now;
    void scrape(urls[0]!, dispatcher).then(
      (values) => {
        timeline.sample('outbox', values.get('parley_outbox_queued') ?? 0);
        timeline.sample('jobs-due', values.get('parley_jobs_due') ?? 0);
      },
      () => timeline.count('scrape:failed'),
    );
  }, 1_000);
  return () => {
    clearInterval(timer);
    void dispatcher.close();
  };
}

async function scrape(baseUrl: string, dispatcher: Agent): Promise<Map<string, number>> {
  const response = await request(`${baseUrl}/metrics`, {
    dispatcher,
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.body.text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(parley_outbox_queued|parley_jobs_due)(?:\{[^}]*\})? (\S+)$/.exec(line);
    if (match) values.set(match[1]!, (values.get(match[1]!) ?? 0) + Number(match[2]));
  }
  return values;
}

function writeCharts(run: Drive, from: number, to: number): string[] {
  const { timeline, servers } = run;
  const slug = run.label.replace(/\W+/g, '-');
  fs.mkdirSync(settings.charts, { recursive: true });
  const seconds = (name: string) => timeline.percentilePerSecond(name, 50, from, to);
  const charts = {
    [`loop-${slug}-rates.svg`]: lineChart(`${run.label}: rates`, 'per second', [
      { label: 'campaign sends', values: timeline.perSecond('send:template', from, to) },
      { label: 'statuses taken', values: timeline.perSecond('webhook:statuses', from, to).map((n) => n / 3) },
      { label: 'customer messages ×10', values: timeline.perSecond('webhook:inbound', from, to).map((n) => n * 10) },
    ]).replace('statuses taken', 'statuses taken ÷3'),
    [`loop-${slug}-latency.svg`]: lineChart(`${run.label}: latency`, 'ms (p99 of each second)', [
      { label: 'webhook answer', values: timeline.percentilePerSecond('webhook:ms', 99, from, to) },
      { label: 'message → live inbox', values: timeline.percentilePerSecond('inbox:ms', 99, from, to) },
      { label: 'keyword → flow reply', values: timeline.percentilePerSecond('flow-reply:ms', 99, from, to) },
    ]),
    [`loop-${slug}-backlog.svg`]: lineChart(`${run.label}: backlogs`, 'waiting', [
      { label: 'outbox queued ÷100', values: seconds('outbox').map((v) => (v === null ? null : v / 100)) },
      { label: 'jobs due', values: seconds('jobs-due') },
      { label: 'webhook items Meta holds', values: seconds('meta-backlog') },
    ]),
    [`loop-${slug}-processes.svg`]: lineChart(`${run.label}: processes`, '% of a core / MiB', [
      ...servers.flatMap((_, i) => [
        { label: `CPU % of process ${i + 1}`, values: seconds(`cpu:${i}`).map((v) => (v === null ? null : v * 100)) },
        { label: `RSS MiB of process ${i + 1}`, values: seconds(`rss:${i}`) },
      ]),
    ]),
  };
  for (const [file, svg] of Object.entries(charts)) fs.writeFileSync(path.join(settings.charts, file), svg);
  return Object.keys(charts);
}

function markdown(outcomes: Outcome[], startedAt: Date): string {
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
  const rows = outcomes.map((o) =>
    [
      o.label,
      `${o.createSeconds.toFixed(1)} s`,
      `${o.sendsPerSecond.toFixed(0)}/s (${((o.sendsPerSecond / settings.rate) * 100).toFixed(0)} %)`,
      `${ms(o.webhook.p50)} / ${ms(o.webhook.p99)} / ${ms(o.webhook.max)} ms (${o.webhook.failed} failed of ${o.webhook.deliveries.toLocaleString('en')})`,
      `${ms(o.inbox.p50)} / ${ms(o.inbox.p99)} ms (${o.inbox.seen}/${o.inbox.sent})`,
      `${ms(o.feed.p50)} / ${ms(o.feed.p99)} ms (${o.feed.seen}/${o.feed.sent})`,
      `${ms(o.flowReply.p50)} / ${ms(o.flowReply.p99)} ms (${o.flowReply.seen}/${o.flowReply.sent})`,
      `${o.outboxPeak.toLocaleString('en')} / ${o.jobsDuePeak} / ${o.metaBacklogPeak}`,
      o.perProcess.map((p) => `${(p.cpuCores * 100).toFixed(0)} % · ${p.peakRssMiB.toFixed(0)} MiB`).join('; '),
      `${(o.benchCpuCores * 100).toFixed(0)} %`,
    ].join(' | '),
  );
  return [
    `Run: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:loop\` (${settings.seconds} s of sending per scenario, Graph answers after ${settings.graphLatencyMs} ms)`,
    '',
    `Machine: ${machine()}.`,
    '',
    '| Deployment | create-campaign answered in | campaign sends (target 1,000/s) | webhook answer p50 / p99 / max | message → live inbox p50 / p99 (seen/sent) | message → feed p50 / p99 (poll every 500 ms) | keyword → flow reply at Meta p50 / p99 | peak outbox / jobs due / Meta queue | CPU (cores used) · peak RSS per process | load generator CPU |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
    '',
    ...outcomes.flatMap((o) => [
      `**${o.label}**`,
      '',
      ...o.charts.map((file) => `![${file}](${settings.charts}/${file})`),
      '',
    ]),
  ].join('\n');
}

const startedAt = new Date();
const outcomes: Outcome[] = [];
for (const { engine, processes } of settings.scenarios) outcomes.push(await runScenario(engine, processes));
const table = markdown(outcomes, startedAt);
console.log(table);
if (settings.output) writeMarkdown(settings.output, table, 'bench-loop', 'npm run bench:loop');
