import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
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
}

export interface HttpClient {
  send<T = unknown>(
    method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE',
    pathname: string,
    options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<HttpResponse<T>>;
}

/**
 * Starts a real Parley HTTPS server on a random loopback port, on a fresh SQLite file or the
 * shared test PostgreSQL database, with a manual clock. Closed automatically after the file's tests.
 * Its outbox delivers only when `options.outbox` is set; its scheduler runs jobs only when asked.
 */
export async function startServer(
  overrides: Record<string, string> = {},
  options: { outbox?: boolean } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...(process.env.PARLEY_TEST_DATABASE_URL && { DATABASE_URL: process.env.PARLEY_TEST_DATABASE_URL }),
    ...overrides,
  };
  const config = loadConfig(env);
  const clock = new ManualClock(new Date());
  const app = await createApp(config, { clock, logger: false });
  // Files run in parallel on one PostgreSQL database: a server that delivered messages would also
  // claim other files' queued messages, through its own (differently configured) Graph client.
  if (!options.outbox) await app.services.outbox.stop();
  // The same for scheduled jobs, which also run on another clock: tests run their own workspace's
  // due jobs with `scheduler.runDue(workspaceId)`.
  await app.services.scheduler.stop();
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind');
  const baseUrl = `https://127.0.0.1:${address.port}`;
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' } });
  after(async () => {
    await app.close();
    await agent.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { app, baseUrl, clock, config, http: httpClient(baseUrl, agent), env };
}

function httpClient(baseUrl: string, agent: Agent): HttpClient {
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
      const text = await response.body.text();
      const type = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        headers: response.headers,
        text,
        body: (type.includes('json') && text ? JSON.parse(text) : text) as never,
      };
    },
  };
}
