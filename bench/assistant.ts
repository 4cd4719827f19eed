import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { inboundTextWebhook, signBody } from '../src/whatsapp/webhook.fixtures.js';
import { startGraphStandIn, type GraphStandIn } from '../test/graph-stand-in.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn, type OpenAiStandIn } from '../test/openai-stand-in.js';
import type { Engine } from './config.js';
import { startPostgres } from './processes.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:assistant`: how long Parley itself takes to answer a customer with the AI assistant,
 * beyond the model's own time. A customer's text comes in through Meta's signed webhook over HTTPS; the
 * clock stops when the assistant's reply is queued (its message row's time). The model is the OpenAI
 * stand-in answering after `BENCH_ASSISTANT_MODEL_MS`; the model's time as Parley measured it around the
 * call (the turn's `model_ms`) is taken off. What is left is the assistant's overhead: the job woken after
 * the webhook's commit, the guards read twice, the knowledge searched (full text over the Q&A seeded), the
 * prompt built, the decision checked and applied. The baseline, in the same rounds: a keyword flow's
 * text reply, queued in the webhook's own transaction. Both engines in one run (BENCH_ENGINES,
 * PostgreSQL a durable throwaway cluster of the bench's own on BENCH_PG_PORT).
 */
const env = process.env;
const settings = {
  engines: (env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[],
  pgPort: Number(env.BENCH_PG_PORT ?? 54344),
  messages: Number(env.BENCH_ASSISTANT_MESSAGES ?? 300),
  rounds: Number(env.BENCH_ASSISTANT_ROUNDS ?? 10),
  knowledge: Number(env.BENCH_ASSISTANT_KNOWLEDGE ?? 200),
  modelMs: Number(env.BENCH_ASSISTANT_MODEL_MS ?? 25),
  warmup: 20,
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const APP_SECRET = 'bench-app-secret';
const API_VERSION = 'v23.0';
const log = (message: string) => console.log(`[bench:assistant ${new Date().toISOString().slice(11, 19)}] ${message}`);

type Kind = 'flow' | 'assistant';

interface Line {
  workspaceId: string;
  phoneNumberId: string;
  wabaId: string;
}

interface Bed {
  app: App;
  lines: Record<Kind, Line>;
  /** Posts the customer's text as Meta does; resolves with the time just before the POST (ms since epoch). */
  post(line: Line, from: string, text: string): Promise<number>;
  close(): Promise<void>;
}

/** Topics of the seeded knowledge: each Q&A pair names one, so a question finds a few chunks among many. */
const TOPICS = ['roses', 'tulips', 'lilies', 'orchids', 'peonies', 'sunflowers', 'daisies', 'carnations'];

async function seedKnowledge(app: App, workspaceId: string): Promise<void> {
  const caller = { workspaceId };
  for (let i = 0; i < settings.knowledge; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    await app.services.knowledge.createQa(caller, {
      question: `Question ${i} about ${topic}: how do you care for them?`,
      answer: `Keep the ${topic} of bouquet ${i} in fresh water, cut the stems every other day, away from direct sun.`,
    });
  }
}

async function startBed(model: OpenAiStandIn, graph: GraphStandIn, databaseUrl: string | null): Promise<Bed> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-assistant-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: env.BENCH_LOG ? 'error' : 'silent',
    WHATSAPP_GRAPH_URL: graph.url,
    WHATSAPP_API_VERSION: API_VERSION,
    WHATSAPP_APP_SECRET: APP_SECRET,
    PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  });
  const app = await createApp(config, { logger: env.BENCH_LOG ? { level: 'error' } : false });
  // Nothing is delivered to Meta: the clock stops when the reply is queued.
  await app.services.outbox.stop();
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.server.address() as AddressInfo;
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' } });
  const lines = { flow: await flowLine(app, graph), assistant: await assistantLine(app, graph, model) };
  return {
    app,
    lines,
    async post(line, from, text) {
      const raw = JSON.stringify(inboundTextWebhook({ ...line, from, text }));
      const started = Date.now();
      const response = await request(`https://127.0.0.1:${port}/webhooks/whatsapp`, {
        method: 'POST',
        body: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) },
        dispatcher: agent,
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`the webhook answered ${response.statusCode}`);
      return started;
    },
    async close() {
      await app.close();
      await agent.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A workspace on its own number of Meta's stand-in. */
async function workspaceOn(app: App, graph: GraphStandIn, name: string) {
  const { workspace } = await app.services.workspaces.setup({
    name,
    email: `bench-${randomInt(1e9)}@example.com`,
    password: 'correct horse battery',
  });
  const number = graph.addPhoneNumber();
  await app.services.channels.useWhatsappCloud({ workspaceId: workspace.id }, number);
  return { workspaceId: workspace.id, phoneNumberId: number.phoneNumberId, wabaId: number.wabaId };
}

/** The baseline: a keyword flow that answers with a text, in the webhook's own transaction. */
async function flowLine(app: App, graph: GraphStandIn): Promise<Line> {
  const line = await workspaceOn(app, graph, 'Bench flow');
  const definition = {
    start: 'reply',
    keywords: ['care'],
    nodes: [{ id: 'reply', type: 'send_text' as const, text: 'Keep them in fresh water.' }],
  };
  await app.services.flows.save({ workspaceId: line.workspaceId }, { name: 'Care', definition });
  return line;
}

/** The measured line: the assistant on, the model the stand-in, the knowledge seeded. */
async function assistantLine(app: App, graph: GraphStandIn, model: OpenAiStandIn): Promise<Line> {
  const line = await workspaceOn(app, graph, 'Bench assistant');
  const caller = { workspaceId: line.workspaceId };
  await app.services.aiSettings.save(caller, {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
  });
  const current = await app.services.assistant.settings(caller);
  await app.services.assistant.updateSettings(caller, { ...current, enabled: true, reply_limit: 100 });
  await seedKnowledge(app, line.workspaceId);
  return line;
}

/** The model cites the first chunk it was given, with no figure: every reply passes the checks. */
function answerCitingTheFirstChunk(model: OpenAiStandIn): void {
  model.respond = (chat) => {
    const id = /\[chunk ([0-9a-f-]{36})\]/.exec(String(chat.messages[0]?.content))?.[1];
    return JSON.stringify({
      action: 'reply',
      reply: 'Keep them in fresh water and cut the stems every other day.',
      confidence: 0.9,
      citations: id ? [id] : [],
      hand_over: null,
      tags: [],
      attributes: [],
    });
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the reply to the customer's message; its queueing time and, for the assistant, the model's. */
async function replyOf(app: App, line: Line, phone: string): Promise<{ queuedAt: number; modelMs: number }> {
  const db = app.services.deps.db;
  for (let tries = 0; tries < 5000; tries++) {
    const reply = await db
      .selectFrom('messages')
      .innerJoin('contacts', 'contacts.id', 'messages.contact_id')
      .select(['messages.id', 'messages.created_at'])
      .where('messages.workspace_id', '=', line.workspaceId)
      .where('contacts.phone', '=', phone)
      .where('messages.direction', '=', 'outbound')
      .executeTakeFirst();
    if (reply) {
      const turn = await db
        .selectFrom('assistant_turns')
        .select(['model_ms', 'action'])
        .where('reply_message_id', '=', reply.id)
        .executeTakeFirst();
      if (turn && turn.action !== 'reply') throw new Error(`the assistant did not reply: ${turn.action}`);
      return { queuedAt: Date.parse(reply.created_at), modelMs: turn?.model_ms ?? 0 };
    }
    await sleep(1);
  }
  throw new Error(`no reply to ${phone}`);
}

let customers = 0;
/** One customer's first message, and the time from the webhook to the reply queued (the model's taken off). */
async function once(bed: Bed, kind: Kind): Promise<{ total: number; model: number }> {
  const phone = `+1415${String(2_000_000 + customers++).padStart(7, '0')}`;
  const text = kind === 'flow' ? 'care' : `How do I care for ${TOPICS[customers % TOPICS.length]}?`;
  const started = await bed.post(bed.lines[kind], phone, text);
  const { queuedAt, modelMs } = await replyOf(bed.app, bed.lines[kind], phone);
  return { total: queuedAt - started, model: modelMs };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;

interface Row {
  label: string;
  count: number;
  p50: number;
  p90: number;
  p99: number;
}

function rowOf(label: string, times: number[]): Row {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    label,
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
  };
}

async function measure(bed: Bed): Promise<Row[]> {
  const flow: number[] = [];
  const total: number[] = [];
  const model: number[] = [];
  const overhead: number[] = [];
  const perRound = Math.ceil(settings.messages / settings.rounds);
  for (let round = 0; round < settings.rounds; round++) {
    for (let i = 0; i < perRound; i++) flow.push((await once(bed, 'flow')).total);
    for (let i = 0; i < perRound; i++) {
      const turn = await once(bed, 'assistant');
      total.push(turn.total);
      model.push(turn.model);
      overhead.push(turn.total - turn.model);
    }
    log(`round ${round + 1}/${settings.rounds}`);
  }
  return [
    rowOf('Baseline: a keyword flow’s text reply', flow),
    rowOf('AI reply, the model’s time included', total),
    rowOf('The model’s time, as Parley measured the call', model),
    rowOf('AI reply overhead beyond the model’s time', overhead),
  ];
}

/** Each engine's rows, from one server on that engine; the stand-ins serve both. */
async function measureEngine(model: OpenAiStandIn, graph: GraphStandIn, engine: Engine): Promise<Row[]> {
  const postgres = engine === 'postgres' ? await startPostgres(settings.pgPort) : null;
  const bed = await startBed(model, graph, postgres?.url ?? null);
  try {
    for (let i = 0; i < settings.warmup; i++) {
      await once(bed, 'flow');
      await once(bed, 'assistant');
    }
    return await measure(bed);
  } finally {
    await bed.close();
    await postgres?.stop();
  }
}

async function main(): Promise<void> {
  const model = await startOpenAiStandIn();
  model.latencyMs = settings.modelMs;
  answerCitingTheFirstChunk(model);
  const graph = await startGraphStandIn({ apiVersion: API_VERSION });
  const rows: (Row & { engine: string })[] = [];
  const loadAverage = os.loadavg()[0]!.toFixed(2);
  try {
    for (const engine of settings.engines) {
      log(engine);
      const name = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      for (const row of await measureEngine(model, graph, engine)) rows.push({ ...row, engine: name });
    }
  } finally {
    await graph.close();
    await model.close();
  }
  for (const row of rows) log(`${row.engine} ${row.label}: p50 ${row.p50} ms, p99 ${row.p99} ms`);
  const generated = [
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:assistant\` ` +
      `(BENCH_ASSISTANT_MESSAGES=${settings.messages} per kind and engine in ${settings.rounds} alternating rounds, ` +
      `${settings.knowledge} Q&A pairs of knowledge, the stand-in answering after ${settings.modelMs} ms)`,
    '',
    `Machine: ${machine()}. Load average at the start: ${loadAverage}.`,
    '',
    'Each message is a new customer’s text through Meta’s signed webhook over HTTPS (keep-alive); the clock stops ' +
      'at the reply’s queueing time (its message row, in milliseconds). The AI reply’s overhead is its time less ' +
      'the model call’s own as Parley measured it (the turn’s `model_ms`: the HTTP round trip to the stand-in and ' +
      'its answer).',
    '',
    '| Engine | Measured | Replies | p50 ms | p90 ms | p99 ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.engine} | ${r.label} | ${r.count} | ${r.p50} | ${r.p90} | ${r.p99} |`),
  ].join('\n');
  if (!settings.output) return console.log(generated);
  writeMarkdown(settings.output, generated, 'bench-assistant', 'npm run bench:assistant');
  log(`wrote ${settings.output}`);
}

await main();
