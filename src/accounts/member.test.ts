import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  inviteOverHttp,
  joinedTeammate,
  logInOverHttp,
  ownerSession,
  type DashboardSession,
} from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();

interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}
interface Member {
  id: string;
  email: string;
  role: string;
}

const team = async (session: DashboardSession) =>
  (await session.send<Member[]>('GET', '/api/dashboard/team')).body.map((m) => [m.email, m.role]);

/** A token the session's user creates in Settings → API Tokens. */
async function tokenOf(session: DashboardSession, name = 'zap'): Promise<{ id: string; token: string }> {
  const issued = await session.send<{ id: string; token: string }>('POST', '/api/dashboard/tokens', { name });
  assert.equal(issued.status, 200, issued.text);
  return issued.body;
}

const me = (token: string) => server.http.send<{ user: { id: string } }>('GET', '/api/v1/me', { token });

describe(`team: members and roles (${ENGINE})`, () => {
  test('remove-member › the removed member’s session is refused and their API tokens get 401', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    const { token } = await tokenOf(member);
    assert.equal((await me(token)).status, 200);

    const removed = await owner.send('DELETE', `/api/dashboard/team/${member.userId}`);
    assert.equal(removed.status, 200, removed.text);

    assert.equal((await member.send('GET', '/api/dashboard/tokens')).status, 401, 'the session has ended');
    const session = await member.send<{ user: unknown }>('GET', '/api/dashboard/session');
    assert.equal(session.body.user, null);
    const tokenAnswer = await me(token);
    assert.deepEqual([tokenAnswer.status, (tokenAnswer.body as unknown as Problem).code], [401, 'unauthorized']);
    const login = await server.http.send('POST', '/api/dashboard/login', {
      body: { email: member.email, password: member.password },
    });
    assert.equal(login.status, 401, 'they cannot log in again');
    assert.deepEqual(await team(owner), [[owner.email, 'owner']]);
  });

  test('remove-member › a member may not remove anyone, change a role or see invitations (403)', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    const other = await joinedTeammate(server, owner);
    for (const [method, path, body] of [
      ['DELETE', `/api/dashboard/team/${other.userId}`, undefined],
      ['PUT', `/api/dashboard/team/${member.userId}`, { role: 'owner' }],
      ['GET', '/api/dashboard/invites', undefined],
      ['POST', '/api/dashboard/invites', { email: 'x@example.com', role: 'member' }],
    ] as const) {
      const answer = await member.send<Problem>(method, path, body);
      assert.deepEqual([answer.status, answer.body.code], [403, 'permission_denied'], `${method} ${path}`);
    }
    assert.deepEqual(await team(owner), [
      [owner.email, 'owner'],
      [member.email, 'member'],
      [other.email, 'member'],
    ]);
  });

  test('remove-member › another workspace’s user or an unknown id is not found, and a bad id is a 400', async () => {
    const owner = await ownerSession(server);
    const stranger = await ownerSession(server);
    for (const id of [stranger.userId, randomUUID()]) {
      const answer = await owner.send<Problem>('DELETE', `/api/dashboard/team/${id}`);
      assert.deepEqual([answer.status, answer.body.code], [404, 'not_found']);
    }
    const bad = await owner.send<Problem>('DELETE', '/api/dashboard/team/not-an-id');
    assert.deepEqual([bad.status, bad.body.code], [400, 'validation_failed']);
    assert.deepEqual(await team(stranger), [[stranger.email, 'owner']]);
  });

  test('last owner › can be neither removed nor demoted (409); once another is owner, it can', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PUT', { role: 'member' }],
    ] as const) {
      const answer = await owner.send<Problem>(method, `/api/dashboard/team/${owner.userId}`, body);
      assert.deepEqual([answer.status, answer.body.code], [409, 'conflict']);
      assert.match(answer.body.detail, /at least one owner/);
    }
    const promoted = await owner.send('PUT', `/api/dashboard/team/${member.userId}`, { role: 'owner' });
    assert.deepEqual(promoted.body, { id: member.userId, role: 'owner' });
    // The promotion applies to the member's open session at once.
    assert.equal((await member.send('GET', '/api/dashboard/invites')).status, 200);
    const demoted = await member.send('PUT', `/api/dashboard/team/${owner.userId}`, { role: 'member' });
    assert.equal(demoted.status, 200, demoted.text);
    assert.deepEqual(await team(member), [
      [owner.email, 'member'],
      [member.email, 'owner'],
    ]);
  });

  test('last owner › two owners demoting each other at once leave one owner', async () => {
    const first = await ownerSession(server);
    const second = await joinedTeammate(server, first, 'owner');
    const answers = await Promise.all([
      first.send('PUT', `/api/dashboard/team/${second.userId}`, { role: 'member' }),
      second.send('PUT', `/api/dashboard/team/${first.userId}`, { role: 'member' }),
    ]);
    // The later one finds itself no longer an owner (403) or the other the last one (409).
    const [won, lost] = answers.map((a) => a.status).sort();
    assert.equal(won, 200);
    assert.ok(lost === 403 || lost === 409, `refused, not ${lost}`);
    const roles = (await team(first)).map(([, role]) => role);
    assert.deepEqual(roles.sort(), ['member', 'owner']);
  });

  test('invitations › pending ones are listed without their token; a revoked one’s link stops working', async () => {
    const owner = await ownerSession(server);
    const invite = await inviteOverHttp(owner, 'pending@example.com');
    const pending = await owner.send<Record<string, unknown>[]>('GET', '/api/dashboard/invites');
    assert.deepEqual(
      pending.body.map((i) => [i.id, i.email, i.role]),
      [[invite.id, 'pending@example.com', 'member']],
    );
    assert.ok(!pending.text.includes(invite.token), 'the token is shown once, when created');

    const revoked = await owner.send('DELETE', `/api/dashboard/invites/${invite.id}`);
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal((await server.http.send('GET', `/api/dashboard/invites/${invite.token}`)).status, 404);
    const accept = await server.http.send<Problem>('POST', '/api/dashboard/invites/accept', {
      body: { token: invite.token, name: 'Late', password: 'a teammate password' },
    });
    assert.equal(accept.status, 404);
    assert.deepEqual((await owner.send('GET', '/api/dashboard/invites')).body, []);
    const again = await owner.send<Problem>('DELETE', `/api/dashboard/invites/${invite.id}`);
    assert.equal(again.status, 404);
  });

  test('invitations › another workspace cannot revoke them', async () => {
    const owner = await ownerSession(server);
    const stranger = await ownerSession(server);
    const invite = await inviteOverHttp(owner, 'kept@example.com');
    assert.equal((await stranger.send('DELETE', `/api/dashboard/invites/${invite.id}`)).status, 404);
    assert.equal((await owner.send<unknown[]>('GET', '/api/dashboard/invites')).body.length, 1);
  });

  test('one email, one user › inviting an email used in another workspace is a 409 that reveals nothing of it', async () => {
    const secretName = `Hidden ${randomUUID()}`;
    const elsewhere = await ownerSession(server, secretName);
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    for (const email of [elsewhere.email, elsewhere.email.toUpperCase(), member.email]) {
      const answer = await owner.send<Problem>('POST', '/api/dashboard/invites', { email, role: 'member' });
      assert.deepEqual([answer.status, answer.body.code], [409, 'conflict'], email);
      assert.deepEqual(
        answer.body.errors,
        [
          email === member.email
            ? { field: 'email', message: 'is already a member of this workspace', code: 'accounts.already_member' }
            : {
                field: 'email',
                message: 'already has a Parley account, so it cannot be invited',
                code: 'accounts.has_account',
              },
        ],
        email,
      );
      for (const secret of [secretName, elsewhere.userId, elsewhere.workspaceId]) {
        assert.ok(!answer.text.includes(secret), `the answer names nothing of the other workspace: ${answer.text}`);
      }
    }
    assert.deepEqual((await owner.send('GET', '/api/dashboard/invites')).body, []);
  });

  test('invitations › inviting a pending email again renews it: one invitation, the new link; joining leaves none', async () => {
    const owner = await ownerSession(server);
    const email = `again-${randomUUID()}@example.com`;
    const first = await inviteOverHttp(owner, email);
    const second = await owner.send<{ id: string; token: string; role: string; renewed: boolean }>(
      'POST',
      '/api/dashboard/invites',
      { email: email.toUpperCase(), role: 'owner' },
    );
    assert.equal(second.status, 200, second.text);
    assert.deepEqual([second.body.role, second.body.renewed], ['owner', true]);
    const pending = await owner.send<{ id: string; email: string }[]>('GET', '/api/dashboard/invites');
    assert.deepEqual(
      pending.body.map((i) => [i.id, i.email]),
      [[second.body.id, email]],
    );
    assert.equal((await server.http.send('GET', `/api/dashboard/invites/${first.token}`)).status, 404, 'old link');

    const joined = await server.http.send('POST', '/api/dashboard/invites/accept', {
      body: { token: second.body.token, name: 'Again', password: 'a teammate password' },
    });
    assert.equal(joined.status, 200, joined.text);
    assert.deepEqual((await owner.send('GET', '/api/dashboard/invites')).body, [], 'nothing stays pending');
    const member = await owner.send<Problem>('POST', '/api/dashboard/invites', { email, role: 'member' });
    assert.deepEqual(
      [member.status, member.body.errors],
      [409, [{ field: 'email', message: 'is already a member of this workspace', code: 'accounts.already_member' }]],
    );
  });

  test('invitations › one link used twice at once makes one teammate; the other use is a clean 409', async () => {
    const owner = await ownerSession(server);
    const { token } = await inviteOverHttp(owner, `race-${randomUUID()}@example.com`);
    const answers = await Promise.all(
      ['Ann', 'Bea'].map((name) =>
        server.http.send<Problem>('POST', '/api/dashboard/invites/accept', {
          body: { token, name, password: `${name} has a password` },
        }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    assert.equal(refused.body.code, 'conflict');
    assert.match(refused.body.detail, /already been used/);
    assert.equal((await team(owner)).length, 2, 'the owner and one teammate');
  });

  test('one email, one user › a second acceptance is a clean 409, whichever invitation it is', async () => {
    const first = await ownerSession(server);
    const second = await ownerSession(server);
    const email = `twice-${randomUUID()}@example.com`;
    const inviteA = await inviteOverHttp(first, email);
    const inviteB = await inviteOverHttp(second, email);
    const accept = (token: string) =>
      server.http.send<Problem>('POST', '/api/dashboard/invites/accept', {
        body: { token, name: 'Twice', password: 'a teammate password' },
      });
    assert.equal((await accept(inviteA.token)).status, 200);

    const sameAgain = await accept(inviteA.token);
    assert.deepEqual([sameAgain.status, sameAgain.body.code], [409, 'conflict']);
    assert.match(sameAgain.body.detail, /already been used/);
    const opened = await server.http.send<Problem>('GET', `/api/dashboard/invites/${inviteA.token}`);
    assert.equal(opened.status, 409);

    const other = await accept(inviteB.token);
    assert.deepEqual([other.status, other.body.code], [409, 'conflict']);
    assert.match(other.body.detail, /already has a Parley account/);
    assert.deepEqual(await team(second), [[second.email, 'owner']], 'nobody joined the second workspace');
    const open = await server.http.send('GET', `/api/dashboard/invites/${inviteB.token}`);
    assert.equal(open.status, 200, 'the refused acceptance did not use up the invitation');
  });

  test('tokens › a member’s token is their own; they revoke only their own, an owner any', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    const ownersToken = await tokenOf(owner, 'owner’s');
    const membersToken = await tokenOf(member, 'member’s');
    assert.equal((await me(membersToken.token)).body.user.id, member.userId);

    const refused = await member.send<Problem>('DELETE', `/api/dashboard/tokens/${ownersToken.id}`);
    assert.deepEqual([refused.status, refused.body.code], [403, 'permission_denied']);
    assert.equal((await me(ownersToken.token)).status, 200, 'still works');

    assert.equal((await member.send('DELETE', `/api/dashboard/tokens/${membersToken.id}`)).status, 200);
    assert.equal((await me(membersToken.token)).status, 401);

    const anotherOfMember = await tokenOf(member, 'second');
    assert.equal((await owner.send('DELETE', `/api/dashboard/tokens/${anotherOfMember.id}`)).status, 200);
    assert.equal((await me(anotherOfMember.token)).status, 401);
  });

  test('roles › the session lists what the user’s role may do', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    type Session = { user: { role: string; permissions: string[] } };
    const ownerView = (await owner.send<Session>('GET', '/api/dashboard/session')).body.user;
    const memberView = (await member.send<Session>('GET', '/api/dashboard/session')).body.user;
    assert.ok(ownerView.permissions.includes('manage_owners') && ownerView.permissions.includes('manage_channel'));
    assert.equal(memberView.role, 'member');
    assert.ok(memberView.permissions.includes('conversations') && !memberView.permissions.includes('manage_workspace'));
    const workspace = await member.send<Problem>('PUT', '/api/dashboard/workspace', { name: 'Mine now' });
    assert.deepEqual([workspace.status, workspace.body.code], [403, 'permission_denied']);
  });
});

describe(`own password (${ENGINE})`, () => {
  test('change-password › needs the current password and a long enough new one; other sessions end', async () => {
    const owner = await ownerSession(server);
    const elsewhere = await logInOverHttp(server, owner);
    const change = (current_password: string, new_password: string) =>
      owner.send<Problem>('PUT', '/api/dashboard/password', { current_password, new_password });

    const wrong = await change('not my password', 'a brand new passphrase');
    assert.deepEqual(
      [wrong.status, wrong.body.errors],
      [
        400,
        [
          {
            field: 'current_password',
            message: 'is not your current password',
            code: 'accounts.not_current_password',
          },
        ],
      ],
    );
    const short = await change(owner.password, 'short');
    assert.deepEqual(
      [short.status, short.body.errors],
      [
        400,
        [
          {
            field: 'new_password',
            message: 'must be at least 12 characters',
            code: 'workspaces.password_too_short',
            params: { min: 12 },
          },
        ],
      ],
    );
    assert.equal((await elsewhere.send('GET', '/api/dashboard/tokens')).status, 200, 'refusals change nothing');

    assert.equal((await change(owner.password, 'a brand new passphrase')).status, 200);
    assert.equal((await owner.send('GET', '/api/dashboard/tokens')).status, 200, 'this session stays');
    assert.equal((await elsewhere.send('GET', '/api/dashboard/tokens')).status, 401, 'the others end');
    const login = (password: string) =>
      server.http.send('POST', '/api/dashboard/login', { body: { email: owner.email, password } });
    assert.equal((await login(owner.password)).status, 401);
    assert.equal((await login('a brand new passphrase')).status, 200);
  });
});
