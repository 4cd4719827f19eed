import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:flow-builder`: what the flow builder waits for, through the API it calls over HTTPS.
 * Load = get-flow then get-flow-stats (the canvas, then its counts); save = save-flow-draft with the cards'
 * layout then publish-flow (the builder's Publish). Measured for a 200-node flow against the baseline of a
 * 10-node flow in the same run; the sizes alternate in rounds, so a noisy neighbour weighs on both alike.
 */
const env = process.env;
const settings = {
  rounds: Number(env.BENCH_BUILDER_ROUNDS ?? 10),
  perRound: Number(env.BENCH_BUILDER_PER_ROUND ?? 20),
  runs: Number(env.BENCH_BUILDER_RUNS ?? 200),
  sizes: [10, 200],
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const log = (message: string) =>
  console.log(`[bench:flow-builder ${new Date().toISOString().slice(11, 19)}] ${message}`);

/**
 * A flow of `size` nodes as the builder makes them: messages, every fifth node a branch on a tag, every
 * tenth a message with buttons and the wait for its reply, ending at `end`. `edit` changes one text, so
 * each publish is a new version.
 */
function definitionOf(size: number, edit: number) {
  const nodes: Record<string, unknown>[] = [];
  for (let k = 0; nodes.length < size - 1; k++) {
    const pair = k % 10 === 9 && nodes.length + 2 <= size - 1;
    const next = nodes.length + (pair ? 2 : 1) >= size - 1 ? 'end' : `step_${k + 1}`;
    const id = `step_${k}`;
    if (pair) {
      nodes.push({
        id,
        type: 'send_buttons',
        text: `Step ${k}?`,
        buttons: [{ id: 'yes', title: 'Yes' }],
        next: `${id}-reply`,
      });
      nodes.push({ id: `${id}-reply`, type: 'wait_for_reply', timeout: 'P1D', next, on_timeout: next });
    } else if (k % 5 === 4) {
      nodes.push({ id, type: 'branch', branches: [{ when: { has_tag: 'vip' }, next }], default: next });
    } else {
      nodes.push({ id, type: 'send_text', text: `Step ${k} for {{contact.first_name}} (${edit})`, next });
    }
  }
  nodes.push({ id: 'end', type: 'end' });
  return { start: 'step_0', keywords: [`size${size}`], nodes };
}

const layoutOf = (definition: { nodes: Record<string, unknown>[] }) =>
  Object.fromEntries(
    definition.nodes.map((node, i) => [node.id as string, { x: (i % 20) * 330, y: Math.floor(i / 20) * 200 }]),
  );

interface Bed {
  call(action: string, body: object): Promise<{ id?: string; draft?: { problems: unknown[] } | null }>;
  flowIds: Map<number, string>;
  close(): Promise<void>;
}

async function startBed(): Promise<Bed> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-builder-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
  const app = await createApp(config, { logger: false });
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.server.address() as AddressInfo;
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' } });
  const { services } = app;
  const { workspace, user } = await services.workspaces.setup({
    name: 'Bench',
    email: `bench-${randomInt(1e9)}@example.com`,
    password: 'correct horse battery',
  });
  // The builder's calls are measured, not the API's rate limit.
  await services.workspaces.update(workspace.id, { rateLimitPerMinute: 10_000_000 });
  const issued = await services.tokens.create({
    workspaceId: workspace.id,
    userId: user.id,
    name: 'bench',
    scope: 'full',
  });
  const call: Bed['call'] = async (action, body) => {
    const response = await request(`https://127.0.0.1:${port}/api/v1/actions/${action}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.token}` },
      dispatcher: agent,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${action} answered ${response.statusCode}: ${text}`);
    return JSON.parse(text) as Awaited<ReturnType<Bed['call']>>;
  };
  const flowIds = new Map<number, string>();
  for (const size of settings.sizes) {
    const created = await call('save-flow', { name: `Flow of ${size}`, definition: definitionOf(size, 0) });
    flowIds.set(size, created.id!);
    // Runs to count: each contact writes the keyword (the simulator), its run walking to the first wait.
    for (let i = 0; i < settings.runs; i++) {
      await call('simulate-inbound-message', {
        phone: `+1415${String(2_000_000 + size * 1000 + i)}`,
        text: `size${size}`,
      });
    }
  }
  return {
    call,
    flowIds,
    async close() {
      await app.close();
      await agent.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Step = 'load' | 'save';

/** One load (get-flow, then get-flow-stats) or one save (save-flow-draft, then publish-flow), in ms. */
async function timed(bed: Bed, size: number, step: Step, edit: number): Promise<number> {
  const flowId = bed.flowIds.get(size)!;
  const started = performance.now();
  if (step === 'load') {
    await bed.call('get-flow', { flow_id: flowId });
    await bed.call('get-flow-stats', { flow_id: flowId });
  } else {
    const definition = definitionOf(size, edit);
    const draft = await bed.call('save-flow-draft', { flow_id: flowId, definition, layout: layoutOf(definition) });
    if (draft.draft?.problems.length)
      throw new Error(`the ${size}-node draft has problems: ${JSON.stringify(draft.draft)}`);
    await bed.call('publish-flow', { flow_id: flowId });
  }
  return performance.now() - started;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;

interface Row {
  size: number;
  step: Step;
  count: number;
  p50: number;
  p90: number;
  p99: number;
}

async function main(): Promise<void> {
  const bed = await startBed();
  const times = new Map<string, number[]>();
  let edit = 1;
  try {
    for (let round = -1; round < settings.rounds; round++) {
      for (const size of settings.sizes) {
        for (const step of ['load', 'save'] as const) {
          for (let i = 0; i < settings.perRound; i++) {
            const ms = await timed(bed, size, step, edit++);
            if (round >= 0) times.set(`${size}|${step}`, [...(times.get(`${size}|${step}`) ?? []), ms]);
          }
        }
      }
      if (round >= 0) log(`round ${round + 1} of ${settings.rounds}`);
    }
  } finally {
    await bed.close();
  }
  const rows: Row[] = [...times].map(([key, list]) => {
    const [size, step] = key.split('|') as [string, Step];
    const sorted = [...list].sort((a, b) => a - b);
    return {
      size: Number(size),
      step,
      count: sorted.length,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
    };
  });
  for (const r of rows) log(`${r.size} nodes, ${r.step}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`);
  const ms = (value: number) => value.toFixed(1);
  const label = (r: Row) =>
    `${r.step === 'load' ? 'load: get-flow + get-flow-stats' : 'save: save-flow-draft + publish-flow'}, ${r.size} nodes${r.size === 10 ? ' (baseline)' : ''}`;
  writeMarkdown(
    settings.output,
    [
      `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:flow-builder\` ` +
        `(${settings.rounds} alternating rounds of ${settings.perRound} per size and step, ${settings.runs} runs per flow, SQLite)`,
      '',
      `Machine: ${machine()}.`,
      '',
      'Each call over HTTPS (keep-alive) with a token, one at a time, as the builder makes them. A save sends the whole ' +
        'definition with every card’s place and publishes it as a new version (one text changes each time).',
      '',
      '| Builder step | Times | p50 ms | p90 ms | p99 ms |',
      '| --- | --- | --- | --- | --- |',
      ...rows.map((r) => `| ${label(r)} | ${r.count} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} |`),
    ].join('\n'),
    'bench-flow-builder',
    'npm run bench:flow-builder',
  );
  log(`wrote ${settings.output}`);
}

await main();
