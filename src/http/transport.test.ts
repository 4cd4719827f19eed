import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { Readable, Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { Agent, request } from 'undici';
import { createWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { createApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { ManualClock } from '../shared/clock.js';
import { PARLEY_VERSION as version } from '../shared/version.js';

const server = await startServer();
const proxied = await startServer({ TRUST_PROXY: '1' });

interface Problem {
  code: string;
  status: number;
}

/** Plain-HTTP client for the TRUST_PROXY server (no TLS there: the proxy terminates it). */
async function plain(
  method: 'GET' | 'POST',
  pathname: string,
  options: { token?: string; body?: unknown; forwardedProto?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.forwardedProto) headers['x-forwarded-proto'] = options.forwardedProto;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const port = new URL(proxied.baseUrl).port;
  const res = await request(`http://127.0.0.1:${port}${pathname}`, {
    method,
    headers,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, body: (text ? JSON.parse(text) : null) as unknown };
}

/** Sends raw bytes to a TCP port and returns everything received until the server closes the connection. */
function rawExchange(port: number, bytes: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.setTimeout(5000, () => reject(new Error('the server kept a plain-HTTP connection open')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

interface OwnServer {
  app: App;
  port: number;
  agent: Agent;
  token: string;
  workspaceId: string;
}

/** A server of this test's own (for logging and shutdown), on a fresh data dir and the test database. */
async function launchOwnServer(logger: { level: string; stream: Writable } | false = false): Promise<OwnServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-transport-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    ...(process.env.PARLEY_TEST_DATABASE_URL && { DATABASE_URL: process.env.PARLEY_TEST_DATABASE_URL }),
  });
  const app = await createApp(config, { clock: new ManualClock(new Date()), logger });
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.server.address();
  assert.ok(address && typeof address === 'object');
  const agent = new Agent({ connect: { ca: app.tls?.cert ?? '' } });
  let closed = false;
  const close = app.close.bind(app);
  app.close = async () => {
    closed = true;
    await close();
  };
  after(async () => {
    if (!closed) await app.close();
    await agent.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const { workspace, user } = await app.services.workspaces.setup({
    name: 'Own',
    email: `owner-${randomUUID()}@example.com`,
    password: 'correct horse battery',
  });
  const issued = await app.services.tokens.create({ workspaceId: workspace.id, userId: user.id, name: 'own' });
  return { app, port: address.port, agent, token: issued.token, workspaceId: workspace.id };
}

const deferred = () => {
  let release = () => {};
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
};

describe(`transport (${ENGINE})`, () => {
  test('TLS › a plain-HTTP request to the HTTPS port gets no HTTP response', async () => {
    const port = Number(new URL(server.baseUrl).port);
    const received = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.ok(!received.toString('latin1').includes('HTTP/'), `no HTTP response, got ${received.toString('latin1')}`);
    if (received.length > 0) assert.equal(received[0], 0x15, 'anything sent is a TLS alert record');
    await assert.rejects(request(`http://127.0.0.1:${port}/api/v1/me`), 'an HTTP client gets a connection error');
    assert.equal((await server.http.send('GET', '/healthz')).status, 200, 'the same port answers over HTTPS');
  });

  test('health › GET /healthz answers 200 {"status":"ok"} and the version without a token', async () => {
    const res = await server.http.send('GET', '/healthz');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.body, { status: 'ok', version });
  });

  test('redirects › API paths never answer 3xx, so a token is never sent on to another address', async () => {
    const ws = await createWorkspace(server);
    const paths = [
      '/api',
      '/api/',
      '/api/v1',
      '/api/v1/',
      '/api/v1/me',
      '/api/v1/me/',
      '/api/v1/me?format=json',
      '//api/v1/me',
      '/api/v1//me',
      '/api/V1/me',
      '/api/v1/actions/create-contact',
      '/api/v1/actions/create-contact/',
      '/api/zapier/me',
      '/api/zapier/me/',
      '/api/v1/openapi.yaml',
      '/api/v1/openapi.yaml/',
    ];
    for (const pathname of paths) {
      for (const token of [ws.token, undefined]) {
        const res = await server.http.send('GET', pathname, { ...(token && { token }) });
        assert.ok(res.status < 300 || res.status >= 400, `${pathname}: ${res.status}`);
        assert.equal(res.headers.location, undefined, `${pathname}: no Location header`);
      }
    }
    const forwardedHttp = await plain('GET', '/api/v1/me', { token: ws.token, forwardedProto: 'http' });
    assert.equal(forwardedHttp.status, 403, 'behind a proxy, plain http is refused, not redirected to https');
    assert.equal(forwardedHttp.headers.location, undefined);
  });

  test('TRUST_PROXY › the server runs without TLS and refuses requests not forwarded as https', async () => {
    assert.equal(proxied.app.tls, null);
    const ws = await createWorkspace(proxied);
    for (const forwardedProto of [undefined, 'http', 'ftp']) {
      const me = await plain('GET', '/api/v1/me', { token: ws.token, ...(forwardedProto && { forwardedProto }) });
      assert.equal(me.status, 403, `X-Forwarded-Proto ${forwardedProto}`);
      assert.match(String(me.headers['content-type']), /^application\/problem\+json/);
      assert.equal((me.body as Problem).code, 'https_required');
      assert.equal((me.body as Problem).status, 403);
    }
    const create = await plain('POST', '/api/v1/actions/create-contact', {
      token: ws.token,
      body: { phone: '+14155550100' },
    });
    assert.equal(create.status, 403);
    const search = await plain('POST', '/api/v1/actions/search-contacts', {
      token: ws.token,
      body: {},
      forwardedProto: 'https',
    });
    assert.deepEqual(search.body, [], 'the refused create-contact wrote nothing');
  });

  test('TRUST_PROXY › requests forwarded as https are served normally', async () => {
    const ws = await createWorkspace(proxied);
    const me = await plain('GET', '/api/v1/me', { token: ws.token, forwardedProto: 'https' });
    assert.equal(me.status, 200);
    const created = await plain('POST', '/api/v1/actions/create-contact', {
      token: ws.token,
      body: { phone: '+14155550101', name: 'Ada' },
      forwardedProto: 'https',
    });
    assert.equal(created.status, 201);
    const anonymous = await plain('GET', '/api/v1/me', { forwardedProto: 'https' });
    assert.equal(anonymous.status, 401, 'tokens are still required');
  });

  test('TRUST_PROXY › the client-facing (left-most) X-Forwarded-Proto decides, in any case', async () => {
    const ws = await createWorkspace(proxied);
    for (const proto of ['HTTPS', 'https, http', 'https,http']) {
      assert.equal((await plain('GET', '/api/v1/me', { token: ws.token, forwardedProto: proto })).status, 200, proto);
    }
    for (const proto of ['http, https', 'ws']) {
      assert.equal((await plain('GET', '/api/v1/me', { token: ws.token, forwardedProto: proto })).status, 403, proto);
    }
  });

  test('TRUST_PROXY › the health check answers probes that bypass the proxy', async () => {
    const res = await plain('GET', '/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', version });
  });

  test(
    'shutdown › requests in flight when close() is called complete; new connections are refused',
    { timeout: 20_000 },
    async () => {
      const own = await launchOwnServer();
      const started = new Promise<void>((resolve) => {
        let count = 0;
        own.app.server.server.on('request', () => {
          if (++count === 3) resolve();
        });
      });
      const gate = deferred();
      const slowCreate = (phone: string) =>
        request(`https://127.0.0.1:${own.port}/api/v1/actions/create-contact`, {
          method: 'POST',
          dispatcher: own.agent,
          headers: { authorization: `Bearer ${own.token}`, 'content-type': 'application/json' },
          // Half the body now, the rest once close() has begun: the request is in flight meanwhile.
          body: Readable.from(
            (async function* () {
              yield `{"phone":"${phone}",`;
              await gate.promise;
              yield '"name":"In flight"}';
            })(),
          ),
        });
      const inFlight = ['+14155550111', '+14155550112', '+14155550113'].map(slowCreate);
      await started;

      const closing = own.app.close();
      const newcomer = new Agent({ connect: { ca: own.app.tls?.cert ?? '' } });
      try {
        await assert.rejects(
          request(`https://127.0.0.1:${own.port}/healthz`, { dispatcher: newcomer }),
          (error: NodeJS.ErrnoException) => ['ECONNREFUSED', 'ECONNRESET'].includes(error.code ?? ''),
          'a new connection during shutdown is not served',
        );
      } finally {
        gate.release();
      }
      const responses = await Promise.all(inFlight);
      const finishedAt = Date.now();
      for (const res of responses) {
        assert.equal(res.statusCode, 201);
        assert.equal(((await res.body.json()) as { name: string }).name, 'In flight');
      }
      await closing;
      assert.ok(Date.now() - finishedAt < 5000, 'close() does not wait out keep-alive connections');
      await assert.rejects(
        request(`https://127.0.0.1:${own.port}/healthz`, { dispatcher: newcomer }),
        (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
        'a new connection after shutdown is refused',
      );
      await newcomer.close();
    },
  );

  test('logs › one JSON line per request with method, url, status, ms, ip, reqId and workspace_id; never the token', async () => {
    const { own, lines, call, lineFor } = await loggingServer();
    const ok = await call('GET', '/api/v1/me?verbose=1', own.token);
    const created = await call('POST', '/api/v1/actions/create-contact', own.token, { phone: '+14155550120' });
    const refused = await call('GET', '/api/v1/me', `${own.token.slice(0, -1)}x`);
    const okLine = await lineFor(ok.requestId);
    assert.equal(okLine.method, 'GET');
    assert.equal(okLine.url, '/api/v1/me?verbose=1');
    assert.equal(okLine.status, 200);
    assert.equal(typeof okLine.ms, 'number');
    assert.equal(okLine.ip, '127.0.0.1');
    assert.equal(okLine.workspace_id, own.workspaceId);
    const createdLine = await lineFor(created.requestId);
    assert.deepEqual([createdLine.method, createdLine.status], ['POST', 201]);
    assert.equal(createdLine.workspace_id, own.workspaceId);
    const refusedLine = await lineFor(refused.requestId);
    assert.equal(refusedLine.status, 401);
    assert.equal(refusedLine.workspace_id, undefined, 'an unauthenticated request names no workspace');

    const everything = lines.join('\n');
    assert.ok(!everything.includes(own.token.slice('parley_'.length)), 'the token never reaches the log');
    assert.ok(!/bearer|authorization/i.test(everything), 'nor does the Authorization header');
  });

  test("logs › a client's X-Request-Id, else its traceparent's trace id, is the request id; invalid ones are replaced", async () => {
    const { own, call, lineFor } = await loggingServer();
    const sent = `proxy-${randomUUID()}`;
    const honoured = await call('GET', '/api/v1/me', own.token, undefined, { 'x-request-id': sent });
    assert.equal(honoured.requestId, sent, 'echoed in X-Request-Id');
    assert.equal((await lineFor(sent)).status, 200, 'and the log line carries it');

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    assert.equal((await call('GET', '/api/v1/me', own.token, undefined, { traceparent })).requestId, traceId);
    const both = await call('GET', '/api/v1/me', own.token, undefined, { 'x-request-id': sent, traceparent });
    assert.equal(both.requestId, sent, 'X-Request-Id wins over traceparent');

    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const invalid: Record<string, string>[] = [
      { 'x-request-id': 'x'.repeat(201) },
      { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` },
      { traceparent: `ff-${traceId}-00f067aa0ba902b7-01` },
      { traceparent: 'not a traceparent' },
    ];
    for (const headers of invalid) {
      const { requestId } = await call('GET', '/api/v1/me', own.token, undefined, headers);
      assert.match(requestId, uuid, `a fresh id for ${JSON.stringify(headers)}`);
      await lineFor(requestId);
    }
    assert.equal(
      (await call('GET', '/api/v1/me', own.token, undefined, { 'x-request-id': 'x'.repeat(200) })).requestId,
      'x'.repeat(200),
    );
    // Bytes outside printable ASCII (undici refuses to send them, so a raw request does).
    const raw = await rawTlsExchange(
      own,
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: caf\xe9\r\nConnection: close\r\n\r\n`,
    );
    const echoed = /^x-request-id: (.*)\r$/im.exec(raw)?.[1];
    assert.match(echoed ?? '', uuid, `a fresh id for a non-ASCII one, got ${raw}`);
  });
});

/** A server of the test's own whose log lines are kept, with a caller that returns each answer's X-Request-Id. */
async function loggingServer() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const own = await launchOwnServer({ level: 'info', stream });
  const call = async (
    method: 'GET' | 'POST',
    pathname: string,
    token: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await request(`https://127.0.0.1:${own.port}${pathname}`, {
      method,
      dispatcher: own.agent,
      headers: {
        ...headers,
        ...(token && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    await res.body.dump();
    return { status: res.statusCode, requestId: String(res.headers['x-request-id']) };
  };
  // A request's line is written once its response has gone out, which may be just after the client has it.
  const lineFor = async (requestId: string) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const matching = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.reqId === requestId && entry.msg === 'request');
      if (matching.length > 0) {
        assert.equal(matching.length, 1, `exactly one request line for ${requestId}`);
        return matching[0]!;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail(`no request line for ${requestId}`);
  };
  return { own, lines, call, lineFor };
}

/** Sends raw bytes (latin1) over TLS to a server of the test's own and returns its answer as latin1 text. */
function rawTlsExchange(own: OwnServer, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = tls.connect({ port: own.port, host: '127.0.0.1', ca: own.app.tls!.cert }, () =>
      socket.write(Buffer.from(bytes, 'latin1')),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}
