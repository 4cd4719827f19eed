/**
 * Upgrades: a database written by an earlier release (test/fixtures/upgrade/, made by
 * scripts/make-upgrade-fixture.ts — see its comment to regenerate it for the next release) is started by
 * this code as an operator would start it: migrations run at start, then every record the old release
 * served is served still. New fields in an answer are fine; a changed or missing one is not.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.js';
import { SQLITE_FILE } from '../src/db/connection.js';
import { loadTls } from '../src/http/tls.js';
import type { UpgradeManifest } from '../scripts/make-upgrade-fixture.js';
import { REPO_ROOT } from './cli.js';
import { startParleyProcess } from './parley-process.js';
import { postgresProgram } from './postgres-program.js';
import { ENGINE, ownPostgresDatabase } from './server.js';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'upgrade');
const manifests = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'manifest.json'), 'utf8')) as Record<
  'sqlite' | 'postgres',
  UpgradeManifest
>;
const manifest = manifests[ENGINE];

/** A fresh DATA_DIR holding the old release's SQLite file, or a fresh database loaded from its dump. */
async function oldReleaseEnv(): Promise<NodeJS.ProcessEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upgrade-'));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir };
  const serverUrl = process.env.PARLEY_TEST_DATABASE_URL;
  if (!serverUrl) {
    fs.copyFileSync(path.join(FIXTURE, 'sqlite.db'), path.join(dataDir, SQLITE_FILE));
    return env;
  }
  const database = await ownPostgresDatabase(serverUrl);
  after(() => database.drop());
  const psql = ['--quiet', '--no-psqlrc', '--set', 'ON_ERROR_STOP=1', '--dbname', database.url];
  await promisify(execFile)(postgresProgram('psql'), [...psql, '--file', path.join(FIXTURE, 'postgres.sql')]);
  return { ...env, DATABASE_URL: database.url };
}

/** `actual` holds everything `expected` does (objects may have gained fields; arrays keep their length). */
function assertServes(actual: unknown, expected: unknown, where: string): void {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: an array`);
    assert.equal(actual.length, expected.length, `${where}: as many items`);
    expected.forEach((item, i) => assertServes(actual[i], item, `${where}[${i}]`));
  } else if (expected !== null && typeof expected === 'object') {
    assert.ok(actual !== null && typeof actual === 'object' && !Array.isArray(actual), `${where}: an object`);
    for (const [key, value] of Object.entries(expected)) {
      assertServes((actual as Record<string, unknown>)[key], value, `${where}.${key}`);
    }
  } else {
    assert.deepEqual(actual, expected, where);
  }
}

describe(`upgrade from release ${manifest.release} (${ENGINE})`, async () => {
  const env = await oldReleaseEnv();
  // The certificate Parley would make at start, made first so the client can trust it.
  const tls = await loadTls(loadConfig(env));
  const parley = await startParleyProcess('upgraded', env, tls.cert);

  test('the new release migrates the old database at start and serves every record it held', async () => {
    for (const [action, [body, expected]] of Object.entries(manifest.calls)) {
      const response = await parley.http.send('POST', `/api/v1/actions/${action}`, { token: manifest.token, body });
      assert.equal(response.status, 200, `${action}: ${response.text}`);
      assertServes(response.body, expected, action);
    }
  });

  test('/me answers for the old release’s tokens: the full one as before, the read-only one read-only', async () => {
    const me = await parley.http.send('GET', '/api/v1/me', { token: manifest.token });
    assert.equal(me.status, 200, me.text);
    assertServes(me.body, manifest.me, 'me');
    const read = await parley.http.send<{ token: { scope: string } }>('GET', '/api/v1/me', {
      token: manifest.read_token,
    });
    assert.deepEqual([read.status, read.body.token.scope], [200, 'read']);
  });

  test('the old release’s owner and invited member still sign in to the dashboard', async () => {
    for (const credentials of [
      { email: 'owner@upgrade.example', password: 'upgrade fixture passphrase' },
      { email: 'member@upgrade.example', password: 'another fixture passphrase' },
    ]) {
      const login = await parley.http.send('POST', '/api/dashboard/login', { body: credentials });
      assert.equal(login.status, 200, `${credentials.email}: ${login.text}`);
    }
  });
});
