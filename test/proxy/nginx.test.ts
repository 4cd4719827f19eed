/**
 * deploy/nginx/parley.conf in front of a real Parley process with TRUST_PROXY: the real nginx (Debian's
 * package) on a loopback port, with a certificate made here. Clients connect from other loopback
 * addresses (127.0.0.x) so the address nginx forwards differs from nginx's own.
 * Runs once per CI run, beside the container test (scripts/test.sh).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { generateSelfSigned } from '../../src/http/tls.js';
import { REPO_ROOT } from '../cli.js';
import { createWorkspace } from '../factories.js';
import { deploymentTestSkip, freePort, mustRun } from '../host-tools.js';
import { startParleyProcess, type LogLine, type ParleyProcess } from '../parley-process.js';
import { ENGINE, startServer } from '../server.js';

const skip = await deploymentTestSkip(['nginx'], "install Debian's nginx (apt-get install -y nginx)");
const PASSWORD = 'correct horse battery';
const NGINX_DEADLINE_MS = 30_000;

/** The shipped configuration with this machine's ports and certificate; each replaced text must be there. */
function adaptConfig(ports: { https: number; http: number; parley: number }, certFile: string, keyFile: string) {
  let config = fs.readFileSync(path.join(REPO_ROOT, 'deploy/nginx/parley.conf'), 'utf8');
  const replacements: [string, string][] = [
    ['server 127.0.0.1:8443;', `server 127.0.0.1:${ports.parley};`],
    ['listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`],
    ['listen [::]:443 ssl http2;', ''],
    ['listen 80;', `listen 127.0.0.1:${ports.http};`],
    ['listen [::]:80;', ''],
    ['/etc/letsencrypt/live/parley.example.com/fullchain.pem', certFile],
    ['/etc/letsencrypt/live/parley.example.com/privkey.pem', keyFile],
  ];
  for (const [from, to] of replacements) {
    assert.ok(config.includes(from), `deploy/nginx/parley.conf has "${from}"`);
    config = config.replace(from, to);
  }
  return config;
}

/** Runs nginx in the foreground from a folder of its own; resolves once it answers through to Parley. */
async function startNginx(parley: ParleyProcess): Promise<{ port: number; ca: string; errors: () => string }> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-nginx-'));
  fs.chmodSync(prefix, 0o755);
  const { cert, key } = await generateSelfSigned('127.0.0.1');
  fs.writeFileSync(path.join(prefix, 'cert.pem'), cert);
  fs.writeFileSync(path.join(prefix, 'key.pem'), key, { mode: 0o600 });
  const ports = { https: await freePort(), http: await freePort(), parley: Number(new URL(parley.baseUrl).port) };
  fs.writeFileSync(
    path.join(prefix, 'parley.conf'),
    adaptConfig(ports, path.join(prefix, 'cert.pem'), path.join(prefix, 'key.pem')),
  );
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `${kind}_temp_path ${prefix}/${kind};`,
  );
  fs.writeFileSync(
    path.join(prefix, 'nginx.conf'),
    [
      'worker_processes 1;',
      `error_log ${prefix}/error.log;`,
      `pid ${prefix}/nginx.pid;`,
      'events { worker_connections 256; }',
      `http { access_log ${prefix}/access.log; ${temp.join(' ')} include ${prefix}/parley.conf; }`,
    ].join('\n'),
  );
  const args = ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'];
  await mustRun('nginx', ['-t', ...args.slice(0, 4)]);
  const nginx = spawn('nginx', args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
  after(async () => {
    nginx.kill('SIGTERM');
    await exited;
    fs.rmSync(prefix, { recursive: true, force: true });
  });
  const errors = () => fs.readFileSync(path.join(prefix, 'error.log'), 'utf8');
  const agent = new Agent({ connect: { ca: cert } });
  after(() => agent.close());
  const deadline = Date.now() + NGINX_DEADLINE_MS;
  while (Date.now() < deadline && nginx.exitCode === null) {
    const answered = await request(`https://127.0.0.1:${ports.https}/healthz`, { dispatcher: agent })
      .then(async (response) => (await response.body.dump(), response.statusCode === 200))
      .catch(() => false);
    if (answered) return { port: ports.https, ca: cert, errors };
    await delay(50);
  }
  throw new Error(`nginx did not answer through to Parley:\n${errors()}`);
}

/** A client of nginx connecting from `address` (any of 127.0.0.0/8), so Parley should see that address. */
function clientFrom(address: string, nginx: { port: number; ca: string }) {
  const agent = new Agent({ localAddress: address, connect: { ca: nginx.ca } });
  after(() => agent.close());
  const origin = `https://127.0.0.1:${nginx.port}`;
  return {
    origin,
    send: (method: 'GET' | 'POST', pathname: string, headers: Record<string, string> = {}, body?: unknown) =>
      request(`${origin}${pathname}`, {
        method,
        dispatcher: agent,
        headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
  };
}

/** Parley's request log line for a request id, once written (just after the answer leaves). */
async function requestLine(parley: ParleyProcess, requestId: string): Promise<LogLine> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const line = parley.logs.find((entry) => entry.reqId === requestId && entry.msg === 'request');
    if (line) return line;
    await delay(10);
  }
  assert.fail(`no request line for ${requestId}`);
}

/** Keeps what a server-sent event stream delivers; `until` resolves once the text so far holds what is awaited. */
function streamReader(stream: Dispatcher.ResponseData) {
  let text = '';
  let ended = false;
  let check = () => undefined as void;
  stream.body.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    check();
  });
  stream.body.on('close', () => {
    ended = true;
    check();
  });
  return {
    until: (found: (text: string) => boolean) =>
      new Promise<string>((resolve, reject) => {
        check = () => {
          if (found(text)) resolve(text);
          else if (ended) reject(new Error(`the stream ended without the event:\n${text}`));
        };
        check();
      }),
  };
}

/** The in-process server gives the data folder and database; the proxied Parley is a process of its own. */
async function startStack() {
  const server = await startServer({ TRUST_PROXY: '1' });
  const nginxPort = await freePort();
  const parley = await startParleyProcess(
    'parley',
    { ...server.env, TRUST_PROXY: '1', PUBLIC_BASE_URL: `https://127.0.0.1:${nginxPort}` },
    '',
  );
  return { server, parley, nginx: await startNginx(parley) };
}

const { server, parley, nginx } = skip ? ({} as Awaited<ReturnType<typeof startStack>>) : await startStack();

describe(`nginx in front of Parley (deploy/nginx/parley.conf, ${ENGINE})`, { skip }, () => {
  test("the API, with the client's address and X-Request-Id in Parley's log", async () => {
    const ws = await createWorkspace(server);
    const client = clientFrom('127.0.0.3', nginx);
    const sent = `client-${randomUUID()}`;
    // The client's own X-Forwarded-For is not believed: the address is the one nginx saw.
    const me = await client.send('GET', '/api/v1/me', {
      authorization: `Bearer ${ws.token}`,
      'x-request-id': sent,
      'x-forwarded-for': '203.0.113.9',
    });
    assert.equal(me.statusCode, 200);
    assert.equal(((await me.body.json()) as { workspace: { id: string } }).workspace.id, ws.workspaceId);
    assert.equal(me.headers['x-request-id'], sent, 'the id comes back');
    const line = await requestLine(parley, sent);
    assert.deepEqual([line.url, line.status, line.ip], ['/api/v1/me', 200, '127.0.0.3']);

    // Without one, nginx's own $request_id names the request in Parley's log too.
    const unnamed = await client.send('GET', '/api/v1/me', { authorization: `Bearer ${ws.token}` });
    await unnamed.body.dump();
    const nginxId = String(unnamed.headers['x-request-id']);
    assert.match(nginxId, /^[0-9a-f]{32}$/);
    assert.equal((await requestLine(parley, nginxId)).ip, '127.0.0.3');
  });

  test(
    "the dashboard's sign-in, a page, and the live inbox stream delivering an inbound message",
    { timeout: 60_000 },
    async () => {
      const email = `owner-${randomUUID()}@example.com`;
      const { workspace } = await server.app.services.workspaces.setup({ name: 'Proxied', email, password: PASSWORD });
      const browser = clientFrom('127.0.0.6', nginx);
      const login = await browser.send(
        'POST',
        '/api/dashboard/login',
        { origin: browser.origin },
        { email, password: PASSWORD },
      );
      assert.equal(login.statusCode, 200, await login.body.text());
      const cookie = /(__Host-parley_session=[^;]+)/.exec(String(login.headers['set-cookie']))?.[1];
      assert.ok(cookie, 'the session cookie is set through the proxy');
      const page = await browser.send('GET', '/', { cookie });
      assert.equal(page.statusCode, 200);
      assert.match(await page.body.text(), /<script[^>]+app\.js/);
      const session = await browser.send('GET', '/api/dashboard/session', { cookie });
      const { csrf_token: csrfToken, workspace: signedIn } = (await session.body.json()) as {
        csrf_token: string;
        workspace: { id: string };
      };
      assert.equal(signedIn.id, workspace.id);
      // A change with the session: Origin and Host (with its port) must agree through the proxy.
      const contact = await browser.send(
        'POST',
        '/api/v1/actions/create-contact',
        { cookie, origin: browser.origin, 'x-csrf-token': csrfToken },
        { phone: '+14155550199' },
      );
      assert.equal(contact.statusCode, 201, await contact.body.text());

      const stream = await browser.send('GET', '/api/dashboard/events', { cookie, accept: 'text/event-stream' });
      assert.equal(stream.statusCode, 200);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      const events = streamReader(stream);
      await events.until((text) => text.includes('retry:'));
      const inbound = await browser.send(
        'POST',
        '/api/v1/actions/simulate-inbound-message',
        { cookie, origin: browser.origin, 'x-csrf-token': csrfToken },
        { phone: '+14155550199', text: 'Through the proxy' },
      );
      assert.equal(inbound.statusCode, 200);
      const { id: messageId } = (await inbound.body.json()) as { id: string };
      // Buffered by the proxy, the event would sit there while the stream stays open, and this would wait on.
      const received = await events.until((text) => text.includes(`"message_id":"${messageId}"`));
      assert.match(
        received,
        new RegExp(`event: message\\ndata: \\{[^\\n]*"message_id":"${messageId}","direction":"inbound"`),
      );
      stream.body.destroy();
    },
  );

  test('the sign-in limit counts the address nginx forwards, per client', async () => {
    const attacker = clientFrom('127.0.0.4', nginx);
    const attempt = async (client: typeof attacker) => {
      const response = await client.send(
        'POST',
        '/api/dashboard/login',
        { origin: client.origin },
        { email: `nobody-${randomUUID()}@example.com`, password: 'not the password at all' },
      );
      await response.body.dump();
      return response.statusCode;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push(await attempt(attacker));
    assert.deepEqual(statuses.slice(0, 20), Array<number>(20).fill(401), 'twenty failures are answered');
    assert.equal(statuses[20], 429, 'the next is refused for that address');
    assert.equal(await attempt(clientFrom('127.0.0.5', nginx)), 401, 'another address is still answered');
    assert.ok(!nginx.errors().includes('[emerg]'));
  });
});
