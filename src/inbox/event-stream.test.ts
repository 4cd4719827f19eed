import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { Agent, request, type Dispatcher } from 'undici';
import { logInOverHttp, ownerSession, joinedTeammate, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';
import { createApp } from '../app.js';
import { SESSION_COOKIE } from '../http/session-auth.js';
import { hashOfSecret } from '../shared/secret-token.js';
import { HEARTBEAT_MS, STREAMS_PER_SESSION } from './event-streams.js';

const server = await startServer();
const agent = new Agent({ connect: { ca: server.app.tls?.cert ?? '' } });
after(() => agent.destroy());

/** Opens GET /api/dashboard/events; the answer arrives with the headers, the body streams on. */
function openStream(session: DashboardSession): Promise<Dispatcher.ResponseData> {
  return request(`${server.baseUrl}/api/dashboard/events`, {
    dispatcher: agent,
    // A connection per stream, as EventSource opens: none is left idle for the server's close to wait on.
    reset: true,
    headers: { cookie: sessionCookie(session), accept: 'text/event-stream' },
  });
}

const sessionCookie = (session: DashboardSession) => `${SESSION_COOKIE}=${session.cookie}`;

/** Resolves when the server ends the stream. */
async function ended(stream: Dispatcher.ResponseData): Promise<void> {
  await stream.body.text();
}

describe(`dashboard event streams (${ENGINE})`, () => {
  test(`a session may hold ${STREAMS_PER_SESSION} streams; the next is 429 with Retry-After, in any process`, async () => {
    const session = await ownerSession(server);
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
        headers: { cookie: sessionCookie(session) },
      });
      assert.equal(elsewhere.statusCode, 429, elsewhere.body);
    } finally {
      await other.close();
    }

    // The bound is per session: the same person logged in elsewhere gets their own.
    const laptop = await logInOverHttp(server, session);
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
    const session = await ownerSession(server);
    const streams = [await openStream(session), await openStream(session)];
    for (const stream of streams) assert.equal(stream.statusCode, 200);
    const logout = await session.send('POST', '/api/dashboard/logout');
    assert.equal(logout.status, 200, logout.text);
    await Promise.all(streams.map(ended));
    const after = await openStream(session);
    assert.equal(after.statusCode, 401);
    await after.body.dump();
  });

  // The heartbeat would end them anyway; at once means well before it.
  test(
    'removing a member, or a password change elsewhere, ends their open streams at once',
    { timeout: HEARTBEAT_MS / 2 },
    async () => {
      const owner = await ownerSession(server);
      const member = await joinedTeammate(server, owner);
      const removedMembers = await openStream(member);
      const ownersOtherTab = await openStream(await logInOverHttp(server, owner));
      assert.equal(removedMembers.statusCode, 200);
      assert.equal(ownersOtherTab.statusCode, 200);

      const removal = await owner.send('DELETE', `/api/dashboard/team/${member.userId}`);
      assert.equal(removal.status, 200, removal.text);
      await ended(removedMembers);

      const newPassword = 'another correct horse battery';
      const change = await owner.send('PUT', '/api/dashboard/password', {
        current_password: owner.password,
        new_password: newPassword,
      });
      assert.equal(change.status, 200, change.text);
      await ended(ownersOtherTab);
    },
  );

  test(
    'a member made marketer has their streams ended at once and cannot open another (403): conversations are not theirs',
    { timeout: HEARTBEAT_MS / 2 },
    async () => {
      const owner = await ownerSession(server);
      const member = await joinedTeammate(server, owner);
      const stream = await openStream(member);
      assert.equal(stream.statusCode, 200);
      const lowered = await owner.send('PUT', `/api/dashboard/team/${member.userId}`, { role: 'marketer' });
      assert.equal(lowered.status, 200, lowered.text);
      await ended(stream);
      const again = await openStream(member);
      assert.equal(again.statusCode, 403);
      assert.equal(((await again.body.json()) as { code: string }).code, 'permission_denied');
    },
  );

  test('a stream of another process ends at its heartbeat once its user’s role has lost the inbox', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    const { eventStreams } = server.app.services;
    // As another process holds it: only its heartbeat (touch) can notice the change.
    const streamId = await eventStreams.open(hashOfSecret(member.cookie));
    assert.equal(await eventStreams.touch(streamId), true);
    const lowered = await owner.send('PUT', `/api/dashboard/team/${member.userId}`, { role: 'agent' });
    assert.equal(lowered.status, 200, lowered.text);
    assert.equal(await eventStreams.touch(streamId), true, 'an agent keeps the inbox');
    await owner.send('PUT', `/api/dashboard/team/${member.userId}`, { role: 'marketer' });
    assert.equal(await eventStreams.touch(streamId), false);
  });
});
