import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import {
  CHAT_MODEL,
  EMBEDDING_DIMENSIONS,
  EMBEDDINGS_MODEL,
  STAND_IN_API_KEY,
  startOpenAiStandIn,
  type OpenAiStandIn,
} from '../test/openai-stand-in.js';
import type { Engine } from './config.js';
import { seededRandom } from './dataset.js';
import { startPostgres } from './processes.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:knowledge`: retrieval (search-knowledge) over BENCH_KNOWLEDGE_CHUNKS (10,000) chunks in
 * a workspace, through the API over HTTPS, on SQLite and PostgreSQL. Two workspaces of that size share
 * the index: one searched by words alone (no AI model), one hybrid (its embeddings model is the OpenAI
 * stand-in on loopback, 256 dimensions, every chunk embedded by the job first). The baseline, in the
 * same rounds, is GET /api/v1/me with the same token. The knowledge is seeded through the API
 * (create-knowledge-document: Markdown documents of 20 sections of ~200 words, one chunk each); the
 * questions are 3 to 8 words drawn as the documents' words are (a Zipf law over 8,000 words). One
 * request at a time on a kept-alive connection; the kinds alternate in rounds.
 */
const env = process.env;
const settings = {
  engines: (env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[],
  chunks: Number(env.BENCH_KNOWLEDGE_CHUNKS ?? 10_000),
  requests: Number(env.BENCH_KNOWLEDGE_REQUESTS ?? 2000),
  rounds: Number(env.BENCH_KNOWLEDGE_ROUNDS ?? 10),
  warmup: 100,
  pgPort: Number(env.BENCH_PG_PORT ?? 54343),
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
};
const SECTIONS = 20;
const SECTION_WORDS = 200;
const VOCABULARY = 8000;
const PARALLEL = 4;
const log = (line: string) => console.log(`[bench:knowledge ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Made-up words of two to four syllables: no language's stop words, a vocabulary of known size. */
function vocabulary(random: () => number): string[] {
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ru',
    'sen',
    'ta',
    've',
    'zo',
    'bri',
    'dal',
    'fe',
    'gu',
    'ho',
    'ji',
    'nor',
    'pe',
  ];
  const words = new Set<string>();
  while (words.size < VOCABULARY) {
    const length = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  }
  return [...words];
}

/** Draws words by a Zipf law (the word of rank r weighs 1/r), as words in text are. */
function zipf(words: string[], random: () => number): () => string {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank++) cumulative.push((total += 1 / rank));
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return words[low]!;
  };
}

function sentence(word: () => string, length: number): string {
  const text = Array.from({ length }, word).join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** One Markdown document: SECTIONS sections of about SECTION_WORDS words in sentences of 8 to 16. */
function documentOf(word: () => string, random: () => number, n: number): { title: string; content: string } {
  const sections = Array.from({ length: SECTIONS }, (_, s) => {
    const sentences: string[] = [];
    for (let words = 0; words < SECTION_WORDS;) {
      const length = 8 + Math.floor(random() * 9);
      sentences.push(sentence(word, length));
      words += length;
    }
    return `## ${word()} ${word()} ${s}\n\n${sentences.join(' ')}`;
  });
  return { title: `Guide ${n}: ${word()} ${word()}`, content: `# ${word()}\n\n${sections.join('\n\n')}\n` };
}

interface Bed {
  app: App;
  call(token: string, method: 'GET' | 'POST', pathname: string, body?: unknown): Promise<{ ms: number; body: unknown }>;
  close(): Promise<void>;
}

async function startBed(engine: Engine, databaseUrl: string | null): Promise<Bed> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-knowledge-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true',
    ...(engine === 'postgres' && databaseUrl && { DATABASE_URL: databaseUrl }),
  });
  const app = await createApp(config, { logger: false });
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.server.address() as AddressInfo;
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' }, connections: PARALLEL });
  const base = `https://127.0.0.1:${port}`;
  return {
    app,
    async call(token, method, pathname, body) {
      const started = performance.now();
      const response = await request(`${base}${pathname}`, {
        method,
        dispatcher: agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      const ms = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`${pathname}: ${response.statusCode} ${text.slice(0, 300)}`);
      return { ms, body: JSON.parse(text) as unknown };
    },
    async close() {
      await app.close();
      await agent.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A workspace with a token the rate limit does not slow down. */
async function workspaceOf(bed: Bed, name: string): Promise<{ id: string; token: string }> {
  const { services } = bed.app;
  const { workspace, user } = await services.workspaces.setup({
    name,
    email: `bench-${randomInt(1e9)}@example.com`,
    password: 'correct horse battery',
  });
  await services.workspaces.update(workspace.id, { rateLimitPerMinute: 10_000_000 });
  const issued = await services.tokens.create({
    workspaceId: workspace.id,
    userId: user.id,
    name: 'bench',
    scope: 'full',
  });
  return { id: workspace.id, token: issued.token };
}

/** Seeds the workspace's knowledge through create-knowledge-document, PARALLEL at a time; returns its chunk count. */
async function seed(bed: Bed, token: string, seedValue: number): Promise<number> {
  const random = seededRandom(seedValue);
  const word = zipf(vocabulary(seededRandom(7)), random);
  const documents = Math.ceil(settings.chunks / SECTIONS);
  const bodies = Array.from({ length: documents }, (_, n) => documentOf(word, random, n));
  let next = 0;
  const worker = async () => {
    while (next < bodies.length)
      await bed.call(token, 'POST', '/api/v1/actions/create-knowledge-document', bodies[next++]);
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const listed = (await bed.call(token, 'POST', '/api/v1/actions/list-knowledge-sources', {})).body as {
    chunk_count: number;
    state: string;
  }[];
  return listed.reduce((sum, source) => sum + source.chunk_count, 0);
}

/** Turns the stand-in on as the workspace's model and waits until the job has embedded every chunk. */
async function embedAll(bed: Bed, token: string, model: OpenAiStandIn): Promise<void> {
  await bed.call(token, 'POST', '/api/v1/actions/save-ai-settings', {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
    embeddings_model: EMBEDDINGS_MODEL,
  });
  // The first search notices the embeddings model and queues the job; the job then works in batches.
  await bed.call(token, 'POST', '/api/v1/actions/search-knowledge', { query: 'start' });
  for (;;) {
    const listed = (await bed.call(token, 'POST', '/api/v1/actions/list-knowledge-sources', {})).body as {
      state: string;
    }[];
    if (listed.every((source) => source.state === 'hybrid')) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function questions(count: number): string[] {
  const random = seededRandom(99);
  const word = zipf(vocabulary(seededRandom(7)), random);
  return Array.from({ length: count }, () => Array.from({ length: 3 + Math.floor(random() * 6) }, word).join(' '));
}

type Kind = 'baseline' | 'full_text' | 'hybrid';
const KINDS: Kind[] = ['baseline', 'full_text', 'hybrid'];

interface Row {
  engine: Engine;
  kind: Kind;
  count: number;
  p50: number;
  p90: number;
  p99: number;
  chunksFound: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;

async function measureEngine(
  engine: Engine,
  model: OpenAiStandIn,
): Promise<{ rows: Row[]; chunks: number; seedSeconds: number }> {
  const postgres = engine === 'postgres' ? await startPostgres(settings.pgPort) : null;
  const bed = await startBed(engine, postgres?.url ?? null);
  try {
    const words = await workspaceOf(bed, 'Words');
    const hybrid = await workspaceOf(bed, 'Hybrid');
    const started = performance.now();
    const chunks = await seed(bed, words.token, 1);
    const hybridChunks = await seed(bed, hybrid.token, 2);
    log(
      `${engine}: ${chunks} + ${hybridChunks} chunks seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    await embedAll(bed, hybrid.token, model);
    const seedSeconds = (performance.now() - started) / 1000;
    log(`${engine}: every chunk of the hybrid workspace embedded`);

    const asked = questions(settings.requests);
    const once = async (kind: Kind, question: string) => {
      if (kind === 'baseline') return { ms: (await bed.call(words.token, 'GET', '/api/v1/me')).ms, found: 0 };
      const token = kind === 'hybrid' ? hybrid.token : words.token;
      const answer = await bed.call(token, 'POST', '/api/v1/actions/search-knowledge', { query: question, limit: 5 });
      const result = answer.body as { retrieval: string; chunks: unknown[] };
      if (result.retrieval !== kind) throw new Error(`${kind} search answered ${result.retrieval}`);
      return { ms: answer.ms, found: result.chunks.length };
    };
    for (const kind of KINDS) for (const question of asked.slice(0, settings.warmup)) await once(kind, question);
    const times: Record<Kind, number[]> = { baseline: [], full_text: [], hybrid: [] };
    const found: Record<Kind, number> = { baseline: 0, full_text: 0, hybrid: 0 };
    const perRound = Math.ceil(settings.requests / settings.rounds);
    for (let round = 0; round < settings.rounds; round++) {
      for (const kind of KINDS) {
        for (const question of asked.slice(round * perRound, (round + 1) * perRound)) {
          const { ms, found: n } = await once(kind, question);
          times[kind].push(ms);
          found[kind] += n;
        }
      }
    }
    const rows = KINDS.map((kind) => {
      const sorted = [...times[kind]].sort((a, b) => a - b);
      return {
        engine,
        kind,
        count: sorted.length,
        p50: percentile(sorted, 0.5),
        p90: percentile(sorted, 0.9),
        p99: percentile(sorted, 0.99),
        chunksFound: found[kind] / sorted.length,
      };
    });
    for (const row of rows) log(`${engine} ${row.kind}: p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms`);
    return { rows, chunks, seedSeconds };
  } finally {
    await bed.close();
    await postgres?.stop();
  }
}

async function main(): Promise<void> {
  const model = await startOpenAiStandIn();
  const results: { engine: Engine; rows: Row[]; chunks: number; seedSeconds: number; version: string }[] = [];
  try {
    for (const engine of settings.engines) {
      const measured = await measureEngine(engine, model);
      results.push({ engine, ...measured, version: engine === 'sqlite' ? 'SQLite' : 'PostgreSQL' });
    }
  } finally {
    await model.close();
  }
  const ms = (value: number) => value.toFixed(2);
  const labels: Record<Kind, string> = {
    baseline: 'GET /api/v1/me (baseline)',
    full_text: 'search-knowledge, full-text',
    hybrid: 'search-knowledge, hybrid (question embedded, RRF)',
  };
  const sections = results.map(({ engine, rows, chunks, seedSeconds }) => {
    const baseline = rows.find((row) => row.kind === 'baseline')!;
    return [
      `### ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (${chunks.toLocaleString('en')} chunks a workspace, two workspaces; seeded and embedded in ${seedSeconds.toFixed(0)} s)`,
      '',
      '| Request | Requests | p50 ms | p90 ms | p99 ms | p50 − baseline | p99 − baseline | Chunks answered |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows.map(
        (r) =>
          `| ${labels[r.kind]} | ${r.count} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.kind === 'baseline' ? '—' : ms(r.p50 - baseline.p50)} | ${r.kind === 'baseline' ? '—' : ms(r.p99 - baseline.p99)} | ${r.kind === 'baseline' ? '—' : r.chunksFound.toFixed(1)} |`,
      ),
    ].join('\n');
  });
  writeMarkdown(
    settings.output,
    [
      `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`npm run bench:knowledge\` ` +
        `(BENCH_KNOWLEDGE_CHUNKS=${settings.chunks}, BENCH_KNOWLEDGE_REQUESTS=${settings.requests} per kind in ${settings.rounds} alternating rounds)`,
      '',
      `Machine: ${machine()}.`,
      '',
      'Each workspace holds its chunks in Markdown documents added through create-knowledge-document (20 sections of ' +
        '~200 words, one chunk each); a question is 3–8 words drawn as the documents’ are (Zipf over 8,000 made-up ' +
        `words). One request at a time over HTTPS (keep-alive), client in the same process. Hybrid: the question is ` +
        `embedded by the OpenAI stand-in on loopback (${EMBEDDING_DIMENSIONS} dimensions; a real model’s own time comes on top), ` +
        'the nearest of the workspace’s vectors (kept in memory) fused with the full-text ranks.',
      '',
      ...sections.map((section) => `${section}\n`),
    ].join('\n'),
    'bench-knowledge',
    'npm run bench:knowledge',
  );
  log(`wrote ${settings.output}`);
}

await main();
