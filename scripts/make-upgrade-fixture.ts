/**
 * Writes test/fixtures/upgrade/: a database as this release leaves it, on both engines, for the upgrade test
 * (test/upgrade.test.ts) of every later release. Run it once per release, from that release's commit:
 *
 *   node --import tsx scripts/make-upgrade-fixture.ts postgres://postgres@127.0.0.1:54330/postgres
 *
 * (any PostgreSQL server this machine reaches as a superuser, and its pg_dump; the database it makes there is
 * dropped again). It builds one workspace through the real CLI and a real server over HTTPS — the example
 * workspace file (tags, templates with translations, contacts with tags and attributes, a flow, a sequence,
 * a campaign), a contact made by the API, a message in and one out (sent and read on the simulator), two
 * tokens, an invited member, workspace settings, a quick reply — then keeps (a) the SQLite file, (b) a
 * plain-SQL pg_dump, and (c) for each engine its ids, tokens and the API's answers to check against.
 * Regenerating replaces the previous release's fixture: keep it (e.g. as test/fixtures/upgrade-0.1.0/) if
 * both should be tested.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Agent, request } from 'undici';
import { SQLITE_FILE } from '../src/db/connection.js';
import { SQLiteDatabase } from '../src/db/sqlite-driver.js';
import { PARLEY_VERSION } from '../src/shared/version.js';
import { postgresProgram } from '../test/postgres-program.js';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'test', 'fixtures', 'upgrade');
const PORT = 18_543;
const OWNER = { email: 'owner@upgrade.example', password: 'upgrade fixture passphrase' };
const MEMBER = { email: 'member@upgrade.example', password: 'another fixture passphrase' };

/** What the upgrade test reads per engine: who to call as, and what the API answered then. */
export interface UpgradeManifest {
  release: string;
  workspace_id: string;
  token: string;
  read_token: string;
  /** action name → [request body, the answer at fixture time]. */
  calls: Record<string, [unknown, unknown]>;
  me: unknown;
}

type Env = NodeJS.ProcessEnv;

async function cli<T>(env: Env, ...args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'bin', 'parley.js'), ...args], { cwd: ROOT, env });
  return JSON.parse(stdout) as T;
}

/** A real server on `env`, until `stop`; `call` speaks HTTPS to it, trusting the certificate it made. */
async function startServer(env: Env) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: 'inherit' });
  const certFile = path.join(env.DATA_DIR!, 'tls', 'cert.pem');
  let agent: Agent | undefined;
  for (let attempt = 0; agent === undefined; attempt++) {
    if (attempt > 1200) {
      child.kill('SIGTERM');
      throw new Error('the server did not answer within two minutes');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (!fs.existsSync(certFile)) continue;
    // Read afresh each time: the first look may catch the certificate half written.
    const candidate = new Agent({ connect: { ca: fs.readFileSync(certFile) } });
    const up = await request(`https://127.0.0.1:${PORT}/healthz`, { dispatcher: candidate }).then(
      async (response) => (await response.body.dump(), response.statusCode === 200),
      () => false,
    );
    if (up) agent = candidate;
    else await candidate.close();
  }
  const call = async (
    method: 'GET' | 'POST',
    pathname: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await request(`https://127.0.0.1:${PORT}${pathname}`, {
      method,
      dispatcher: agent,
      headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`${method} ${pathname}: ${response.statusCode} ${text}`);
    return { body: JSON.parse(text) as unknown, headers: response.headers };
  };
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await agent.close();
  };
  return { call, stop };
}

type Call = Awaited<ReturnType<typeof startServer>>['call'];

/** An invited member, as the dashboard makes one: the owner's invite link, accepted with a password. */
async function inviteMember(call: Call): Promise<void> {
  const login = await call('POST', '/api/dashboard/login', OWNER);
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const session = (await call('GET', '/api/dashboard/session', undefined, { cookie })).body as { csrf_token: string };
  const headers = { cookie, 'x-csrf-token': session.csrf_token };
  const invite = (await call('POST', '/api/dashboard/invites', { email: MEMBER.email, role: 'member' }, headers))
    .body as { token: string };
  await call('POST', '/api/dashboard/invites/accept', {
    token: invite.token,
    name: 'Member',
    password: MEMBER.password,
  });
}

/** Everything the fixture holds, made through the CLI and the API; returns what the test checks. */
async function populate(env: Env): Promise<UpgradeManifest> {
  const { workspace } = await cli<{ workspace: { id: string } }>(
    env,
    ...['setup', '--workspace', 'Upgrade fixture', '--email', OWNER.email, '--password', OWNER.password],
  );
  const ws = ['--workspace', workspace.id];
  const { token } = await cli<{ token: string }>(env, 'token', 'create', ...ws, '--name', 'integration');
  const readToken = (
    await cli<{ token: string }>(env, 'token', 'create', ...ws, '--name', 'reports', '--scope', 'read')
  ).token;
  await cli(env, 'workspace', 'set', '--id', workspace.id, '--time-zone', 'Europe/Berlin', '--poll-interval', '30');
  await cli(env, 'channel', 'set', ...ws, '--provider', 'simulator');
  await cli(env, 'import', ...ws, path.join(ROOT, 'docs', 'examples', 'workspace.json'));

  const server = await startServer(env);
  try {
    const auth = { authorization: `Bearer ${token}` };
    const action = async (name: string, body: unknown) =>
      (await server.call('POST', `/api/v1/actions/${name}`, body, auth)).body;
    const contact = (await action('create-contact', {
      phone: '+14155550142',
      name: 'Upgrade Tester',
      tags: 'vip,beta',
      metadata: { plan: 'pro', seats: 12 },
    })) as { id: string };
    await cli(env, 'simulate', 'inbound', ...ws, '--from', '+14155550142', '--text', 'Hello from the old release');
    const sent = (await action('send-text-message', {
      contact_id: contact.id,
      message: 'Answered by the old release',
    })) as {
      id: string;
    };
    await untilRead(() => action('get-message', { message_id: sent.id }) as Promise<{ status: string }>);
    await action('create-quick-reply', { shortcut: 'hours', body: 'We are open 9–17.' });
    await inviteMember(server.call);

    const dropdown = async (kind: string) =>
      ((await server.call('GET', `/api/v1/dropdowns/${kind}`, undefined, auth)).body as { id: string }[])[0]!.id;
    const [campaign] = (await action('list-campaigns', {})) as { id: string }[];
    const calls: Record<string, unknown> = {
      'get-contact': { contact_id: contact.id },
      'list-templates': {},
      'list-messages': { contact_id: contact.id },
      'get-sequence': { sequence_id: await dropdown('sequences') },
      'get-flow': { flow_id: await dropdown('flows') },
      'get-campaign': { campaign_id: campaign!.id },
      'list-tags': {},
      'list-quick-replies': {},
    };
    const answered: UpgradeManifest['calls'] = {};
    for (const [name, body] of Object.entries(calls)) answered[name] = [body, await action(name, body)];
    const me = (await server.call('GET', '/api/v1/me', undefined, auth)).body;
    return { release: PARLEY_VERSION, workspace_id: workspace.id, token, read_token: readToken, calls: answered, me };
  } finally {
    await server.stop();
  }
}

/** The simulator reports delivered after 1 s and read after 3 s: the fixture keeps a settled message. */
async function untilRead(get: () => Promise<{ status: string }>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await get()).status === 'read') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the sent message was never read');
}

function baseEnv(dataDir: string): Env {
  return { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(PORT), LOG_LEVEL: 'warn' };
}

async function sqliteFixture(): Promise<UpgradeManifest> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upgrade-'));
  try {
    const manifest = await populate(baseEnv(dataDir));
    // One self-contained file (no -wal beside it), compacted.
    const target = path.join(OUT, 'sqlite.db');
    fs.rmSync(target, { force: true });
    const db = new SQLiteDatabase(path.join(dataDir, SQLITE_FILE));
    db.prepare('VACUUM INTO ?').run(target);
    db.close();
    return manifest;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresFixture(serverUrl: string): Promise<UpgradeManifest> {
  const name = `parley_upgrade_fixture_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upgrade-'));
  try {
    const manifest = await populate({ ...baseEnv(dataDir), DATABASE_URL: url.href });
    const { stdout } = await run(
      postgresProgram('pg_dump'),
      ['--format=plain', '--no-owner', '--no-privileges', '--dbname', url.href],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    fs.writeFileSync(path.join(OUT, 'postgres.sql'), stdout);
    return manifest;
  } finally {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The fixture's README: what it is, and its secrets in plain text (test data, nothing else opens with them). */
function readme(manifests: Record<'sqlite' | 'postgres', UpgradeManifest>): string {
  const rows = Object.entries(manifests).map(
    ([engine, m]) => `| ${engine} | \`${m.workspace_id}\` | \`${m.token}\` | \`${m.read_token}\` |`,
  );
  return `# Upgrade fixture: Parley ${PARLEY_VERSION}

A workspace as release ${PARLEY_VERSION} wrote it, for \`test/upgrade.test.ts\`: \`sqlite.db\` (the SQLite file,
copied into a fresh \`DATA_DIR\` as \`parley.db\`), \`postgres.sql\` (\`pg_dump --format=plain\`, loaded with
\`psql\` into a fresh database), and \`manifest.json\` (per engine: the tokens, and what the API answered).
Made by \`scripts/make-upgrade-fixture.ts\`; its comment says how to make the next release's.

Test data only. The API tokens (full, then read-only) and the dashboard sign-ins:

| engine | workspace | token | read-only token |
| --- | --- | --- | --- |
${rows.join('\n')}

Dashboard: \`${OWNER.email}\` / \`${OWNER.password}\` (owner), \`${MEMBER.email}\` / \`${MEMBER.password}\` (member).
\`postgres.sql\` starts with \`\\restrict\`, which psql understands from PostgreSQL 13.22 / 14.19 / 15.14 / 16.10 / 17.6 on.
`;
}

const serverUrl = process.argv[2];
if (!serverUrl) throw new Error('usage: make-upgrade-fixture.ts postgres://USER@HOST:PORT/postgres');
fs.mkdirSync(OUT, { recursive: true });
const manifests = { sqlite: await sqliteFixture(), postgres: await postgresFixture(serverUrl) };
fs.writeFileSync(path.join(OUT, 'manifest.json'), JSON.stringify(manifests, null, 2) + '\n');
fs.writeFileSync(path.join(OUT, 'README.md'), readme(manifests));
console.log(`wrote ${path.relative(ROOT, OUT)}: sqlite.db, postgres.sql, manifest.json (release ${PARLEY_VERSION})`);
