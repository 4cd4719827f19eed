import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import pg from 'pg';
import { Agent, request } from 'undici';
import { createApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { ManualClock } from '../src/shared/clock.js';

/** Which engine this run tests: PostgreSQL when PARLEY_TEST_DATABASE_URL is set, else SQLite. */
export const ENGINE = process.env.PARLEY_TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestServer {
  app: App;
  baseUrl: string;
  clock: ManualClock;
  config: Config;
  /** An HTTPS client that trusts this server's self-signed certificate. */
  http: HttpClient;
  /** Environment for running the real CLI against the same database. */
  env: NodeJS.ProcessEnv;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
  /** The body's exact bytes (a file the server sent); the HTTP client always fills it. */
  bytes?: Buffer;
}

export interface HttpClient {
  send<T = unknown>(
    method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    pathname: string,
    options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<HttpResponse<T>>;
}

let databases = 0;

/**
 * A database of the test server's own on the test PostgreSQL server: test files run in parallel,
 * and each server's outbox and scheduler would otherwise pick up the others' messages and jobs.
 */
export async function ownPostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `parley_test_${process.pid}_${++databases}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  admin.on('error', () => undefined); // the cluster going away at the end of the run is not a test failure
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // Dropped once the server has closed its pool; a database a straggling connection still holds
    // is left to the throwaway cluster rather than killed under it.
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
      await admin.end();
    },
  };
}

/**
 * Starts a real Parley HTTPS server on a random loopback port, on a fresh SQLite file or a fresh
 * database on the test PostgreSQL server, with a manual clock. Closed automatically after the file's tests.
 * Its outbox delivers only when `options.outbox` is set; its scheduler runs jobs only when asked.
 */
export async function startServer(
  overrides: Record<string, string> = {},
  options: { outbox?: boolean } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  const serverUrl = process.env.PARLEY_TEST_DATABASE_URL;
  const database = serverUrl ? await ownPostgresDatabase(serverUrl) : null;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...(database && { DATABASE_URL: database.url }),
    ...overrides,
  };
  const config = loadConfig(env);
  const clock = new ManualClock(new Date());
  // Every dashboard answer is checked against its response schema: a field the schema lacks fails the test.
  const app = await createApp(config, { clock, logger: false, checkResponses: true });
  // Tests decide when messages are delivered and when scheduled jobs run (on the manual clock).
  if (!options.outbox) await app.services.outbox.stop();
  await app.services.scheduler.stop();
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind');
  const baseUrl = `https://127.0.0.1:${address.port}`;
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' } });
  after(async () => {
    await app.close();
    await agent.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { app, baseUrl, clock, config, http: httpClient(baseUrl, agent), env };
}

/** An HTTPS client for one origin, trusting the CA its agent was given. */
export function httpClient(baseUrl: string, agent: Agent): HttpClient {
  return {
    async send(method, pathname, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await request(baseUrl + pathname, { method, headers, body, dispatcher: agent });
      const bytes = Buffer.from(await response.body.arrayBuffer());
      // As undici's text() read it: UTF-8 with a leading byte-order mark dropped (the CSV exports carry one).
      const text = new TextDecoder().decode(bytes);
      const type = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        headers: response.headers,
        text,
        bytes,
        // One JSON document (not application/x-ndjson's lines) is parsed.
        body: (type.includes('json') && !type.includes('ndjson') && text ? JSON.parse(text) : text) as never,
      };
    },
  };
}
