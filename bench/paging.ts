import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { WorkspaceDataset } from './dataset.js';
import { generatedCertificate, NodeProcess, parleyCli } from './processes.js';
import { machine, writeMarkdown } from './report.js';
import { SqliteSeeder } from './seed-sqlite.js';

/**
 * `npm run bench:paging`: issue 6's paging figures. Seeds BENCH_PAGING_CONTACTS contacts (plus two
 * noise workspaces, so the measured rows share their indexes) into SQLite, starts the real server
 * and a bare hello-world (the baseline), then pages through every contact with
 * `paginate=cursor&limit=500` over HTTPS, one request at a time, timing each page.
 */
const env = process.env;
const settings = {
  contacts: Number(env.BENCH_PAGING_CONTACTS ?? 1_000_000),
  noiseContacts: Number(env.BENCH_NOISE_CONTACTS ?? 50_000),
  limit: 500,
  /** Requests of the first and of the last page whose median is compared (a single one is noise). */
  repeats: 5,
  port: Number(env.BENCH_PORT ?? 18448),
  helloPort: Number(env.BENCH_HELLO_PORT ?? 18449),
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const TARGETS = { lastToFirst: 1.5, totalSeconds: 30 };

const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const seconds = (since: number) => (performance.now() - since) / 1000;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const median = (values: number[]) => percentile(values, 50);

interface ContactPage {
  data: { id: string }[];
  next_cursor: string | null;
}

/** Times one request to its last byte over a kept-alive HTTPS connection. */
async function timed(agent: Agent, url: string, init: { token?: string; body?: string }) {
  const started = performance.now();
  const response = await request(url, {
    dispatcher: agent,
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(init.body !== undefined && { body: init.body }),
  });
  const text = await response.body.text();
  const ms = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${text.slice(0, 300)}`);
  return { ms, text };
}

/** The measured workspace (request budget lifted, one token) and the noise ones, through the real CLI. */
async function createWorkspaces(processEnv: NodeJS.ProcessEnv) {
  const setup = async (name: string) => {
    const output = await parleyCli(
      ['setup', '--workspace', name, '--email', `${name}@bench.example`, '--password', 'bench-pass-phrase'],
      processEnv,
    );
    return (output.workspace as { id: string }).id;
  };
  const benchId = await setup('paging');
  const issued = await parleyCli(['token', 'create', '--workspace', benchId, '--name', 'bench'], processEnv);
  await parleyCli(['workspace', 'set', '--id', benchId, '--rate-limit', '10000000'], processEnv);
  return { benchId, token: issued.token as string, noiseIds: [await setup('noise-1'), await setup('noise-2')] };
}

function seed(dataDir: string, workspaces: { benchId: string; noiseIds: string[] }) {
  const seeder = new SqliteSeeder(path.join(dataDir, 'parley.db'));
  const endMs = Date.now();
  for (const [i, id] of workspaces.noiseIds.entries()) {
    const noise = { seed: 100 + i, area: 650, contacts: settings.noiseContacts, messages: 0, endMs };
    seeder.insertContacts(id, new WorkspaceDataset(noise));
  }
  const started = performance.now();
  seeder.insertContacts(
    workspaces.benchId,
    new WorkspaceDataset({ seed: 1, area: 415, contacts: settings.contacts, messages: 0, endMs }),
  );
  const seedSeconds = seconds(started);
  const version = seeder.version();
  seeder.finish();
  return { seedSeconds, version };
}

/** Every page in turn, each timed; checks that the pages hold every contact once, in id order. */
async function pageThrough(agent: Agent, baseUrl: string, token: string) {
  const times: number[] = [];
  const cursors: (string | null)[] = [null];
  let count = 0;
  let lastId = '';
  for (let cursor: string | null = null; ;) {
    const { ms, text } = await timed(agent, pageUrl(baseUrl, cursor), { token, body: '{}' });
    times.push(ms);
    const page = JSON.parse(text) as ContactPage;
    for (const { id } of page.data) {
      if (id <= lastId) throw new Error(`page ${times.length}: ${id} after ${lastId}`);
      lastId = id;
    }
    count += page.data.length;
    cursor = page.next_cursor;
    if (!cursor) break;
    cursors.push(cursor);
  }
  if (count !== settings.contacts) throw new Error(`paged through ${count} contacts, not ${settings.contacts}`);
  return { times, firstCursor: cursors[0]!, lastCursor: cursors.at(-1)! };
}

function pageUrl(baseUrl: string, cursor: string | null): string {
  const query = new URLSearchParams({ paginate: 'cursor', limit: String(settings.limit) });
  if (cursor) query.set('cursor', cursor);
  return `${baseUrl}/api/v1/actions/search-contacts?${query}`;
}

async function repeated(times: number, run: () => Promise<number>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await run());
  return samples;
}

async function main() {
  const startedAt = new Date();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-paging-'));
  const processEnv = { PATH: env.PATH, HOME: env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const servers: NodeProcess[] = [];
  try {
    const workspaces = await createWorkspaces(processEnv);
    log(`seeding ${settings.contacts.toLocaleString('en')} contacts (+ noise)`);
    const { seedSeconds, version } = seed(dataDir, workspaces);
    log(`seeded in ${seedSeconds.toFixed(1)} s; starting servers`);

    const certFile = path.join(dataDir, 'tls', 'cert.pem');
    const readCa = () => generatedCertificate(dataDir);
    const parley = new NodeProcess('parley', 'src/main.ts', { ...processEnv, PORT: String(settings.port) });
    servers.push(parley);
    await parley.waitUntilReady(`https://127.0.0.1:${settings.port}/healthz`, readCa);
    const hello = new NodeProcess('hello-world', 'bench/hello.ts', {
      PATH: env.PATH,
      HELLO_CERT: certFile,
      HELLO_KEY: path.join(dataDir, 'tls', 'key.pem'),
      PORT: String(settings.helloPort),
    });
    servers.push(hello);
    await hello.waitUntilReady(`https://127.0.0.1:${settings.helloPort}/`, readCa);

    const agent = new Agent({ connect: { ca: readCa()! } });
    const baseUrl = `https://127.0.0.1:${settings.port}`;
    const { token } = workspaces;
    const helloMs = await repeated(
      200,
      async () => (await timed(agent, `https://127.0.0.1:${settings.helloPort}/`, {})).ms,
    );
    const page = (cursor: string | null) => async () =>
      (await timed(agent, pageUrl(baseUrl, cursor), { token, body: '{}' })).ms;
    await repeated(settings.repeats, page(null)); // warm-up: JIT, the serialisers, SQLite's cache

    const cpuBefore = parley.cpuSeconds();
    const started = performance.now();
    const pass = await pageThrough(agent, baseUrl, token);
    const totalSeconds = seconds(started);
    const serverCpuMsPerPage = ((parley.cpuSeconds() - cpuBefore) * 1000) / pass.times.length;
    log(`paged through in ${totalSeconds.toFixed(1)} s`);
    const firstMs = median(await repeated(settings.repeats, page(pass.firstCursor)));
    const lastMs = median(await repeated(settings.repeats, page(pass.lastCursor)));
    await agent.close();

    const block = report({
      startedAt,
      version,
      seedSeconds,
      pages: pass.times,
      totalSeconds,
      firstMs,
      lastMs,
      serverCpuMsPerPage,
      helloMs: median(helloMs),
    });
    console.log(block);
    if (settings.output) writeMarkdown(settings.output, block, 'bench-paging', 'npm run bench:paging');
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Figures {
  startedAt: Date;
  version: string;
  seedSeconds: number;
  pages: number[];
  totalSeconds: number;
  firstMs: number;
  lastMs: number;
  serverCpuMsPerPage: number;
  helloMs: number;
}

function report(f: Figures): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const tenth = Math.max(1, Math.floor(f.pages.length / 10));
  const ratio = f.lastMs / f.firstMs;
  const vars = Object.entries(env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value} `)
    .join('');
  return [
    `Run: ${f.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC — \`${vars}npm run bench:paging\``,
    '',
    `Machine: ${machine()}; load average ${os.loadavg()[0]!.toFixed(1)} at the end.`,
    '',
    `Data: ${settings.contacts.toLocaleString('en')} contacts in the measured workspace and two noise workspaces of ` +
      `${settings.noiseContacts.toLocaleString('en')} on ${f.version}, seeded in ${f.seedSeconds.toFixed(1)} s. ` +
      `search-contacts with \`paginate=cursor&limit=${settings.limit}\`, one request at a time over one kept-alive ` +
      `HTTPS connection; a page's time runs from sending the request to its last byte (the client then parses it ` +
      `and checks that every contact comes once, in id order).`,
    '',
    '| Measure | Value |',
    '| --- | --- |',
    `| pages | ${f.pages.length.toLocaleString('en')} |`,
    `| first page (median of ${settings.repeats}) | ${ms(f.firstMs)} |`,
    `| last page (median of ${settings.repeats}) | ${ms(f.lastMs)} |`,
    `| page p50 / p99 / max over the pass | ${ms(percentile(f.pages, 50))} / ${ms(percentile(f.pages, 99))} / ${ms(Math.max(...f.pages))} |`,
    `| p50 of the first / last 10 % of pages | ${ms(median(f.pages.slice(0, tenth)))} / ${ms(median(f.pages.slice(-tenth)))} |`,
    `| server CPU per page | ${ms(f.serverCpuMsPerPage)} |`,
    `| hello-world p50 (baseline: one HTTPS request, same client) | ${ms(f.helloMs)} |`,
    `| total, all pages | ${f.totalSeconds.toFixed(1)} s |`,
    '',
    '| Target | Measured | Result |',
    '| --- | --- | --- |',
    `| last page ≤ ${TARGETS.lastToFirst}× the first | ${ratio.toFixed(2)}× | ${ratio <= TARGETS.lastToFirst ? 'pass' : '**FAIL**'} |`,
    `| all ${settings.contacts.toLocaleString('en')} contacts ≤ ${TARGETS.totalSeconds} s | ${f.totalSeconds.toFixed(1)} s | ${f.totalSeconds <= TARGETS.totalSeconds ? 'pass' : '**FAIL**'} |`,
  ].join('\n');
}

await main();
