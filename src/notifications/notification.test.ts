import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, logInOverHttp, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();

interface Listed {
  notifications: {
    id: string;
    kind: string;
    contact: { id: string; name: string };
    actor: { id: string; name: string } | null;
    read_at: string | null;
  }[];
  unread: number;
}

const listOf = async (session: DashboardSession) => {
  const response = await session.send<Listed>('GET', '/api/dashboard/notifications');
  assert.equal(response.status, 200, response.text);
  return response.body;
};
/** A customer writing in on the workspace's simulator; returns the contact's id. */
const customerWrites = async (session: DashboardSession, phone: string, text = 'Hello') => {
  const body = { phone, text };
  const response = await session.send<{ contact_id: string }>('POST', '/api/v1/actions/simulate-inbound-message', body);
  assert.equal(response.status, 200, response.text);
  return response.body.contact_id;
};
const note = async (session: DashboardSession, contactId: string, body: string) => {
  const response = await session.send('POST', `/api/dashboard/conversations/${contactId}/notes`, { body });
  assert.equal(response.status, 200, response.text);
};
const assign = async (session: DashboardSession, contactId: string, userId: string | null) => {
  const body = { team_id: null, assignee_id: userId };
  const response = await session.send('PUT', `/api/v1/conversations/${contactId}/assignment`, body);
  assert.equal(response.status, 200, response.text);
};
const prefer = async (session: DashboardSession, preferences: object) => {
  const response = await session.send('PUT', '/api/dashboard/notification-preferences', preferences);
  assert.equal(response.status, 200, response.text);
};

describe(`notifications (${ENGINE})`, () => {
  test('mention › a note’s @name tells that teammate, naming the customer and the author; never the author', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const contactId = await customerWrites(owner, '+447911100001');
    await note(owner, contactId, `@mate can you call them back? cc @${owner.email.split('@')[0]}`);

    const listed = await listOf(mate);
    assert.equal(listed.unread, 1);
    assert.equal(listed.notifications[0]!.kind, 'mention');
    assert.deepEqual(listed.notifications[0]!.contact, { id: contactId, name: '+447911100001' });
    assert.equal(listed.notifications[0]!.actor?.id, owner.userId);
    assert.equal((await listOf(owner)).unread, 0);
  });

  test('mention › by email local part; a mention turned off in the dashboard lists nothing', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const contactId = await customerWrites(owner, '+447911100002');
    await note(owner, contactId, `ask @${mate.email.split('@')[0]}`);
    assert.equal((await listOf(mate)).unread, 1);

    await prefer(mate, { mention: { in_app: false, email: false } });
    await note(owner, contactId, '@Mate again');
    assert.equal((await listOf(mate)).unread, 1);
    const saved = await mate.send<{ preferences: Record<string, object>; email_enabled: boolean }>(
      'GET',
      '/api/dashboard/notification-preferences',
    );
    assert.deepEqual(saved.body.preferences.mention, { in_app: false, email: false });
    assert.deepEqual(saved.body.preferences.assignment, { in_app: true, email: true });
    assert.equal(saved.body.email_enabled, false);
  });

  test('assignment › the assignee is told when someone else assigns them, not when they take it', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const first = await customerWrites(owner, '+447911100003');
    const second = await customerWrites(owner, '+447911100004');
    await assign(owner, first, mate.userId);
    await assign(owner, first, mate.userId);
    await assign(mate, second, mate.userId);

    const listed = await listOf(mate);
    assert.deepEqual(
      listed.notifications.map((n) => [n.kind, n.contact.id]),
      [['assignment', first]],
    );
  });

  test('new conversation › off by default; on, the unassigned ones reach those who turned it on, an assigned one its assignee', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const other = await joinedTeammate(server, owner);
    await prefer(mate, { new_conversation: { in_app: true, email: false } });
    await prefer(other, { new_conversation: { in_app: true, email: false } });
    const contactId = await customerWrites(owner, '+447911100005');
    await customerWrites(owner, '+447911100005', 'still there?');
    assert.deepEqual(
      (await listOf(mate)).notifications.map((n) => [n.kind, n.contact.id]),
      [['new_conversation', contactId]],
    );
    assert.equal((await listOf(owner)).unread, 0);

    // Done, then the customer writes again: a new conversation, now the assignee's only.
    await assign(owner, contactId, other.userId);
    await owner.send('POST', `/api/dashboard/conversations/${contactId}/done`, { done: true });
    await customerWrites(owner, '+447911100005', 'one more thing');
    assert.equal((await listOf(mate)).notifications.length, 1);
    assert.deepEqual(
      (await listOf(other)).notifications.map((n) => n.kind),
      ['new_conversation', 'assignment', 'new_conversation'],
    );
  });

  test('new conversation › one a rule routes to a team reaches the opted-in members of that team only; one without a team, everyone opted in', async () => {
    const owner = await ownerSession(server);
    const [inA, inB, inNone] = [
      await joinedTeammate(server, owner),
      await joinedTeammate(server, owner),
      await joinedTeammate(server, owner),
    ];
    for (const mate of [inA, inB, inNone]) await prefer(mate, { new_conversation: { in_app: true, email: false } });
    const team = async (name: string, memberId: string) => {
      const body = { name, member_ids: [memberId] };
      const response = await owner.send<{ id: string }>('POST', '/api/v1/actions/create-team', body);
      assert.equal(response.status, 200, response.text);
      return response.body.id;
    };
    const teamA = await team('Billing', inA.userId);
    await team('Sales', inB.userId);
    const rules = [{ kind: 'keyword', value: 'invoice', team_id: teamA }];
    const routed = await owner.send('POST', '/api/v1/actions/update-routing-settings', { rules });
    assert.equal(routed.status, 200, routed.text);

    const billing = await customerWrites(owner, '+447911100031', 'About my invoice');
    const kindsOf = async (mate: DashboardSession) =>
      (await listOf(mate)).notifications.map((n) => [n.kind, n.contact.id]);
    assert.deepEqual(await kindsOf(inA), [['new_conversation', billing]]);
    assert.deepEqual(await kindsOf(inB), []);
    assert.deepEqual(await kindsOf(inNone), []);

    const general = await customerWrites(owner, '+447911100032', 'Hello');
    assert.deepEqual(await kindsOf(inA), [
      ['new_conversation', general],
      ['new_conversation', billing],
    ]);
    assert.deepEqual(await kindsOf(inB), [['new_conversation', general]]);
    assert.deepEqual(await kindsOf(inNone), [['new_conversation', general]]);
  });

  test('mark read › one, then all; another person’s ids change nothing; the count follows', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const contactId = await customerWrites(owner, '+447911100006');
    await note(owner, contactId, '@Mate one');
    await note(owner, contactId, '@Mate two');
    await note(owner, contactId, '@Mate three');
    const [newest] = (await listOf(mate)).notifications;

    const byOwner = await owner.send<{ marked: number }>('POST', '/api/dashboard/notifications/read', {
      ids: [newest!.id],
    });
    assert.equal(byOwner.body.marked, 0);
    const one = await mate.send<{ marked: number; unread: number }>('POST', '/api/dashboard/notifications/read', {
      ids: [newest!.id],
    });
    assert.deepEqual(one.body, { marked: 1, unread: 2 });
    const all = await mate.send<{ marked: number; unread: number }>('POST', '/api/dashboard/notifications/read', {
      all: true,
    });
    assert.deepEqual(all.body, { marked: 2, unread: 0 });
    const unread = await mate.send<{ unread: number }>('GET', '/api/dashboard/notifications/unread');
    assert.equal(unread.body.unread, 0);
    assert.ok((await listOf(mate)).notifications.every((n) => n.read_at !== null));

    const empty = await mate.send<{ code: string }>('POST', '/api/dashboard/notifications/read', {});
    assert.equal(empty.status, 400);
  });

  test('workspaces › a mention names only the workspace’s own members; other workspaces see nothing', async () => {
    const owner = await ownerSession(server);
    const stranger = await ownerSession(server);
    await joinedTeammate(server, stranger);
    const contactId = await customerWrites(owner, '+447911100007');
    await note(owner, contactId, '@Mate hello');
    assert.equal((await listOf(stranger)).unread, 0);
  });

  test('roles › a marketer, who cannot open conversations, is not told of them and may not list them', async () => {
    const owner = await ownerSession(server);
    const email = `marketer-${Date.now()}@example.com`;
    const invite = await owner.send<{ token: string }>('POST', '/api/dashboard/invites', { email, role: 'marketer' });
    assert.equal(invite.status, 200, invite.text);
    const accept = { token: invite.body.token, name: 'Mark', password: 'a marketer password' };
    assert.equal((await server.http.send('POST', '/api/dashboard/invites/accept', { body: accept })).status, 200);
    const marketer = await logInOverHttp(server, { email, password: accept.password });
    const contactId = await customerWrites(owner, '+447911100008');
    await note(owner, contactId, '@Mark look');
    const refused = await marketer.send<{ code: string }>('GET', '/api/dashboard/notifications');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'permission_denied');
    const rows = await server.app.services.deps.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', marketer.userId)
      .execute();
    assert.equal(rows.length, 0);
  });

  test('without SMTP › an invitation says it was not emailed and a reset cannot be emailed (409)', async () => {
    const owner = await ownerSession(server);
    const invite = await owner.send<{ emailed: boolean }>('POST', '/api/dashboard/invites', {
      email: `nomail-${Date.now()}@example.com`,
      role: 'member',
    });
    assert.equal(invite.body.emailed, false);
    const reset = await server.http.send<{ code: string }>('POST', '/api/dashboard/password-reset/request', {
      body: { email: owner.email },
    });
    assert.equal(reset.status, 409);
  });
});
