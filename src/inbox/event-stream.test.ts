import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { Agent, request, type Dispatcher } from 'undici';
import { ENGINE, startServer } from '../../test/server.js';
import { createApp } from '../app.js';
import { SESSION_COOKIE } from '../http/session-auth.js';
import { STREAMS_PER_SESSION } from './event-streams.js';

const server = await startServer();
const agent = new Agent({ connect: { ca: server.app.tls?.cert ?? '' } });
after(() => agent.destroy());

interface Session {
  cookie: string;
  csrfToken: string;
}

/** A workspace owner, logged in through the dashboard's login route. */
async function owner(): Promise<{ email: string; password: string }> {
  const email = `owner-${randomUUID()}@example.com`;
  const password = 'correct horse battery';
  await server.app.services.workspaces.setup({ name: 'Streams', email, password });
  return { email, password };
}

async function logIn(credentials: { email: string; password: string }): Promise<Session> {
  const login = await server.http.send('POST', '/api/dashboard/login', { body: credentials });
  assert.equal(login.status, 200, login.text);
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  assert.ok(cookie.startsWith(`${SESSION_COOKIE}=`));
  const session = await server.http.send<{ csrf_token: string }>('GET', '/api/dashboard/session', {
    headers: { cookie },
  });
  return { cookie, csrfToken: session.body.csrf_token };
}

/** Opens GET /api/dashboard/events; the answer arrives with the headers, the body streams on. */
function openStream(session: Session): Promise<Dispatcher.ResponseData> {
  return request(`${server.baseUrl}/api/dashboard/events`, {
    dispatcher: agent,
    // A connection per stream, as EventSource opens: none is left idle for the server's close to wait on.
    reset: true,
    headers: { cookie: session.cookie, accept: 'text/event-stream' },
  });
}

/** Resolves when the server ends the stream. */
async function ended(stream: Dispatcher.ResponseData): Promise<void> {
  await stream.body.text();
}

describe(`dashboard event streams (${ENGINE})`, () => {
  test(`a session may hold ${STREAMS_PER_SESSION} streams; the next is 429 with Retry-After, in any process`, async () => {
    const credentials = await owner();
    const session = await logIn(credentials);
    const streams = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) {
      const stream = await openStream(session);
      assert.equal(stream.statusCode, 200, `stream ${i + 1}`);
      streams.push(stream);
    }
    const refused = await openStream(session);
    assert.equal(refused.statusCode, 429);
    const problem = (await refused.body.json()) as { code: string; detail: string; retry_after: number };
    assert.equal(problem.code, 'rate_limited');
    assert.match(problem.detail, /live update streams open/);
    assert.equal(Number(refused.headers['retry-after']), problem.retry_after);

    // Another Parley process on the same database counts the same streams.
    const other = await createApp(server.config, { clock: server.clock, logger: false });
    try {
      const elsewhere = await other.server.inject({
        method: 'GET',
        url: '/api/dashboard/events',
        headers: { cookie: session.cookie },
      });
      assert.equal(elsewhere.statusCode, 429, elsewhere.body);
    } finally {
      await other.close();
    }

    // The bound is per session: the same person logged in elsewhere gets their own.
    const laptop = await logIn(credentials);
    const own = await openStream(laptop);
    assert.equal(own.statusCode, 200);

    // A closed tab gives its place back.
    streams.pop()!.body.destroy();
    let reopened = await openStream(session);
    for (let attempt = 0; reopened.statusCode === 429 && attempt < 100; attempt++) {
      await reopened.body.dump();
      await delay(20);
      reopened = await openStream(session);
    }
    assert.equal(reopened.statusCode, 200);
    for (const stream of [...streams, own, reopened]) stream.body.destroy();
  });

  // Before streams ended at logout, this waited forever: the timeout turns that into a failure.
  test('logging out ends the session’s open streams, and it cannot open another', { timeout: 60_000 }, async () => {
    const session = await logIn(await owner());
    const streams = [await openStream(session), await openStream(session)];
    for (const stream of streams) assert.equal(stream.statusCode, 200);
    const logout = await server.http.send('POST', '/api/dashboard/logout', {
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    assert.equal(logout.status, 200, logout.text);
    await Promise.all(streams.map(ended));
    const after = await openStream(session);
    assert.equal(after.statusCode, 401);
    await after.body.dump();
  });
});
