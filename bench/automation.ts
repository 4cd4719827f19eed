import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connection.js';
import { systemClock } from '../src/shared/clock.js';
import { createIdGenerator } from '../src/shared/ids.js';
import { toStoredTimestamp } from '../src/shared/time.js';
import type { Engine } from './config.js';
import { startGraphSink, type GraphSink } from './graph-sink.js';
import {
  generatedCertificate,
  httpsJson,
  NodeProcess,
  parleyCli,
  setCloudChannel,
  startPostgres,
} from './processes.js';
import { writeMarkdown } from './report.js';

/**
 * `npm run bench:automation`: the three engines on the durable scheduler, against a local Graph API
 * sink, on each engine. Contacts, enrolments and their due jobs are loaded straight into the
 * database; the real Parley server (a child process) runs them.
 */

const env = process.env;
const settings = {
  engines: (env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[],
  recipients: Number(env.BENCH_CAMPAIGN_RECIPIENTS ?? 100_000),
  campaignRate: 1_000,
  steps: Number(env.BENCH_SEQUENCE_STEPS ?? 100_000),
  /** Steps all due at once: how fast the scheduler drains a backlog (its capacity, not the arrival rate). */
  backlogSteps: Number(env.BENCH_BACKLOG_STEPS ?? 30_000),
  /** Steps fall due at the target rate, spread evenly: lateness shows whether the scheduler keeps up. */
  stepsDuePerSecond: 1_000,
  replies: Number(env.BENCH_FLOW_REPLIES ?? 1_000),
  /** Statements between BEGIN and COMMIT in a PostgreSQL flow reply (the relay baseline runs as many). */
  replyStatements: 10,
  relayPort: Number(env.BENCH_RELAY_PORT ?? 18447),
  port: Number(env.BENCH_PORT ?? 18446),
  pgPort: Number(env.BENCH_PG_PORT ?? 54342),
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const APP_SECRET = 'bench-app-secret';
const WABA_ID = '2000002';
const PHONE_NUMBER_ID = '1000002';

interface Result {
  engine: Engine;
  campaignSeconds: number;
  campaignCpuCores: number;
  stepsPerSecond: number;
  stepLatenessP99Ms: number;
  backlogStepsPerSecond: number;
  replyP50Ms: number;
  replyP99Ms: number;
  replyStealPercent: number;
  relays: RelayResult[];
  peakRssMiB: number;
}

interface RelayResult {
  label: string;
  p50Ms: number;
  p99Ms: number;
  stealPercent: number;
}

const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1]!;

/** The document imported before the server starts: a template, a reply flow and a one-step sequence. */
function automationDocument() {
  return {
    version: 1,
    templates: [
      {
        name: 'bench_offer',
        category: 'MARKETING',
        translations: [{ language: 'en', status: 'APPROVED', body: 'Hi {{1}}, 10% off today.' }],
      },
    ],
    flows: [
      {
        name: 'Reply bot',
        definition: {
          start: 'wait',
          nodes: [
            { id: 'wait', type: 'wait_for_reply', timeout: 'P1D', next: 'answer' },
            { id: 'answer', type: 'send_text', text: 'Thanks {{contact.name}}, a person will follow up.' },
          ],
        },
      },
    ],
    sequences: [{ name: 'Tag step', definition: { steps: [{ action: { type: 'add_tag', tag: 'stepped' } }] } }],
  };
}

/** Contacts tagged `audience`, all with an open 24-hour window; returns their ids in order. */
async function seedContacts(db: ReturnType<typeof openDatabase>['db'], workspaceId: string, count: number) {
  const newId = createIdGenerator(systemClock);
  const now = toStoredTimestamp(new Date());
  const tagId = newId();
  await db
    .insertInto('tags')
    .values({ id: tagId, workspace_id: workspaceId, name: 'audience', name_key: 'audience', created_at: now })
    .execute();
  const ids: string[] = [];
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
      id: newId(),
      workspace_id: workspaceId,
      phone: `+1415${3_000_000 + i + k}`,
      name: `Bench ${i + k}`,
      custom_attributes: '{}',
      last_inbound_at: now,
      created_at: now,
      updated_at: now,
    }));
    await db.insertInto('contacts').values(rows).execute();
    await db
      .insertInto('contact_tags')
      .values(rows.map((row) => ({ contact_id: row.id, tag_id: tagId, created_at: now })))
      .execute();
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** `count` enrolments whose first step falls due at `perSecond` (Infinity: all at once), from `leadMs` from now. */
async function seedDueSteps(
  db: ReturnType<typeof openDatabase>['db'],
  workspaceId: string,
  contactIds: string[],
  leadMs: number,
  count = settings.steps,
  perSecond = settings.stepsDuePerSecond,
) {
  const newId = createIdGenerator(systemClock);
  const sequence = await db
    .selectFrom('sequences')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const start = Date.now() + leadMs;
  const due = new Map<string, number>();
  const now = toStoredTimestamp(new Date());
  for (let i = 0; i < count; i += 500) {
    const batch = Array.from({ length: Math.min(500, count - i) }, (_, k) => {
      const at = perSecond === Infinity ? start : start + ((i + k) * 1000) / perSecond;
      return { id: newId(), contactId: contactIds[(i + k) % contactIds.length]!, at };
    });
    await retryingBusy(() =>
      db
        .insertInto('sequence_enrolments')
        .values(
          batch.map((e) => ({
            id: e.id,
            workspace_id: workspaceId,
            sequence_id: sequence.id,
            contact_id: e.contactId,
            status: 'active',
            context: '{}',
            created_at: now,
            updated_at: now,
          })),
        )
        .execute(),
    );
    await retryingBusy(() =>
      db
        .insertInto('jobs')
        .values(
          batch.map((e) => ({
            id: newId(),
            workspace_id: workspaceId,
            kind: 'sequence_step',
            subject_id: e.id,
            payload: '{"step":0}',
            due_at: toStoredTimestamp(new Date(e.at)),
            created_at: now,
          })),
        )
        .execute(),
    );
    for (const e of batch) due.set(e.id, e.at);
  }
  return due;
}

/** The server writes to the same SQLite file while the bench loads rows: a busy database is retried. */
async function retryingBusy<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 50) throw error;
      await sleep(100);
    }
  }
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 900_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function signedReply(from: string, sequence: number): { body: string; signature: string } {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA_ID,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550002000', phone_number_id: PHONE_NUMBER_ID },
              contacts: [{ profile: { name: 'Bench' }, wa_id: from }],
              messages: [
                {
                  from,
                  id: `wamid.BENCHREPLY${sequence}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'text',
                  text: { body: 'where is my order?' },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  return { body, signature: `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}` };
}

async function runEngine(engine: Engine): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-automation-${engine}-`));
  const postgres = engine === 'postgres' ? await startPostgres(settings.pgPort) : null;
  const where = { databaseUrl: postgres?.url ?? null, dataDir };
  const sink: GraphSink = await startGraphSink({ phoneNumberId: PHONE_NUMBER_ID, wabaId: WABA_ID });
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
  const { db } = openDatabase(where);
  try {
    const setup = await parleyCli(
      ['setup', '--workspace', 'bench', '--email', 'bench@bench.example', '--password', 'bench-pass-phrase'],
      processEnv,
    );
    const workspaceId = (setup.workspace as { id: string }).id;
    const { token } = (await parleyCli(['token', 'create', '--workspace', workspaceId], processEnv)) as {
      token: string;
    };
    // The bench triggers hundreds of flows through one token: lift the per-token request budget.
    await parleyCli(['workspace', 'set', '--id', workspaceId, '--rate-limit', '1000000'], processEnv);
    await setCloudChannel(processEnv, workspaceId, {
      phoneNumberId: PHONE_NUMBER_ID,
      wabaId: WABA_ID,
      messagesPerSecond: settings.campaignRate,
    });
    const documentFile = path.join(dataDir, 'automation.json');
    fs.writeFileSync(documentFile, JSON.stringify(automationDocument()));
    await parleyCli(['import', '--workspace', workspaceId, documentFile], processEnv);
    log(`${engine}: seeding ${settings.recipients} contacts`);
    const contactIds = await seedContacts(db, workspaceId, settings.recipients);

    server = new NodeProcess('parley', 'src/main.ts', processEnv, env.BENCH_SERVER_NODE_OPTIONS?.split(' ') ?? []);
    const ca = () => generatedCertificate(dataDir);
    const baseUrl = `https://127.0.0.1:${settings.port}`;
    await server.waitUntilReady(`${baseUrl}/healthz`, ca);
    const api = (action: string, body: unknown) =>
      httpsJson(`${baseUrl}/api/v1/actions/${action}`, ca()!, { method: 'POST', token, body });

    // 1. A campaign to every contact at the 1,000/s tier.
    const template = await db
      .selectFrom('templates')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    const cpuBefore = server.cpuSeconds();
    const created = await api('create-campaign', {
      name: 'Bench',
      template_id: template.id,
      audience: { tag: 'audience' },
      variables: ['{{contact.name}}'],
    });
    if (created.status !== 200) throw new Error(`create-campaign: ${JSON.stringify(created.body)}`);
    log(`${engine}: campaign to ${settings.recipients} at ${settings.campaignRate}/s`);
    await waitFor(() => sink.received() >= settings.recipients, 'the campaign');
    const campaignSeconds = (sink.arrivals[settings.recipients - 1]! - sink.arrivals[0]!) / 1000;
    const campaignCpuCores = (server.cpuSeconds() - cpuBefore) / campaignSeconds;
    log(`${engine}: campaign sent in ${campaignSeconds.toFixed(1)} s, ${campaignCpuCores.toFixed(2)} cores`);

    // 2. Sequence steps falling due faster than the target rate.
    const due = await seedDueSteps(db, workspaceId, contactIds, 30_000);
    log(`${engine}: ${settings.steps} steps due at ${settings.stepsDuePerSecond}/s`);
    const completed = async () =>
      Number(
        (
          await db
            .selectFrom('sequence_enrolments')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'completed')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await waitFor(async () => (await completed()) >= settings.steps, 'the sequence steps');
    const rows = await db
      .selectFrom('sequence_enrolments')
      .select(['id', 'updated_at'])
      .where('status', '=', 'completed')
      .execute();
    const lateness = rows.map((row) => Date.parse(row.updated_at) - due.get(row.id)!);
    const first = Math.min(...due.values());
    const last = Math.max(...rows.map((row) => Date.parse(row.updated_at)));
    const stepsPerSecond = settings.steps / ((last - first) / 1000);
    log(`${engine}: steps at ${stepsPerSecond.toFixed(0)}/s, p99 lateness ${percentile(lateness, 99)} ms`);

    // 2b. A backlog all due at once: the scheduler's drain rate.
    const backlog = await seedDueSteps(db, workspaceId, contactIds, 5_000, settings.backlogSteps, Infinity);
    log(`${engine}: a backlog of ${settings.backlogSteps} steps due at once`);
    await waitFor(async () => (await completed()) >= settings.steps + settings.backlogSteps, 'the backlog');
    const drained = await db
      .selectFrom('sequence_enrolments')
      .select(sql<string>`max(updated_at)`.as('at'))
      .where('status', '=', 'completed')
      .executeTakeFirstOrThrow();
    const backlogStepsPerSecond =
      settings.backlogSteps / ((Date.parse(drained.at) - Math.min(...backlog.values())) / 1000);
    log(`${engine}: backlog drained at ${backlogStepsPerSecond.toFixed(0)}/s`);

    // 3. Flow replies: webhook in, answer out, one at a time.
    const waiting = contactIds.slice(0, settings.replies);
    const flow = await db
      .selectFrom('flows')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    for (const contactId of waiting) {
      const started = await api('trigger-flow', { flow_id: flow.id, contact_id: contactId });
      if (started.status !== 200) throw new Error(`trigger-flow: ${JSON.stringify(started.body)}`);
    }
    const agent = new Agent({ connect: { ca: ca()! } });
    const reply = await replyLatencies(agent, baseUrl, sink);
    log(
      `${engine}: flow reply p99 ${percentile(reply.latencies, 99).toFixed(1)} ms (CPU steal ${reply.stealPercent.toFixed(0)} %)`,
    );
    const peakRssMiB = server.peakRssMiB();
    await server.stop();
    server = undefined;
    const relays = await relayBaselines(agent, sink, dataDir, postgres?.url ?? null);
    await agent.close();
    return {
      engine,
      campaignSeconds,
      campaignCpuCores,
      stepsPerSecond,
      stepLatenessP99Ms: percentile(lateness, 99),
      backlogStepsPerSecond,
      replyP50Ms: percentile(reply.latencies, 50),
      replyP99Ms: percentile(reply.latencies, 99),
      replyStealPercent: reply.stealPercent,
      relays,
      peakRssMiB,
    };
  } finally {
    await db.destroy();
    await server?.stop();
    await sink.close();
    await postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Webhook deliveries one at a time, each a reply from the next contact, timed from the POST to the
 * message's arrival at the Graph API sink; with the share of CPU time the hypervisor took meanwhile.
 */
async function replyLatencies(agent: Agent, baseUrl: string, sink: GraphSink) {
  const latencies: number[] = [];
  const before = cpuTimes();
  for (let i = 0; i < settings.replies; i += 1) {
    const { body, signature } = signedReply(`1415${3_000_000 + i}`, i);
    const arrived = sink.received();
    const sent = performance.now();
    await postWebhook(agent, `${baseUrl}/webhooks/whatsapp`, body, signature);
    await waitFor(() => sink.received() > arrived, 'the flow answer', 10_000);
    latencies.push(sink.arrivals[arrived]! - sent);
  }
  return { latencies, stealPercent: stealSince(before) };
}

/**
 * The same-run baselines for the flow reply (bench/relay.ts): a bare HTTPS relay from webhook to
 * sink, and on PostgreSQL the relay after as many round trips as Parley's reply makes.
 */
async function relayBaselines(agent: Agent, sink: GraphSink, dataDir: string, databaseUrl: string | null) {
  const variants = [{ label: 'bare HTTPS relay', env: {} }];
  if (databaseUrl) {
    variants.push({
      label: `relay after ${settings.replyStatements + 2} PostgreSQL round trips (BEGIN, ${settings.replyStatements} × SELECT, COMMIT)`,
      env: { RELAY_DATABASE_URL: databaseUrl, RELAY_STATEMENTS: String(settings.replyStatements) },
    });
  }
  const results: RelayResult[] = [];
  for (const variant of variants) {
    const relay = new NodeProcess('relay', 'bench/relay.ts', {
      PATH: env.PATH,
      RELAY_CERT: path.join(dataDir, 'tls', 'cert.pem'),
      RELAY_KEY: path.join(dataDir, 'tls', 'key.pem'),
      RELAY_GRAPH_URL: sink.url,
      PORT: String(settings.relayPort),
      ...variant.env,
    });
    const baseUrl = `https://127.0.0.1:${settings.relayPort}`;
    try {
      await relay.waitUntilReady(`${baseUrl}/`, () => generatedCertificate(dataDir));
      const { latencies, stealPercent } = await replyLatencies(agent, baseUrl, sink);
      const result = {
        label: variant.label,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        stealPercent,
      };
      log(`baseline, ${result.label}: p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms`);
      results.push(result);
    } finally {
      await relay.stop();
    }
  }
  return results;
}

/** The machine's CPU times (all cores, in ticks) from /proc/stat: total and steal. */
function cpuTimes(): { total: number; steal: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
}

/** The share of CPU time stolen by the hypervisor (other guests) since `before`, in percent. */
function stealSince(before: { total: number; steal: number }): number {
  const now = cpuTimes();
  return now.total === before.total ? 0 : (100 * (now.steal - before.steal)) / (now.total - before.total);
}

/** Posts one signed webhook delivery through an agent that trusts this run's certificate. */
async function postWebhook(agent: Agent, url: string, body: string, signature: string) {
  const response = await request(url, {
    dispatcher: agent,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
  });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`webhook answered ${response.statusCode}`);
}

function markdown(results: Result[]): string {
  const pass = (ok: boolean) => (ok ? 'pass' : '**FAIL**');
  const ideal = settings.recipients / settings.campaignRate;
  const rows = results.flatMap((r) => [
    `| ${r.engine} | campaign of ${settings.recipients.toLocaleString('en')} at ${settings.campaignRate}/s within 5 % of ${ideal} s | ${r.campaignSeconds.toFixed(1)} s | ${pass(r.campaignSeconds <= ideal * 1.05)} |`,
    `| ${r.engine} | server CPU during the campaign < 1 core | ${r.campaignCpuCores.toFixed(2)} cores | ${pass(r.campaignCpuCores < 1)} |`,
    `| ${r.engine} | a backlog of ${settings.backlogSteps.toLocaleString('en')} due steps drains ≥ 1,000/s | ${r.backlogStepsPerSecond.toFixed(0)}/s | ${pass(r.backlogStepsPerSecond >= 1000)} |`,
    `| ${r.engine} | ${settings.steps.toLocaleString('en')} steps due at 1,000/s: p99 lateness ≤ 1 s (run at ${r.stepsPerSecond.toFixed(0)}/s) | ${r.stepLatenessP99Ms} ms | ${pass(r.stepLatenessP99Ms <= 1000)} |`,
    `| ${r.engine} | flow reply, webhook → Graph API, p99 ≤ 20 ms (CPU steal ${r.replyStealPercent.toFixed(0)} %) | p50 ${r.replyP50Ms.toFixed(1)} ms, p99 ${r.replyP99Ms.toFixed(1)} ms | ${pass(r.replyP99Ms <= 20)} |`,
    ...r.relays.map(
      (relay) =>
        `| ${r.engine} | baseline: ${relay.label} (CPU steal ${relay.stealPercent.toFixed(0)} %) | p50 ${relay.p50Ms.toFixed(1)} ms, p99 ${relay.p99Ms.toFixed(1)} ms | – |`,
    ),
    `| ${r.engine} | server peak RSS | ${r.peakRssMiB.toFixed(0)} MiB | – |`,
  ]);
  const cpu = os.cpus();
  return [
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:automation\``,
    '',
    `Machine: ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), Node ${process.version}. Graph API: a local sink (bench/graph-sink.ts). Steps fall due at ${settings.stepsDuePerSecond}/s; flow replies are sent one at a time (${settings.replies}).`,
    '',
    '| Engine | Target | Measured | Result |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

const results: Result[] = [];
for (const engine of settings.engines) results.push(await runEngine(engine));
const text = markdown(results);
console.log(text);
writeMarkdown(settings.output, text, 'bench-automation', 'npm run bench:automation');
