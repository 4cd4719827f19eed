import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import type { Engine } from './config.js';
import { startGraphSink } from './graph-sink.js';
import { generatedCertificate, NodeProcess, parleyCli, startPostgres } from './processes.js';
import { machine, writeMarkdown } from './report.js';

/**
 * `npm run bench:reports`: every report (agents, teams, volume, campaigns) over BENCH_REPORTS_MESSAGES (1,000,000)
 * messages, seeded only through the public surfaces of a real Parley process over HTTPS: signed Meta
 * webhook deliveries of customers' messages (BATCH each), then replies by ten members (the owner and nine
 * invited agents, each on a dashboard session of its own; a tenth of the messages); every fourth
 * conversation is assigned to a team and its member, and marked done. Times are
 * medians of sequential requests on one kept-alive connection, beside GET /api/v1/conversations in the
 * same run (the baseline). SQLite and PostgreSQL.
 */
const env = process.env;
const settings = {
  engines: (env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[],
  messages: Number(env.BENCH_REPORTS_MESSAGES ?? 1_000_000),
  runs: Number(env.BENCH_REPORTS_RUNS ?? 9),
  port: Number(env.BENCH_PORT ?? 18455),
  pgPort: Number(env.BENCH_PG_PORT ?? 54351),
  output: env.BENCH_OUTPUT ?? 'BENCHMARKS.md',
  keep: env.BENCH_KEEP === '1',
};
const BATCH = 100;
const PARALLEL = 4;
const APP_SECRET = 'bench-app-secret';
const WABA_ID = '2000002';
const PHONE_NUMBER_ID = '1000002';
const EMAIL = 'bench@bench.example';
const PASSWORD = 'bench-pass-phrase';
const REPORTS = ['/reports/agents', '/reports/teams', '/reports/volume', '/reports/campaigns'];
/** Members answering (the owner and invited agents), each on a session of its own. */
const AGENTS = 10;

const log = (line: string) => console.log(`[bench:reports ${new Date().toISOString().slice(11, 19)}] ${line}`);
const phone = (i: number) => `1415${4_000_000 + i}`;

interface Result {
  engine: Engine;
  inbound: number;
  replies: number;
  seedSeconds: number;
  times: Record<string, number>;
}

type Call = (
  pathname: string,
  init?: { method?: 'GET' | 'POST' | 'PUT'; headers?: Record<string, string>; body?: string },
) => Promise<{ text: string; cookie: string }>;

function client(base: string, ca: string): Call {
  const agent = new Agent({ connect: { ca, servername: 'localhost' }, connections: PARALLEL });
  const once = async (pathname: string, init: Parameters<Call>[1] = {}) => {
    const response = await request(`${base}${pathname}`, {
      dispatcher: agent,
      method: init.method ?? 'GET',
      headers: { ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
    });
    const text = await response.body.text();
    return { status: response.statusCode, text, cookie: String(response.headers['set-cookie']).split(';')[0]! };
  };
  return async (pathname, init = {}) => {
    for (;;) {
      const { status, text, cookie } = await once(pathname, init);
      // A member's session has a fixed budget per minute: wait as told, as a client should.
      if (status === 429) {
        await new Promise((resolve) =>
          setTimeout(resolve, (JSON.parse(text) as { retry_after: number }).retry_after * 1000),
        );
        continue;
      }
      if (status >= 300) throw new Error(`${pathname}: ${status} ${text.slice(0, 300)}`);
      return { text, cookie };
    }
  };
}

/** One signed delivery of BATCH customers' text messages, as Meta sends them. */
function webhook(sequence: number, contacts: number): { body: string; signature: string } {
  const messages = Array.from({ length: BATCH }, (_, i) => ({
    from: phone((sequence * BATCH + i) % contacts),
    id: `wamid.BENCHREPORT${sequence}x${i}`,
    timestamp: String(Math.floor(Date.now() / 1000)),
    type: 'text',
    text: { body: `Where is order ${sequence}/${i}?` },
  }));
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550002000', phone_number_id: PHONE_NUMBER_ID },
    contacts: messages.map((m) => ({ profile: { name: 'Bench' }, wa_id: m.from })),
    messages,
  };
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: WABA_ID, changes: [{ field: 'messages', value }] }],
  });
  return { body, signature: `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}` };
}

/** Runs `count` jobs, PARALLEL at a time. */
async function pool(count: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** Customers write (webhooks), members answer, and some conversations go to a team and are closed: all through HTTPS. */
async function seed(call: Call, base: string): Promise<{ inbound: number; replies: number; teamId: string }> {
  const replies = Math.round(settings.messages / 10);
  const deliveries = Math.ceil((settings.messages - replies) / BATCH);
  const contacts = Math.max(100, Math.round(settings.messages / 50));
  await pool(deliveries, async (i) => {
    const { body, signature } = webhook(i, contacts);
    await call('/webhooks/whatsapp', { method: 'POST', headers: { 'x-hub-signature-256': signature }, body });
    if (i % 500 === 0) log(`  ${(i * BATCH).toLocaleString('en')} customer messages`);
  });
  const login = await call('/api/dashboard/login', {
    method: 'POST',
    headers: { origin: base },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const owner = await signedIn(call, base, login.cookie);
  const agents = [owner];
  for (let k = 1; k < AGENTS; k++) agents.push(await joined(call, base, owner, k));
  const teams = await teamsOf(call, owner, agents);
  const contactIds = await contactsOf(call, owner.headers, contacts);
  await pool(replies, async (i) => {
    const contactId = contactIds[i % contactIds.length]!;
    const k = (i % contactIds.length) % AGENTS;
    const { headers } = agents[k]!;
    if (i < contactIds.length && i % 4 === 0) {
      // A quarter of the conversations are in a team's queue and assigned to the member who answers.
      const assignment = JSON.stringify({ team_id: teams[k], assignee_id: agents[k]!.id });
      await call(`/api/v1/conversations/${contactId}/assignment`, {
        method: 'PUT',
        headers: owner.headers,
        body: assignment,
      });
    }
    const body = JSON.stringify({ contact_id: contactId, message: 'On its way' });
    await call('/api/v1/actions/send-text-message', { method: 'POST', headers, body });
    if (i < contactIds.length && i % 4 === 0) {
      const done = JSON.stringify({ done: true });
      await call(`/api/dashboard/conversations/${contactId}/done`, { method: 'POST', headers, body: done });
    }
    if (i % 5_000 === 0) log(`  ${i.toLocaleString('en')} replies`);
  });
  return { inbound: deliveries * BATCH, replies, teamId: teams[0]! };
}

/** A session's headers: its cookie, the origin and its CSRF token. */
async function signedIn(call: Call, base: string, cookie: string): Promise<Member> {
  const session = JSON.parse((await call('/api/dashboard/session', { headers: { cookie } })).text) as {
    csrf_token: string;
    user: { id: string };
  };
  return { id: session.user.id, headers: { cookie, origin: base, 'x-csrf-token': session.csrf_token } };
}

interface Member {
  id: string;
  headers: Record<string, string>;
}

/** Two teams of half the members each; member k's team id. */
async function teamsOf(call: Call, owner: Member, agents: Member[]): Promise<string[]> {
  const ids: string[] = [];
  for (const half of [0, 1]) {
    const members = agents.filter((_, k) => k % 2 === half);
    const body = JSON.stringify({ name: `Team ${half + 1}`, member_ids: members.map((m) => m.id) });
    const created = await call('/api/v1/actions/create-team', { method: 'POST', headers: owner.headers, body });
    ids.push((JSON.parse(created.text) as { id: string }).id);
  }
  return agents.map((_, k) => ids[k % 2]!);
}

/** Agent `k`, invited by the owner, joined through the invitation link and signed in. */
async function joined(call: Call, base: string, owner: Member, k: number): Promise<Member> {
  const email = `agent${k}@bench.example`;
  const invite = await call('/api/dashboard/invites', {
    method: 'POST',
    headers: owner.headers,
    body: JSON.stringify({ email, role: 'member' }),
  });
  const { token } = JSON.parse(invite.text) as { token: string };
  const accepted = await call('/api/dashboard/invites/accept', {
    method: 'POST',
    headers: { origin: base },
    body: JSON.stringify({ token, name: `Agent ${k}`, password: PASSWORD }),
  });
  return signedIn(call, base, accepted.cookie);
}

/** The contacts' ids, through the API's cursor pages. */
async function contactsOf(call: Call, headers: Record<string, string>, count: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `paginate=cursor&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = JSON.parse((await call(`/api/v1/conversations?status=open&${query}`, { headers })).text) as {
      data: { contact_id: string }[];
      next_cursor: string | null;
    };
    ids.push(...page.data.map((row) => row.contact_id));
    cursor = page.next_cursor;
  } while (cursor && ids.length < count);
  return ids;
}

/** Median milliseconds of sequential calls (after two warm-up calls). */
async function median(call: () => Promise<unknown>): Promise<number> {
  await call();
  await call();
  const times: number[] = [];
  for (let i = 0; i < settings.runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function runEngine(engine: Engine): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-reports-${engine}-`));
  const postgres = engine === 'postgres' ? await startPostgres(settings.pgPort) : null;
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
      ['setup', '--workspace', 'bench', '--email', EMAIL, '--password', PASSWORD],
      processEnv,
    );
    const workspaceId = (setup.workspace as { id: string }).id;
    await parleyCli(['workspace', 'set', '--id', workspaceId, '--rate-limit', '1000000'], processEnv);
    const token = String((await parleyCli(['token', 'create', '--workspace', workspaceId], processEnv)).token);
    await parleyCli(
      ['channel', 'set', '--workspace', workspaceId, '--provider', 'whatsapp-cloud'].concat(
        ['--phone-number-id', PHONE_NUMBER_ID, '--waba-id', WABA_ID, '--access-token', 'bench-token'],
        ['--messages-per-second', '0'],
      ),
      processEnv,
    );
    server = new NodeProcess('parley', 'src/main.ts', processEnv);
    const base = `https://127.0.0.1:${settings.port}`;
    await server.waitUntilReady(`${base}/healthz`, () => generatedCertificate(dataDir));
    const call = client(base, generatedCertificate(dataDir)!);

    log(`${engine}: seeding ${settings.messages.toLocaleString('en')} messages through HTTPS`);
    const seedStarted = performance.now();
    const seeded = await seed(call, base);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`${engine}: seeded in ${seedSeconds.toFixed(0)} s; measuring`);

    const headers = { authorization: `Bearer ${token}` };
    if (settings.keep) fs.writeFileSync(path.join(dataDir, 'bench-token'), token, { mode: 0o600 });
    const times: Record<string, number> = {
      'GET /api/v1/conversations (baseline)': await median(() =>
        call('/api/v1/conversations?paginate=cursor&limit=50', { headers }),
      ),
    };
    // Each report whole, as CSV, and narrowed to one team and to the number (every message is on it).
    const { teamId, ...sizes } = seeded;
    const numberQuery = `?phone_number_id=${PHONE_NUMBER_ID}`;
    // [as the results show it, as it is sent]: the team's id changes from run to run.
    const queries = [
      ['', ''],
      ['?format=csv', '?format=csv'],
      ['?team_id=…', `?team_id=${teamId}`],
      [numberQuery, numberQuery],
    ];
    for (const report of REPORTS) {
      for (const [shown, query] of queries) {
        times[`GET /api/v1${report}${shown}`] = await median(() => call(`/api/v1${report}${query}`, { headers }));
      }
    }
    return { engine, ...sizes, seedSeconds, times };
  } catch (error) {
    throw new Error(`${String(error)}\nParley's last output:\n${server?.recentOutput ?? ''}`);
  } finally {
    await server?.stop();
    await sink.close();
    if (settings.keep) {
      log(`BENCH_KEEP: ${engine} data kept in ${dataDir}${postgres ? ` and ${postgres.url} (still running)` : ''}`);
    } else {
      await postgres?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

function markdown(results: Result[]): string {
  const rows = results.flatMap((r) =>
    Object.entries(r.times).map(([what, ms]) => {
      const target = what.includes('baseline') ? '–' : ms <= 1000 ? 'pass (≤ 1 s)' : '**FAIL** (> 1 s)';
      return `| ${r.engine} | ${what} | ${ms.toFixed(1)} ms | ${target} |`;
    }),
  );
  const sizes = results.map(
    (r) =>
      `${r.engine}: ${(r.inbound + r.replies).toLocaleString('en')} messages (${r.inbound.toLocaleString('en')} from customers, ${r.replies.toLocaleString('en')} member replies), seeded in ${r.seedSeconds.toFixed(0)} s`,
  );
  return [
    '## Reports at size: agents, teams, volume, campaigns',
    '',
    `Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — \`BENCH_REPORTS_MESSAGES=${settings.messages} BENCH_ENGINES=${settings.engines.join(',')} npm run bench:reports\``,
    '',
    `Machine: ${machine()}. Shared with other work while it ran; compare with the baseline of the same run.`,
    '',
    `Seeded through HTTPS only: signed Meta webhook deliveries of ${BATCH} customer messages each, then replies by ten members on their own dashboard sessions (every fourth conversation assigned to one of two teams and marked done). ${sizes.join('; ')}. Median of ${settings.runs} sequential requests with an API token, default range (the last 30 days); each report whole, as CSV, narrowed to one team (a quarter of the assigned conversations) and to the number.`,
    '',
    '| Engine | Request | Median | Target |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

const results: Result[] = [];
for (const engine of settings.engines) results.push(await runEngine(engine));
console.log(markdown(results));
if (settings.output) writeMarkdown(settings.output, markdown(results), 'bench-reports', 'npm run bench:reports');
