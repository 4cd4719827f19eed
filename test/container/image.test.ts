/**
 * The container image as a self-hoster runs it (Podman here; the Dockerfile is Docker's format): built from
 * the repository, started with a volume, set up with `parley` inside it, called over HTTPS from the host,
 * restarted, run on PostgreSQL, stopped with SIGTERM. Runs once per CI run (scripts/test.sh), not per suite.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { Agent, request } from 'undici';
import { REPO_ROOT } from '../cli.js';
import { deploymentTestSkip, mustRun } from '../host-tools.js';
import {
  buildImage,
  containerLogs,
  CONTAINER_UID,
  dataVolume,
  execInContainer,
  freePort,
  IMAGE,
  podman,
  removeContainer,
  requireBaseImage,
  runContainer,
  startContainer,
  stopContainer,
  waitServing,
} from './podman.js';

const skip = await deploymentTestSkip(
  ['podman', 'debootstrap'],
  "install Debian's podman, runc and debootstrap (apt-get install -y podman runc debootstrap) and build the base image with ../shared/tools/node-base-image.sh",
);
const PASSWORD = 'correct horse battery staple';
/** A stop must end well within this (`podman stop -t`): past it the runtime kills, and the exit code says 137. */
const STOP_SECONDS = 10;

let containers = 0;
const names: string[] = [];
/** A fresh container name, removed after the file's tests. */
function containerName(): string {
  const name = `parley-test-${process.pid}-${++containers}`;
  names.push(name);
  return name;
}

interface Started {
  name: string;
  volume: string;
  port: number;
  agent: Agent;
}

/** Runs the image with a fresh volume on a free loopback port and waits until it serves. */
async function startParley(env: Record<string, string> = {}): Promise<Started> {
  const name = containerName();
  const volume = dataVolume();
  const port = await freePort();
  await runContainer(name, volume, { PORT: String(port), ...env });
  return { name, volume, port, agent: await waitServing(name, volume, port) };
}

/** Runs `parley ARGS` inside the container; it must succeed and print JSON. */
async function parleyInside<T>(name: string, ...args: string[]): Promise<T> {
  const result = await execInContainer(name, ['parley', ...args]);
  assert.equal(result.code, 0, `parley ${args[0]} inside the container: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** A workspace and a full-access token, made with the CLI inside the container. */
async function workspaceAndToken(name: string, workspace: string): Promise<{ workspaceId: string; token: string }> {
  const setup = await parleyInside<{ workspace: { id: string } }>(
    name,
    'setup',
    '--workspace',
    workspace,
    '--email',
    `owner@${workspace.toLowerCase()}.example`,
    '--password',
    PASSWORD,
  );
  const issued = await parleyInside<{ token: string }>(name, 'token', 'create', '--workspace', setup.workspace.id);
  return { workspaceId: setup.workspace.id, token: issued.token };
}

/** GET /api/v1/me over HTTPS from the host, trusting the certificate the container generated. */
async function me(started: Started, token: string): Promise<{ status: number; workspace: string }> {
  const response = await request(`https://127.0.0.1:${started.port}/api/v1/me`, {
    dispatcher: started.agent,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.body.json()) as { workspace?: { name: string } };
  return { status: response.statusCode, workspace: body.workspace?.name ?? '' };
}

/** A PostgreSQL database of this file's own: on PARLEY_TEST_DATABASE_URL's server, else a throwaway cluster's. */
async function postgresDatabase(): Promise<string> {
  const serverUrl = process.env.PARLEY_TEST_DATABASE_URL;
  if (!serverUrl) {
    const script = `${REPO_ROOT}/scripts/postgres-temp.sh`;
    const [dir, url] = (await mustRun('bash', [script, 'start', String(await freePort())])).trim().split(' ');
    after(() => mustRun('bash', [script, 'stop', dir!]));
    return url!;
  }
  const name = `parley_container_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  admin.on('error', () => undefined); // the shared cluster going away at the end of the run is not a failure here
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  after(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
    await admin.end();
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

describe('container image', { skip }, () => {
  before(async () => {
    await requireBaseImage();
  });
  after(async () => {
    for (const name of names) await removeContainer(name);
  });

  test('builds from the Dockerfile on the base image', { timeout: 15 * 60_000 }, async (t) => {
    const bytes = await buildImage();
    t.diagnostic(`image size: ${(bytes / 1e6).toFixed(0)} MB`);
    const [image] = JSON.parse((await podman(['image', 'inspect', IMAGE])).stdout) as {
      Config: { User: string; ExposedPorts: Record<string, unknown>; Env: string[]; StopSignal: string };
      Healthcheck?: { Test: string[] };
    }[];
    const config = image!.Config;
    assert.equal(config.User, 'node');
    assert.deepEqual(Object.keys(config.ExposedPorts), ['8443/tcp']);
    assert.equal(config.StopSignal, 'SIGTERM');
    assert.ok(image!.Healthcheck?.Test.join(' ').includes('healthcheck.mjs'), 'a HEALTHCHECK');
    assert.ok(config.Env.includes('DATA_DIR=/data'));
  });

  test('SQLite in the volume: the CLI inside, HTTPS from the host, non-root, data kept across a restart, SIGTERM exits 0', async () => {
    const started = await startParley();
    const { name } = started;
    const uid = await execInContainer(name, ['id', '-u']);
    assert.equal(uid.stdout.trim(), String(CONTAINER_UID), 'the CLI runs as the image user');
    const status = (await execInContainer(name, ['cat', '/proc/1/status'])).stdout;
    const serverUid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    assert.ok(serverUid !== undefined && serverUid !== '0', `the server (PID 1) runs as uid ${serverUid}, not root`);

    const { token } = await workspaceAndToken(name, 'Harbour');
    assert.deepEqual(await me(started, token), { status: 200, workspace: 'Harbour' });
    assert.ok(fs.existsSync(`${started.volume}/parley.db`), 'the SQLite database is in the volume');
    assert.equal((await podman(['healthcheck', 'run', name])).code, 0, 'the image health check passes');

    assert.equal(await stopContainer(name, STOP_SECONDS), 0, `SIGTERM exits 0:\n${await containerLogs(name)}`);
    assert.match(await containerLogs(name), /"signal":"SIGTERM","msg":"stopping: finishing in-flight requests"/);
    await startContainer(name);
    started.agent = await waitServing(name, started.volume, started.port);
    assert.deepEqual(await me(started, token), { status: 200, workspace: 'Harbour' }, 'the data survived');
    assert.equal(await stopContainer(name, STOP_SECONDS), 0);
  });

  test('a stop while the server is still starting exits 0 too (node as PID 1 heeds SIGTERM once main.ts runs)', async (t) => {
    const name = containerName();
    await runContainer(name, dataVolume(), { PORT: String(await freePort()) });
    // Node's own start-up handler shows SIGTERM as caught in /proc from the first moment, yet as PID 1 it
    // drops the signal: main.ts's first log line is the cue that its handler is set.
    for (let attempt = 0; attempt < 600 && !/"msg":"starting"/.test(await containerLogs(name)); attempt++)
      await delay(20);
    const serving = (await containerLogs(name)).includes('Parley is serving');
    t.diagnostic(serving ? 'the server was already serving when stopped' : 'stopped while starting');
    // The handler runs once the application's modules have loaded (a second here; 17 s at --cpus 0.1), so
    // the grace is Kubernetes' default of 30 s rather than Docker's 10, which a slow machine overran.
    assert.equal(await stopContainer(name, 30), 0, await containerLogs(name));
  });

  test('PostgreSQL through DATABASE_URL: the CLI and the server share it', async () => {
    const databaseUrl = await postgresDatabase();
    const started = await startParley({ DATABASE_URL: databaseUrl });
    const { token, workspaceId } = await workspaceAndToken(started.name, 'Quay');
    assert.deepEqual(await me(started, token), { status: 200, workspace: 'Quay' });
    assert.ok(!fs.existsSync(`${started.volume}/parley.db`), 'no SQLite file beside PostgreSQL');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('SELECT name FROM workspaces WHERE id = $1', [workspaceId]);
      assert.deepEqual(rows, [{ name: 'Quay' }], 'the workspace is in PostgreSQL');
    } finally {
      await client.end();
    }
    assert.equal(await stopContainer(started.name, STOP_SECONDS), 0);
  });
});
