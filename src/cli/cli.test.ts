import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { cliJson, REPO_ROOT, runCli, runThroughNpm, stderrLines, type CliResult } from '../../test/cli.js';

const server = await startServer();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface SetupOutput {
  workspace: { id: string; name: string; created_at: string };
  user: { id: string; email: string; name: string; role: string };
}
interface IssuedOutput {
  id: string;
  token: string;
  name: string;
  scope: string;
  mode?: string;
  approval_timeout_minutes?: number | null;
}
interface Me {
  user: { id: string; email: string };
  workspace: { id: string; name: string; poll_interval_seconds: number; rate_limit_per_minute: number };
  token: { id: string; scope: string; mode: string };
}

/** `parley setup`'s arguments; the password, unless given, is one the password rule accepts. */
const setupArgs = (workspace: string, email: string, password = 'correct horse battery') => [
  'setup',
  '--workspace',
  workspace,
  '--email',
  email,
  '--password',
  password,
];

/** A workspace made through `parley setup`, with unique names (PostgreSQL runs share one database). */
async function setup(): Promise<SetupOutput & { email: string }> {
  const email = `owner-${randomUUID()}@example.com`;
  const output = await cliJson<SetupOutput>(server, ...setupArgs(`CLI ${randomUUID().slice(0, 8)}`, email));
  return { ...output, email };
}

const me = (token: string) => server.http.send<Me>('GET', '/api/v1/me', { token });

/** The error contract: the exit code, nothing on stdout, exactly one `parley: …` line on stderr. */
function assertFails(result: CliResult, code: number, pattern: RegExp): void {
  assert.equal(result.code, code, `exit code (stderr: ${result.stderr})`);
  assert.equal(result.stdout, '', 'nothing on stdout');
  const lines = stderrLines(result);
  assert.equal(lines.length, 1, `one line on stderr, got: ${result.stderr}`);
  assert.match(lines[0]!, /^parley: /);
  assert.match(lines[0]!, pattern);
}

describe(`parley CLI (${ENGINE})`, () => {
  test('setup › prints the new workspace and its owner as JSON', async () => {
    const email = `Owner-${randomUUID()}@Example.com`;
    const name = `Acme ${randomUUID().slice(0, 8)}`;
    const result = await runCli(server, ...setupArgs(name, email), '--name', 'Ada Owner');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const output = JSON.parse(result.stdout) as SetupOutput;
    assert.match(output.workspace.id, UUID);
    assert.equal(output.workspace.name, name);
    assert.match(output.workspace.created_at, TIMESTAMP);
    assert.match(output.user.id, UUID);
    assert.equal(output.user.email, email.toLowerCase());
    assert.equal(output.user.role, 'owner');
    assert.equal(output.user.name, 'Ada Owner');
    const stored = await server.app.services.workspaces.owner(output.workspace.id);
    assert.equal(stored.id, output.user.id, 'the server sees the same workspace and owner');
  });

  test('setup › a duplicate email (in any case) exits 1 and creates nothing', async () => {
    const first = await setup();
    const name = `Dup ${randomUUID().slice(0, 8)}`;
    const again = await runCli(server, ...setupArgs(name, first.email.toUpperCase()));
    assertFails(again, 1, /already exists \(conflict\)$/);
    const { count } = await server.app.services.deps.db
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count), 0, 'no workspace without an owner is left behind');
  });

  test('setup › a short or common password or a bad email exits 1 naming the option', async () => {
    const email = `x-${randomUUID()}@example.com`;
    const short = await runCli(server, ...setupArgs('W', email, 'elevenchars'));
    assertFails(short, 1, /password: must be at least 12 characters/);
    const common = await runCli(server, ...setupArgs('W', email, 'password1234'));
    assertFails(common, 1, /password: is too common or predictable/);
    const bad = await runCli(server, ...setupArgs('W', 'nobody'));
    assertFails(bad, 1, /email: must be an email address/);
  });

  test('token create › prints {id, token} once; the token works over HTTPS', async () => {
    const ws = await setup();
    const issued = await cliJson<IssuedOutput>(
      server,
      'token',
      'create',
      '--workspace',
      ws.workspace.id,
      '--name',
      'Zapier',
    );
    assert.match(issued.id, UUID);
    assert.match(issued.token, /^parley_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual([issued.name, issued.scope], ['Zapier', 'full']);

    const res = await me(issued.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.workspace.id, ws.workspace.id);
    assert.equal(res.body.user.email, ws.email);
    assert.deepEqual(res.body.token, { id: issued.id, scope: 'full', mode: 'direct' });

    const row = await server.app.services.deps.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', issued.id)
      .executeTakeFirstOrThrow();
    assert.ok(!Object.values(row).includes(issued.token), 'the secret is not stored, so it can only be shown once');
    const second = await cliJson<IssuedOutput>(server, 'token', 'create', '--workspace', ws.workspace.id);
    assert.notEqual(second.token, issued.token);
    assert.equal(second.name, 'CLI token', 'default name');
  });

  test('token create --scope read › the token reads but may not write', async () => {
    const ws = await setup();
    const issued = await cliJson<IssuedOutput>(
      server,
      'token',
      'create',
      '--workspace',
      ws.workspace.id,
      '--scope',
      'read',
    );
    assert.equal(issued.scope, 'read');
    const read = await me(issued.token);
    assert.equal(read.status, 200);
    assert.equal(read.body.token.scope, 'read');
    const write = await server.http.send('POST', '/api/v1/actions/create-contact', {
      token: issued.token,
      body: { phone: '+14155550160' },
    });
    assert.equal(write.status, 403);
    const badScope = await runCli(server, 'token', 'create', '--workspace', ws.workspace.id, '--scope', 'admin');
    assertFails(badScope, 1, /scope: must be full or read/);
  });

  test('token create --mode approval › the token’s sends wait for a person, as long as --approval-timeout says', async () => {
    const ws = await setup();
    const args = ['token', 'create', '--workspace', ws.workspace.id, '--name', 'Agent'];
    const issued = await cliJson<IssuedOutput>(server, ...args, '--mode', 'approval', '--approval-timeout', '15');
    assert.deepEqual([issued.mode, issued.approval_timeout_minutes], ['approval', 15]);
    assert.equal((await me(issued.token)).body.token.mode, 'approval');
    assertFails(await runCli(server, ...args, '--mode', 'supervised'), 1, /mode: must be direct or approval/);
    assertFails(
      await runCli(server, ...args, '--approval-timeout', '15'),
      1,
      /approval_timeout_minutes: goes only with mode "approval"/,
    );
  });

  test('token revoke › the token then gets 401; revoking twice is harmless', async () => {
    const ws = await setup();
    const issued = await cliJson<IssuedOutput>(server, 'token', 'create', '--workspace', ws.workspace.id);
    assert.equal((await me(issued.token)).status, 200);

    const revoked = await cliJson<{ id: string; revoked_at: string }>(server, 'token', 'revoke', '--id', issued.id);
    assert.equal(revoked.id, issued.id);
    assert.match(revoked.revoked_at, TIMESTAMP);
    const after = await me(issued.token);
    assert.equal(after.status, 401);
    assert.equal((after.body as unknown as { code: string }).code, 'unauthorized');

    const again = await cliJson<{ revoked_at: string }>(server, 'token', 'revoke', '--id', issued.id.toUpperCase());
    assert.equal(again.revoked_at, revoked.revoked_at, 'the first revocation time is kept');
  });

  test('workspace set › --poll-interval and --rate-limit are reflected in GET /api/v1/me', async () => {
    const ws = await createWorkspace(server);
    const output = await cliJson<Record<string, unknown>>(
      server,
      'workspace',
      'set',
      '--id',
      ws.workspaceId,
      '--poll-interval',
      '60',
      '--rate-limit',
      '600',
    );
    assert.deepEqual(
      { poll: output.poll_interval_seconds, rate: output.rate_limit_per_minute, id: output.id },
      { poll: 60, rate: 600, id: ws.workspaceId },
    );
    const res = await me(ws.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.workspace.poll_interval_seconds, 60);
    assert.equal(res.body.workspace.rate_limit_per_minute, 600);
  });

  test('workspace set › a bad value exits 1 naming the option and changes nothing', async () => {
    const ws = await createWorkspace(server);
    assertFails(
      await runCli(server, 'workspace', 'set', '--id', ws.workspaceId, '--poll-interval', 'soon'),
      1,
      /poll-interval: must be a whole number/,
    );
    assertFails(
      await runCli(server, 'workspace', 'set', '--id', ws.workspaceId, '--poll-interval', '90000'),
      1,
      /poll_interval_seconds: must be an integer from 0/,
    );
    assert.equal((await me(ws.token)).body.workspace.poll_interval_seconds, 30, 'still the default');
  });

  test('migrate › prints the applied migrations as JSON (none: the database is current)', async () => {
    const result = await runCli(server, 'migrate');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { applied: [] });
  });

  test('configuration › every invalid setting is named on one line, and the command exits 1', async () => {
    const env = { ...server.env, PORT: 'eighty', LOG_LEVEL: 'loud', PARLEY_ENCRYPTION_KEY: 'dG9vLXNob3J0' };
    const result = await runCli({ ...server, env }, 'migrate');
    assert.equal(result.code, 1);
    const [line, ...more] = stderrLines(result);
    assert.deepEqual(more, []);
    for (const name of ['PORT', 'LOG_LEVEL', 'PARLEY_ENCRYPTION_KEY'])
      assert.match(line ?? '', new RegExp(`${name} must`));
  });

  test('usage errors › unknown command, missing option, unknown option, wrong arguments exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command "frobnicate"; commands: setup, token create/],
      [['token', 'mint', '--workspace', 'x'], /unknown command "token mint"/],
      [['token', 'create'], /--workspace is required; usage: parley token create --workspace ID/],
      [['token', 'create', '--workspace'], /argument missing; usage: parley token create/],
      [['token', 'revoke', '--id', randomUUID(), '--force'], /Unknown option '--force'.*usage: parley token revoke/],
      [
        ['import', '--workspace', randomUUID()],
        /^parley: usage: parley import --workspace ID FILE\.json \| FILE\.csv \[--columns /,
      ],
      [['export', '--workspace', randomUUID(), 'extra.json'], /^parley: usage: parley export --workspace ID \[--csv/],
      [['setup', '--workspace', 'W', '--email', 'a@example.com'], /--password is required/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(server, ...args)));
    results.forEach((result, i) => assertFails(result, 2, cases[i]![1]));
  });

  test('errors › an unknown or malformed id exits 1 with a one-line message, on both engines alike', async () => {
    const unknown = randomUUID();
    const cases: [string[], RegExp][] = [
      [['token', 'create', '--workspace', unknown], /^parley: workspace not found \(not_found\)$/],
      [['export', '--workspace', unknown], /^parley: workspace not found \(not_found\)$/],
      // Every --workspace command checks the workspace first, so a mistyped one is not an empty answer.
      [['webhook', 'list', '--workspace', unknown], /^parley: workspace not found \(not_found\)$/],
      [['campaign', 'get', '--workspace', unknown, '--id', unknown], /^parley: workspace not found \(not_found\)$/],
      [['workspace', 'set', '--id', unknown, '--poll-interval', '5'], /workspace not found/],
      [['token', 'revoke', '--id', unknown], /^parley: token not found \(not_found\)$/],
      [['export', '--workspace', 'acme'], /^parley: workspace: must be an id \(a UUID\) \(validation_failed\)$/],
      [['token', 'revoke', '--id', '42'], /^parley: id: must be an id \(a UUID\)/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(server, ...args)));
    results.forEach((result, i) => assertFails(result, 1, cases[i]![1]));
  });

  test('help › lists every command and exits 0', async () => {
    const result = await runCli(server, '--help');
    assert.equal(result.code, 0);
    for (const command of ['setup', 'token create', 'token revoke', 'import', 'export', 'workspace set', 'migrate']) {
      assert.match(result.stdout, new RegExp(`^parley ${command}\\b`, 'm'));
    }
  });

  test('help › `help`, `--help` and no words at all print the same usage, which names help and version', async () => {
    const results = await Promise.all([runCli(server, 'help'), runCli(server, '--help'), runCli(server)]);
    for (const result of results) {
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, results[0].stdout);
    }
    assert.match(results[0].stdout, /^parley help \| --help$/m);
    assert.match(results[0].stdout, /^parley version \| --version$/m);
  });

  test("version › `version`, `--version` and `-- --version` print package.json's version alone", async () => {
    const results = await Promise.all([
      runCli(server, 'version'),
      runCli(server, '--version'),
      runCli(server, '-v'),
      runCli(server, '--', '--version'),
    ]);
    for (const result of results) assert.deepEqual(result, { code: 0, stdout: `${packageVersion()}\n`, stderr: '' });
  });

  test('version › through npm: the forms docs/cli.md gives reach parley; npm exec keeps a bare --version', async () => {
    const version = `${packageVersion()}\n`;
    const forms = await Promise.all([
      runThroughNpm(server, 'npx', '--version'),
      runThroughNpm(server, 'npx', 'version'),
      runThroughNpm(server, 'npm exec', 'version'),
      runThroughNpm(server, 'npm exec', '--', '--version'),
    ]);
    for (const result of forms) assert.equal(result.stdout, version, result.stderr);
    const help = await runThroughNpm(server, 'npx', '--help');
    assert.match(help.stdout, /^parley version \| --version$/m);
    // Why the docs name the word: npm exec reads a --version after the command name as its own.
    const swallowed = await runThroughNpm(server, 'npm exec', '--version');
    assert.notEqual(swallowed.stdout, version);
  });
});

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
