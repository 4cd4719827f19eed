import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { openDatabase } from '../src/db/connection.js';
import { systemClock } from '../src/shared/clock.js';
import { createIdGenerator } from '../src/shared/ids.js';
import { toStoredTimestamp } from '../src/shared/time.js';
import { seedConversations } from './dashboard-inbox.js';
import { generatedCertificate, NodeProcess, parleyCli } from './processes.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:inbox`: the team inbox with BENCH_INBOX_CONVERSATIONS (50,000) open conversations on
 * SQLite, served by a real Parley process over HTTPS. Times, as medians of sequential requests on one
 * kept-alive connection: the inbox list's first page (dashboard and public API, plain and filtered by
 * label and priority), opening a thread, and a bulk close of 1,000 conversations through the API.
 * The baseline is a bare Fastify hello-world (bench/hello.ts) on the same certificate, in the same run.
 */
const env = process.env;
const COUNT = Number(env.BENCH_INBOX_CONVERSATIONS ?? 50_000);
const BULK = 1_000;
const RUNS = Number(env.BENCH_INBOX_RUNS ?? 30);
const PORT = Number(env.BENCH_PORT ?? 3470);
const HELLO_PORT = PORT + 1;
const EMAIL = 'bench@example.com';
const PASSWORD = 'correct horse battery';
const log = (line: string) => console.log(`[bench:inbox] ${line}`);

/** Contacts as an import leaves them (one row each), newest first by last message. */
async function seedContacts(dataDir: string, workspaceId: string): Promise<void> {
  const { db } = openDatabase({ databaseUrl: null, dataDir });
  const newId = createIdGenerator(systemClock);
  const now = Date.now();
  for (let i = 0; i < COUNT; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, COUNT - i) }, (_, k) => {
      const n = i + k;
      const at = toStoredTimestamp(new Date(now - n * 1000));
      const phone = `+1415${String(2_000_000 + n).padStart(7, '0')}`;
      return {
        id: newId(),
        workspace_id: workspaceId,
        phone,
        name: `Contact ${n}`,
        email: `contact${n}@example.com`,
        custom_attributes: '{}',
        last_message_at: at,
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto('contacts').values(rows).execute();
  }
  await db.destroy();
}

/** Median milliseconds of `runs` sequential calls (after two warm-up calls). */
async function median(runs: number, call: () => Promise<void>): Promise<number> {
  await call();
  await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main() {
  const startedAt = new Date();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-inbox-'));
  const processEnv = { PATH: env.PATH, HOME: env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: String(PORT) };
  const setup = await parleyCli(
    ['setup', '--workspace', 'bench', '--email', EMAIL, '--password', PASSWORD],
    processEnv,
  );
  const workspaceId = (setup.workspace as { id: string }).id;
  // Timed requests follow each other as fast as the server answers: the default budget would refuse them.
  await parleyCli(['workspace', 'set', '--id', workspaceId, '--rate-limit', '100000'], processEnv);
  const issued = await parleyCli(['token', 'create', '--workspace', workspaceId], processEnv);
  const token = String(issued.token);
  log(`seeding ${COUNT} contacts, each with a customer's message (an open conversation)`);
  await seedContacts(dataDir, workspaceId);
  await seedConversations(dataDir, workspaceId, COUNT);

  const server = new NodeProcess('parley', 'src/main.ts', processEnv);
  let hello: NodeProcess | null = null;
  const base = `https://127.0.0.1:${PORT}`;
  try {
    await server.waitUntilReady(`${base}/healthz`, () => generatedCertificate(dataDir));
    const ca = generatedCertificate(dataDir)!;
    hello = new NodeProcess('hello', 'bench/hello.ts', {
      PATH: env.PATH,
      PORT: String(HELLO_PORT),
      HELLO_CERT: path.join(dataDir, 'tls', 'cert.pem'),
      HELLO_KEY: path.join(dataDir, 'tls', 'key.pem'),
    });
    await hello.waitUntilReady(`https://127.0.0.1:${HELLO_PORT}/`, () => ca);
    const agent = new Agent({ connect: { ca, servername: 'localhost', rejectUnauthorized: false }, connections: 1 });
    const call = async (
      url: string,
      init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown } = {},
    ) => {
      const response = await request(url, {
        dispatcher: agent,
        method: init.method ?? 'GET',
        headers: { ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
        ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${text}`);
      return { text, headers: response.headers };
    };
    const api = (pathname: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}) =>
      call(`${base}/api/v1${pathname}`, { ...init, headers: { authorization: `Bearer ${token}` } });

    // The dashboard's session: its list and thread endpoints.
    const login = await call(`${base}/api/dashboard/login`, {
      method: 'POST',
      headers: { origin: base },
      body: { email: EMAIL, password: PASSWORD },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const dashboard = (pathname: string) =>
      call(`${base}/api/dashboard/${pathname}`, { headers: { cookie, origin: base } });

    const page = JSON.parse((await api('/conversations?limit=50&paginate=cursor')).text) as {
      data: { contact_id: string }[];
    };
    const first = page.data[0]!.contact_id;
    await api('/conversation-labels', { method: 'POST', body: { name: 'Campaign reply' } });
    // 1,000 of the 50,000 get the label (in pages of the list), to be closed at once below.
    const ids: string[] = [];
    let cursor: string | null = null;
    while (ids.length < BULK) {
      const listed = JSON.parse(
        (await api(`/conversations?paginate=cursor&limit=500${cursor ? `&cursor=${cursor}` : ''}`)).text,
      ) as { data: { contact_id: string }[]; next_cursor: string | null };
      ids.push(...listed.data.map((c) => c.contact_id));
      cursor = listed.next_cursor;
    }
    await api('/conversations/bulk', {
      method: 'POST',
      body: { action: 'label', contact_ids: ids.slice(0, BULK), labels: ['Campaign reply'] },
    });
    await api('/conversations/bulk', {
      method: 'POST',
      body: { action: 'priority', contact_ids: ids.slice(0, 20), priority: 'urgent' },
    });

    const figures: [string, number][] = [];
    const time = async (name: string, fn: () => Promise<unknown>) => {
      const ms = await median(RUNS, async () => void (await fn()));
      figures.push([name, ms]);
      log(`${name}: ${ms.toFixed(1)} ms`);
    };
    await time('baseline: hello-world over HTTPS', () => call(`https://127.0.0.1:${HELLO_PORT}/`));
    await time('inbox list, first page (dashboard)', () => dashboard('conversations?filter=open'));
    await time('thread open (dashboard)', () => dashboard(`conversations/${first}`));
    await time('list-conversations, first page (API)', () => api('/conversations'));
    await time('list-conversations by label (API)', () => api('/conversations?label=Campaign%20reply'));
    await time('list-conversations by priority (API)', () => api('/conversations?priority=urgent'));
    await time('get-conversation (API)', () => api(`/conversations/${first}`));

    const started = performance.now();
    const closed = JSON.parse(
      (
        await api('/conversations/bulk', {
          method: 'POST',
          body: { action: 'close', filter: { label: 'Campaign reply' } },
        })
      ).text,
    ) as { changed: number };
    const bulkMs = performance.now() - started;
    if (closed.changed !== BULK) throw new Error(`bulk close changed ${closed.changed}, not ${BULK}`);
    log(`bulk close of ${BULK} (API, by filter): ${bulkMs.toFixed(0)} ms`);
    await agent.close();

    const table = [
      '| measurement | median | × baseline |',
      '|---|---:|---:|',
      ...figures.map(([name, ms]) => `| ${name} | ${ms.toFixed(1)} ms | ${(ms / figures[0]![1]).toFixed(1)} |`),
      `| bulk close of ${BULK.toLocaleString('en')} conversations (API, one request by label filter) | ${bulkMs.toFixed(0)} ms | |`,
    ];
    const generated = [
      `Run: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC — \`${env.BENCH_INBOX_CONVERSATIONS ? `BENCH_INBOX_CONVERSATIONS=${COUNT} ` : ''}npm run bench:inbox\``,
      '',
      `Machine: ${machine()}.`,
      '',
      `Data: SQLite, ${COUNT.toLocaleString('en')} open conversations (one customer message each); medians of ${RUNS} sequential requests on one kept-alive HTTPS connection, client on the same machine.`,
      '',
      ...table,
    ].join('\n');
    writeMarkdown(
      path.join(import.meta.dirname, '..', 'BENCHMARKS.md'),
      generated,
      'bench-inbox',
      'npm run bench:inbox',
    );
  } finally {
    await hello?.stop();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
