import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBenchConfig, type BenchConfig, type Engine } from './config.js';
import { BENCH_TAGS, NAME_QUERY, WorkspaceDataset, phoneFor, searchFragments, type BenchTag } from './dataset.js';
import { measure, type LoadTarget, type Scenario } from './load.js';
import { generatedCertificate, NodeProcess, httpsJson, parleyCli, startPostgres } from './processes.js';
import { consoleSummary, markdown, writeMarkdown, type EngineResult } from './report.js';
import { PostgresSeeder } from './seed-postgres.js';
import { SqliteSeeder } from './seed-sqlite.js';

/**
 * `npm run bench`: for each engine, seeds a fresh database through the real CLI plus bulk inserts,
 * starts the real Parley server and a bare Fastify hello-world as child processes, loads both
 * with autocannon and writes the figures against the issue's targets into BENCHMARKS.md.
 */

/** The bulk loader of either engine, behind one (possibly synchronous) interface. */
interface Seeder {
  insertContacts(workspaceId: string, data: WorkspaceDataset): void | Promise<void>;
  insertMessages(workspaceId: string, data: WorkspaceDataset): void | Promise<void>;
  tagContacts(workspaceId: string, tag: BenchTag): void | Promise<void>;
  countMatches(workspaceId: string, needle: string): number | Promise<number>;
  version(): string | Promise<string>;
  finish(): void | Promise<void>;
}

/** Where one engine's run keeps its data, and the environment the CLI and server get. */
interface Environment {
  engine: Engine;
  dataDir: string;
  databaseUrl: string | null;
  env: NodeJS.ProcessEnv;
  cleanup: () => Promise<void>;
}

interface Workspaces {
  benchId: string;
  token: string;
  noiseIds: string[];
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function prepare(engine: Engine, config: BenchConfig): Promise<Environment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-${engine}-`));
  let databaseUrl: string | null = null;
  let stopPostgres = async () => {};
  if (engine === 'postgres') {
    if (config.databaseUrl) databaseUrl = config.databaseUrl;
    else {
      const cluster = await startPostgres(config.pgPort);
      log(`started a throwaway PostgreSQL on port ${config.pgPort}`);
      databaseUrl = cluster.url;
      stopPostgres = cluster.stop;
    }
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  };
  const cleanup = async () => {
    if (config.keepData) {
      log(`BENCH_KEEP: data kept in ${dataDir}${databaseUrl ? ` and ${databaseUrl} (still running)` : ''}`);
      return;
    }
    await stopPostgres();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { engine, dataDir, databaseUrl, env, cleanup };
}

/** The measured workspace (limits lifted, one token) and the noise ones, all through the real CLI. */
async function createWorkspaces(env: NodeJS.ProcessEnv, config: BenchConfig): Promise<Workspaces> {
  const runId = Date.now().toString(36);
  const setup = async (name: string) => {
    const email = `${name}-${runId}@bench.example`;
    const output = await parleyCli(
      ['setup', '--workspace', name, '--email', email, '--password', 'bench-pass-phrase'],
      env,
    );
    return (output.workspace as { id: string }).id;
  };
  const benchId = await setup('bench');
  const issued = await parleyCli(['token', 'create', '--workspace', benchId, '--name', 'bench'], env);
  await parleyCli(['workspace', 'set', '--id', benchId, '--poll-interval', '0', '--rate-limit', '10000000'], env);
  const noiseIds: string[] = [];
  for (let i = 0; i < config.noiseWorkspaces; i++) noiseIds.push(await setup(`noise-${i + 1}`));
  return { benchId, token: issued.token as string, noiseIds };
}

async function openSeeder(environment: Environment): Promise<Seeder> {
  if (!environment.databaseUrl) return new SqliteSeeder(path.join(environment.dataDir, 'parley.db'));
  const seeder = new PostgresSeeder(environment.databaseUrl);
  await seeder.connect();
  return seeder;
}

/** Noise first (so the measured rows are not alone at the start of every index), then the timed load. */
async function seed(seeder: Seeder, workspaces: Workspaces, config: BenchConfig) {
  const endMs = Date.now();
  let started = performance.now();
  for (const [i, id] of workspaces.noiseIds.entries()) {
    const noise = new WorkspaceDataset({
      seed: 100 + i,
      area: [650, 212, 312, 617][i % 4]!,
      contacts: config.noiseContacts,
      messages: config.noiseContacts,
      endMs,
    });
    await seeder.insertContacts(id, noise);
    await seeder.insertMessages(id, noise);
  }
  const noiseSeconds = seconds(started);
  log(`noise seeded in ${noiseSeconds.toFixed(1)} s`);

  const data = new WorkspaceDataset({
    seed: 1,
    area: 415,
    contacts: config.contacts,
    messages: config.messages,
    endMs,
  });
  started = performance.now();
  await seeder.insertContacts(workspaces.benchId, data);
  const contactsSeconds = seconds(started);
  log(`${config.contacts} contacts seeded in ${contactsSeconds.toFixed(1)} s`);
  started = performance.now();
  await seeder.insertMessages(workspaces.benchId, data);
  const messagesSeconds = seconds(started);
  log(`${config.messages} messages seeded in ${messagesSeconds.toFixed(1)} s`);
  for (const tag of Object.values(BENCH_TAGS)) await seeder.tagContacts(workspaces.benchId, tag);
  return { data, timings: { noiseSeconds, contactsSeconds, messagesSeconds } };
}

/** Every `step`-th of `count` indexes, up to `limit` of them: rows spread over the whole table. */
function spread(count: number, limit: number): number[] {
  const step = Math.max(1, Math.floor(count / limit));
  return Array.from({ length: Math.min(limit, count) }, (_, i) => (i * step) % count);
}

/** A phone fragment as a user would type it: six digits from the middle and end of a real number. */
function phoneQuery(config: BenchConfig): string {
  const digits = phoneFor(415, Math.floor(config.contacts * 0.618)).slice(-6);
  return `${digits.slice(0, 3)}-${digits.slice(3)}`;
}

/** Connections searching while get-contact is measured beside them. */
const BESIDE_CONNECTIONS = 5;

/** search-contacts with each of the typed fragments in turn, and `extra` filters. */
function fragmentSearch(key: string, label: string, extra: Json = {}): Scenario {
  return {
    key,
    label,
    method: 'POST',
    path: '/api/v1/actions/search-contacts',
    bodies: searchFragments().map((query) => ({ query, ...extra })),
  };
}

/** The issue's search figures: fragments of real names and emails, a common and a rare tag, both together. */
function searchScenarios(getContact: Scenario): Scenario[] {
  const { common, rare } = BENCH_TAGS;
  const fragments = fragmentSearch('search-fragments', `search-contacts, ${searchFragments().length} typed fragments`);
  const tagged = (tag: BenchTag): Scenario => ({
    key: tag === common ? 'search-tag-common' : 'search-tag-rare',
    label: `search-contacts tag "${tag.name}" (${tag.share * 100} % of contacts)`,
    method: 'POST',
    path: '/api/v1/actions/search-contacts',
    bodies: [{ tag: tag.name }],
  });
  return [
    fragments,
    tagged(common),
    tagged(rare),
    fragmentSearch('search-fragments-tag-common', `search-contacts, fragments + tag "${common.name}"`, {
      tag: common.name,
    }),
    fragmentSearch('search-fragments-tag-rare', `search-contacts, fragments + tag "${rare.name}"`, { tag: rare.name }),
    { ...fragments, key: 'search-fragments-50', label: `${fragments.label}, 50 connections`, connections: 50 },
    {
      ...getContact,
      key: 'get-contact-beside-search',
      label: `${getContact.label}, searches beside (${BESIDE_CONNECTIONS} connections)`,
      beside: { ...fragments, connections: BESIDE_CONNECTIONS },
    },
  ];
}

function scenarios(data: WorkspaceDataset, config: BenchConfig): Scenario[] {
  const sample = spread(config.contacts, 1000);
  const getContactById: Scenario = {
    key: 'get-contact-id',
    label: 'get-contact by contact_id (1,000 contacts)',
    method: 'POST',
    path: '/api/v1/actions/get-contact',
    bodies: sample.map((i) => ({ contact_id: data.contactIds[i] })),
  };
  return [
    {
      key: 'get-contact-phone',
      label: 'get-contact by phone (1,000 contacts)',
      method: 'POST',
      path: '/api/v1/actions/get-contact',
      bodies: sample.map((i) => ({ phone: phoneFor(415, i) })),
    },
    getContactById,
    {
      key: 'search-name',
      label: `search-contacts "Kowal" (name fragment)`,
      method: 'POST',
      path: '/api/v1/actions/search-contacts',
      bodies: [{ query: 'Kowal' }],
    },
    {
      key: 'search-phone',
      label: `search-contacts "${phoneQuery(config)}" (phone fragment)`,
      method: 'POST',
      path: '/api/v1/actions/search-contacts',
      bodies: [{ query: phoneQuery(config) }],
    },
    { key: 'feed', label: 'GET new-message-received', method: 'GET', path: '/api/v1/triggers/new-message-received' },
    {
      key: 'feed-text',
      label: 'GET new-message-received?message_type=text',
      method: 'GET',
      path: '/api/v1/triggers/new-message-received?message_type=text',
    },
    ...searchScenarios(getContactById),
  ];
}

type Json = Record<string, unknown>;

/** One request per scenario through a strict TLS client (autocannon does not verify the certificate). */
async function verify(list: Scenario[], target: LoadTarget, expected: { searchName: number; searchPhone: number }) {
  for (const scenario of list) {
    const response = await httpsJson(target.baseUrl + scenario.path, target.ca, {
      method: scenario.method,
      token: target.token ?? '',
      body: scenario.bodies?.[0],
    });
    if (response.status !== 200)
      throw new Error(`${scenario.label}: ${response.status} ${JSON.stringify(response.body)}`);
    const body = response.body;
    const problem = check(scenario, body, expected);
    if (problem) throw new Error(`${scenario.label}: ${problem}`);
  }
}

function check(scenario: Scenario, body: unknown, expected: { searchName: number; searchPhone: number }) {
  const list = Array.isArray(body) ? (body as Json[]) : null;
  switch (scenario.key) {
    case 'get-contact-phone':
      return (body as Json).phone === (scenario.bodies?.[0] as Json).phone ? null : 'wrong contact';
    case 'get-contact-id':
    case 'get-contact-beside-search':
      return (body as Json).id === (scenario.bodies?.[0] as Json).contact_id ? null : 'wrong contact';
    case 'search-name':
      return list?.length === Math.min(50, expected.searchName) ? null : `got ${list?.length} contacts`;
    case 'search-phone':
      return list?.length === Math.min(50, expected.searchPhone) ? null : `got ${list?.length} contacts`;
    case 'feed':
    case 'feed-text':
      return list?.length === 100 && (scenario.key === 'feed' || list.every((m) => m.type === 'text'))
        ? null
        : 'unexpected feed';
    case 'search-fragments':
    case 'search-fragments-50':
    case 'search-fragments-tag-rare':
      // A fragment among the 1 % may match no one in a small run.
      return list && list.length <= 50 ? null : 'not a list of contacts';
    case 'search-fragments-tag-common':
    case 'search-tag-common':
    case 'search-tag-rare':
      // The counts are the seeder's to know; here, a full or partial page of contacts.
      return list && list.length > 0 && list.length <= 50 ? null : `got ${list?.length} contacts`;
    default:
      return `unknown scenario ${scenario.key}`;
  }
}

async function startServers(environment: Environment, config: BenchConfig) {
  const certFile = path.join(environment.dataDir, 'tls', 'cert.pem');
  const readCa = () => generatedCertificate(environment.dataDir);
  const profile = process.env.BENCH_CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const nodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  // As the container runs it: the bundle bin/server.js makes, not ~400 modules through tsx.
  const parley = new NodeProcess('parley', 'bin/server.js', { ...environment.env, PORT: String(config.serverPort) }, [
    ...nodeOptions,
    ...profile,
  ]);
  await parley.waitUntilReady(`https://127.0.0.1:${config.serverPort}/healthz`, readCa);
  const hello = new NodeProcess('hello-world', 'bench/hello.ts', {
    PATH: process.env.PATH,
    HELLO_CERT: certFile,
    HELLO_KEY: path.join(environment.dataDir, 'tls', 'key.pem'),
    PORT: String(config.helloPort),
  });
  await hello.waitUntilReady(`https://127.0.0.1:${config.helloPort}/`, readCa);
  return { parley, hello, ca: readCa()! };
}

async function benchEngine(engine: Engine, config: BenchConfig): Promise<EngineResult> {
  log(`${engine}: preparing`);
  const environment = await prepare(engine, config);
  try {
    const workspaces = await createWorkspaces(environment.env, config);
    const seeder = await openSeeder(environment);
    const { data, timings } = await seed(seeder, workspaces, config);
    const queries = { name: NAME_QUERY, phone: phoneQuery(config).replace(/\D/g, '') };
    const matches = {
      name: await seeder.countMatches(workspaces.benchId, queries.name),
      phone: await seeder.countMatches(workspaces.benchId, queries.phone),
    };
    const databaseVersion = await seeder.version();
    let started = performance.now();
    await seeder.finish();
    const analyzeSeconds = seconds(started);
    log(`statistics gathered in ${analyzeSeconds.toFixed(1)} s; starting servers`);

    const { parley, hello, ca } = await startServers(environment, config);
    try {
      const idleRssMiB = parley.rssMiB();
      const durations = { warmup: config.warmup, duration: config.duration };
      const parleyTarget = {
        baseUrl: `https://127.0.0.1:${config.serverPort}`,
        token: workspaces.token,
        ca,
        connections: config.connections,
      };
      const helloTarget = { ...parleyTarget, baseUrl: `https://127.0.0.1:${config.helloPort}`, token: null };
      const helloScenario = (n: number): Scenario => ({
        key: `hello-${n}`,
        label: `hello-world (baseline, run ${n})`,
        method: 'GET',
        path: '/',
      });
      const list = scenarios(data, config);
      await verify(list, parleyTarget, { searchName: matches.name, searchPhone: matches.phone });
      started = performance.now();
      const helloBefore = await measure(helloScenario(1), helloTarget, durations);
      const endpoints = [];
      for (const scenario of list) {
        log(`${engine}: measuring ${scenario.label}`);
        endpoints.push(await measure(scenario, parleyTarget, durations, () => parley.cpuSeconds()));
      }
      const helloAfter = await measure(helloScenario(2), helloTarget, durations);
      log(`${engine}: measured in ${seconds(started).toFixed(0)} s`);
      const peakRssMiB = parley.peakRssMiB();
      return {
        engine,
        databaseVersion,
        seeding: { ...timings, analyzeSeconds },
        matches,
        queries: { name: 'Kowal', phone: phoneQuery(config) },
        hello: [helloBefore, helloAfter],
        endpoints,
        idleRssMiB,
        peakRssMiB,
      };
    } finally {
      await Promise.all([parley.stop(), hello.stop()]);
    }
  } finally {
    await environment.cleanup();
  }
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const startedAt = new Date();
  const results: EngineResult[] = [];
  for (const engine of config.engines) {
    results.push(await benchEngine(engine, config));
    console.log(consoleSummary(results.slice(-1), config));
    // Written after every engine, so a failure in the next one does not lose these figures.
    const generated = markdown(results, config, startedAt);
    if (config.output) {
      writeMarkdown(config.output, generated);
      log(`wrote ${config.output}`);
    } else {
      console.log(`\n${generated}`);
    }
  }
}

await main();
