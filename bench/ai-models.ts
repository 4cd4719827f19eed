import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn, type OpenAiStandIn } from '../test/openai-stand-in.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:ai-models`: what Parley adds to a call of a workspace's own model, beyond the model's own
 * time (the time inside the `openai` client's request, `modelMs`): the settings read, the budget checked
 * against the month's ledger, the key opened, a client made, and the tokens added to the ledger after. The
 * model is the OpenAI stand-in on loopback, answering at once. Two kinds alternate in rounds: without a
 * budget, and with one (one more query before each call). SQLite always; PostgreSQL too when
 * BENCH_DATABASE_URL names a server (a database of the bench's own is made on it).
 */
const env = process.env;
const settings = {
  calls: Number(env.BENCH_AI_CALLS ?? 2000),
  rounds: Number(env.BENCH_AI_ROUNDS ?? 10),
  warmup: 100,
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const log = (message: string) => console.log(`[bench:ai-models ${new Date().toISOString().slice(11, 19)}] ${message}`);

const KINDS = ['no budget', 'with a budget'] as const;
type Kind = (typeof KINDS)[number];

interface Bed {
  app: App;
  workspaces: Record<Kind, string>;
  close(): Promise<void>;
}

async function startBed(model: OpenAiStandIn, databaseUrl: string | null): Promise<Bed> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-ai-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  });
  const app = await createApp(config, { logger: false });
  const { services } = app;
  const workspaceWith = async (budget: number | null) => {
    const { workspace } = await services.workspaces.setup({
      name: 'Bench',
      email: `bench-${randomInt(1e9)}@example.com`,
      password: 'correct horse battery',
    });
    await services.aiSettings.save(
      { workspaceId: workspace.id },
      {
        enabled: true,
        base_url: model.url,
        model: CHAT_MODEL,
        api_key: STAND_IN_API_KEY,
        monthly_token_budget: budget,
      },
    );
    return workspace.id;
  };
  const workspaces = { 'no budget': await workspaceWith(null), 'with a budget': await workspaceWith(1_000_000_000) };
  return {
    app,
    workspaces,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One call through the port; what Parley added (the call's time less the model's) and the model's time, in ms. */
async function call(bed: Bed, kind: Kind): Promise<{ overhead: number; model: number }> {
  const started = performance.now();
  const result = await bed.app.services.aiModels.chat(bed.workspaces[kind], {
    purpose: 'eval',
    messages: [
      { role: 'system', content: 'You answer from the shop’s knowledge only.' },
      { role: 'user', content: 'When do you open on Saturdays?' },
    ],
    maxTokens: 200,
  });
  const elapsed = performance.now() - started;
  return { overhead: elapsed - result.modelMs, model: result.modelMs };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;

interface Row {
  engine: string;
  kind: Kind;
  calls: number;
  p50: number;
  p90: number;
  p99: number;
  modelP50: number;
}

async function measure(engine: string, bed: Bed): Promise<Row[]> {
  for (let i = 0; i < settings.warmup; i++) for (const kind of KINDS) await call(bed, kind);
  const overheads: Record<Kind, number[]> = { 'no budget': [], 'with a budget': [] };
  const models: Record<Kind, number[]> = { 'no budget': [], 'with a budget': [] };
  const perRound = Math.ceil(settings.calls / settings.rounds);
  for (let round = 0; round < settings.rounds; round++) {
    for (const kind of KINDS) {
      for (let i = 0; i < perRound; i++) {
        const { overhead, model } = await call(bed, kind);
        overheads[kind].push(overhead);
        models[kind].push(model);
      }
    }
  }
  return KINDS.map((kind) => {
    const sorted = [...overheads[kind]].sort((a, b) => a - b);
    return {
      engine,
      kind,
      calls: sorted.length,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
      modelP50: percentile(
        [...models[kind]].sort((a, b) => a - b),
        0.5,
      ),
    };
  });
}

function report(rows: Row[], startedAt: Date): string {
  const ms = (value: number) => value.toFixed(2);
  return [
    `Run: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:ai-models\` (BENCH_AI_CALLS=${settings.calls} per kind and engine, in ${settings.rounds} alternating rounds, one call at a time)`,
    '',
    `Machine: ${machine()}. Load average at the start: ${os.loadavg()[0]!.toFixed(2)}.`,
    '',
    'Each call goes through `AiModels.chat` (a system and a user message, `max_tokens` 200) to the OpenAI stand-in on loopback. Overhead: the call’s time less the model’s own (`modelMs`, the time inside the `openai` client’s request).',
    '',
    '| Engine | Kind | Calls | Overhead p50 ms | p90 ms | p99 ms | Model’s own time p50 ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.engine} | ${row.kind} | ${row.calls} | ${ms(row.p50)} | ${ms(row.p90)} | ${ms(row.p99)} | ${ms(row.modelP50)} |`,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const model = await startOpenAiStandIn();
  const engines: [string, string | null][] = [['SQLite', null]];
  if (env.BENCH_DATABASE_URL) engines.push(['PostgreSQL', env.BENCH_DATABASE_URL]);
  const rows: Row[] = [];
  for (const [engine, url] of engines) {
    log(`${engine}: ${settings.calls} calls per kind`);
    const bed = await startBed(model, url);
    try {
      rows.push(...(await measure(engine, bed)));
    } finally {
      await bed.close();
    }
  }
  await model.close();
  const generated = report(rows, startedAt);
  console.log(generated);
  writeMarkdown(settings.output, generated, 'bench-ai-models', 'npm run bench:ai-models');
}

await main();
