import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer, type HttpResponse } from '../../test/server.js';
import type { Team } from '../routing/routing.schema.js';
import type { Conversation } from './conversation.schema.js';

const server = await startServer({ PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' });
const { services } = server.app;
const HOUR = 3_600_000;

interface Problem {
  code: string;
  errors: { field: string; message: string; code?: string }[];
}
interface Page {
  data: Conversation[];
  next_cursor: string | null;
}

/** A webhook receiver on loopback: it keeps every body it gets. */
const received: { type: string; data: Record<string, unknown> }[] = [];
const receiver = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    received.push(JSON.parse(raw) as (typeof received)[number]);
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
after(() => receiver.close());
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

const phone = () => `+1415${randomInt(2_000_000, 9_999_999)}`;
const send = <T>(
  ws: TestWorkspace,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  headers = {},
) => server.http.send<T>(method, `/api/v1${path}`, { token: ws.token, body, headers });
/** A customer writes to the workspace's simulated number: their conversation opens. */
async function customerWrites(ws: TestWorkspace, from = phone(), text = 'hello'): Promise<string> {
  const message = await services.inbound.simulateInbound({ workspaceId: ws.workspaceId }, { from, text });
  return message.contact_id;
}

const ok = <T>(response: HttpResponse<T>, status = 200): T => {
  assert.equal(response.status, status, response.text);
  return response.body;
};
const list = async (ws: TestWorkspace, query = '') =>
  ok(await send<Conversation[]>(ws, 'GET', `/conversations${query ? `?${query}` : ''}`)).map((c) => c.contact_id);
const statusOf = async (ws: TestWorkspace, contactId: string) =>
  ok(await send<Conversation>(ws, 'GET', `/conversations/${contactId}`)).status;

describe(`conversations API (${ENGINE})`, () => {
  test('labels, priority and filters; cursor pages; other workspaces see nothing', async () => {
    const ws = await createWorkspace(server);
    const refund = ok(
      await send<{ id: string }>(ws, 'POST', '/conversation-labels', { name: 'Refund', colour: '#CC0000' }),
      201,
    );
    ok(await send(ws, 'POST', '/conversation-labels', { name: 'VIP' }), 201);
    const taken = await send<Problem>(ws, 'POST', '/conversation-labels', { name: 'refund' });
    assert.equal(taken.status, 409);
    const [a, b, c] = [await customerWrites(ws), await customerWrites(ws), await customerWrites(ws)];

    const labelled = ok(
      await send<Conversation>(ws, 'PUT', `/conversations/${a}/labels`, { labels: ['refund', 'VIP'] }),
    );
    assert.deepEqual(
      labelled.labels.map((l) => [l.name, l.colour]),
      [
        ['Refund', '#cc0000'],
        ['VIP', '#6b7280'],
      ],
    );
    ok(await send(ws, 'PUT', `/conversations/${b}/priority`, { priority: 'urgent' }));
    assert.deepEqual(await list(ws, 'label=REFUND'), [a]);
    assert.deepEqual(await list(ws, 'priority=urgent'), [b]);
    assert.deepEqual(await list(ws, 'assignee_id=none'), [c, b, a]);

    const first = ok(await send<Page>(ws, 'GET', '/conversations?paginate=cursor&limit=2'));
    assert.deepEqual(
      first.data.map((x) => x.contact_id),
      [c, b],
    );
    const second = ok(
      await send<Page>(ws, 'GET', `/conversations?paginate=cursor&limit=2&cursor=${first.next_cursor}`),
    );
    assert.deepEqual([second.data.map((x) => x.contact_id), second.next_cursor], [[a], null]);
    // A cursor is good only for the filters it was issued with.
    const mixed = await send<Problem>(
      ws,
      'GET',
      `/conversations?paginate=cursor&priority=low&cursor=${first.next_cursor}`,
    );
    assert.equal(mixed.body.code, 'invalid_cursor');

    const renamed = await send<{ name: string }>(ws, 'PATCH', `/conversation-labels/${refund.id}`, { name: 'Refunds' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(await list(ws, 'label=refunds'), [a]);

    const other = await createWorkspace(server);
    assert.deepEqual(await list(other), []);
    assert.equal((await send(other, 'GET', `/conversations/${a}`)).status, 404);
    assert.equal((await send(other, 'POST', `/conversations/${a}/close`)).status, 404);
    assert.equal((await send(other, 'DELETE', `/conversation-labels/${refund.id}`)).status, 404);
    const foreign = await send<Problem>(other, 'POST', '/conversations/bulk', { action: 'close', contact_ids: [a] });
    assert.equal(foreign.status, 404);
    assert.equal(await statusOf(ws, a), 'open');

    ok(await send(ws, 'DELETE', `/conversation-labels/${refund.id}`));
    assert.deepEqual(
      ok(await send<Conversation>(ws, 'GET', `/conversations/${a}`)).labels.map((l) => l.name),
      ['VIP'],
    );
  });

  test('bad input is a 4xx naming the field', async () => {
    const ws = await createWorkspace(server);
    const contact = await customerWrites(ws);
    // Parley's own rules answer with a code; the request schema's problems have none.
    for (const [method, path, body, field, code] of [
      ['GET', '/conversations?status=everything', undefined, 'status', undefined],
      ['GET', '/conversations?label=nosuch', undefined, 'label', 'inbox.unknown_label'],
      ['GET', '/conversations/not-an-id', undefined, 'contact_id', undefined],
      ['PUT', `/conversations/${contact}/priority`, { priority: 'asap' }, 'priority', undefined],
      ['PUT', `/conversations/${contact}/labels`, { labels: ['unknown'] }, 'labels', 'inbox.unknown_label'],
      ['POST', `/conversations/${contact}/snooze`, { until: '2020-01-01T00:00:00Z' }, 'until', 'inbox.snooze_in_past'],
      ['POST', `/conversations/${contact}/notes`, { body: '' }, 'body', undefined],
      ['POST', `/conversations/${contact}/notes`, { body: '  ' }, 'body', 'inbox.note_empty'],
      ['POST', '/conversations/bulk', { action: 'close' }, 'contact_ids', 'inbox.conversations_unnamed'],
      [
        'POST',
        '/conversations/bulk',
        { action: 'assign', contact_ids: [contact] },
        'user_id',
        'conversations.required_for_action',
      ],
      ['POST', '/conversation-labels', { name: 'x', colour: 'red' }, 'colour', undefined],
    ] as const) {
      const response = await send<Problem>(ws, method, path, body);
      assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status} ${response.text}`);
      assert.equal(response.body.errors[0]?.field, field, `${path}: ${response.text}`);
      assert.equal(response.body.errors[0]?.code, code, `${path}: ${response.text}`);
    }
  });

  test('close, reopen, notes and a bulk close of every conversation a filter matches, replayed by its Idempotency-Key', async () => {
    const ws = await createWorkspace(server);
    ok(await send(ws, 'POST', '/conversation-labels', { name: 'Campaign reply' }), 201);
    const replies = [];
    for (let i = 0; i < 60; i++) replies.push(await customerWrites(ws));
    const other = await customerWrites(ws);
    ok(
      await send(ws, 'POST', '/conversations/bulk', {
        action: 'label',
        contact_ids: replies,
        labels: ['campaign reply'],
      }),
    );
    const note = await send<{ id: string }>(ws, 'POST', `/conversations/${other}/notes`, { body: 'Called back' });
    assert.equal(note.status, 200, note.text);

    const close = { action: 'close', filter: { label: 'Campaign reply' } };
    const key = { 'idempotency-key': 'close-campaign-replies' };
    const closed = ok(await send(ws, 'POST', '/conversations/bulk', close, key));
    assert.deepEqual(closed, { action: 'close', matched: 60, changed: 60 });
    const replay = await send(ws, 'POST', '/conversations/bulk', close, key);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.body, closed);
    assert.deepEqual(await list(ws), [other]);
    const closedPage = ok(await send<Page>(ws, 'GET', '/conversations?status=closed&paginate=cursor&limit=100'));
    assert.equal(closedPage.data.length, 60);

    ok(await send(ws, 'POST', `/conversations/${replies[0]}/reopen`));
    assert.equal(await statusOf(ws, replies[0]!), 'open');
    const again = ok(await send<Conversation>(ws, 'POST', `/conversations/${other}/close`));
    assert.equal(again.status, 'closed');
    // The customer writing reopens a closed conversation.
    await services.inbound.simulateInbound(
      { workspaceId: ws.workspaceId },
      { from: again.contact.phone, text: 'one more thing' },
    );
    assert.equal(await statusOf(ws, other), 'open');
    // Assigning in bulk takes a member of the workspace.
    const assigned = ok(
      await send(ws, 'POST', '/conversations/bulk', { action: 'assign', contact_ids: [other], user_id: ws.userId }),
    );
    assert.deepEqual(assigned, { action: 'assign', matched: 1, changed: 1 });
    assert.deepEqual(await list(ws, `assignee_id=${ws.userId}`), [other]);
  });

  test('a snooze ends when its time comes (a scheduled job) or when the customer writes; each move is a webhook event', async () => {
    const ws = await createWorkspace(server);
    ok(
      await ws.action('create-webhook', {
        url: `${receiverUrl}/${ws.workspaceId}`,
        events: ['conversation-status-changed'],
      }),
    );
    const timed = await customerWrites(ws);
    const untilReply = await customerWrites(ws);
    const until = new Date(server.clock.now().getTime() + 2 * HOUR).toISOString();
    const snoozed = ok(await send<Conversation>(ws, 'POST', `/conversations/${timed}/snooze`, { until }));
    assert.equal(snoozed.status, 'snoozed');
    assert.equal(snoozed.snoozed_until, until.replace('Z', '+00:00'));
    ok(await send(ws, 'POST', `/conversations/${untilReply}/snooze`, { until: null }));
    assert.deepEqual(await list(ws), []);
    assert.deepEqual(await list(ws, 'status=snoozed'), [untilReply, timed]);

    await services.scheduler.runDue();
    assert.equal(await statusOf(ws, timed), 'snoozed');
    server.clock.advance(2 * HOUR);
    await services.scheduler.runDue();
    assert.equal(await statusOf(ws, timed), 'open');

    const phoneOf = ok(await send<Conversation>(ws, 'GET', `/conversations/${untilReply}`)).contact.phone;
    await services.inbound.simulateInbound({ workspaceId: ws.workspaceId }, { from: phoneOf, text: 'back again' });
    assert.equal(await statusOf(ws, untilReply), 'open');

    services.webhookWorker.wake();
    await services.webhookWorker.idle();
    const changes = received
      .filter((body) => body.type === 'conversation-status-changed')
      .map((body) => [body.data.contact_id, body.data.change, body.data.status]);
    assert.deepEqual(
      changes.filter(([id]) => id === timed || id === untilReply),
      [
        [timed, 'opened', 'open'],
        [untilReply, 'opened', 'open'],
        [timed, 'snoozed', 'snoozed'],
        [untilReply, 'snoozed', 'snoozed'],
        [timed, 'unsnoozed', 'open'],
        [untilReply, 'unsnoozed', 'open'],
      ],
    );
  });
  test('bulk assign is the one assignment rule: a person who handles conversations, in each conversation’s team; conversation-assigned events', async () => {
    const owner = await ownerSession(server);
    const ws = await ownerApi(server, owner);
    ok(
      await ws.action('create-webhook', { url: `${receiverUrl}/${ws.workspaceId}`, events: ['conversation-assigned'] }),
    );
    const [ana, bob, marketer] = [
      await joinedTeammate(server, owner, 'agent'),
      await joinedTeammate(server, owner, 'agent'),
      await joinedTeammate(server, owner, 'marketer'),
    ];
    const sales = ok(await ws.action<Team>('create-team', { name: 'Sales', member_ids: [ana.userId] }));
    const [inSales, noTeam] = [await customerWrites(ws), await customerWrites(ws)];
    ok(await send(ws, 'PUT', `/conversations/${inSales}/assignment`, { team_id: sales.id, assignee_id: null }));
    const bulkAssign = (userId: string | null) =>
      send<Problem>(ws, 'POST', '/conversations/bulk', {
        action: 'assign',
        contact_ids: [inSales, noTeam],
        user_id: userId,
      });

    const refusedRole = ok(await bulkAssign(marketer.userId), 400);
    assert.equal(refusedRole.errors[0]?.field, 'user_id');
    assert.match(refusedRole.errors[0].message, /marketer/);
    const notInTeam = ok(await bulkAssign(bob.userId), 400);
    assert.equal(notInTeam.errors[0]?.field, 'user_id');
    assert.match(notInTeam.errors[0].message, /not a member of the team Sales/);
    assert.deepEqual(await list(ws, 'assignee_id=none'), [noTeam, inSales], 'a refusal changes nothing');

    assert.deepEqual(ok(await bulkAssign(ana.userId)), { action: 'assign', matched: 2, changed: 2 });
    const assignmentOf = async (contactId: string) =>
      ok(await send<Conversation>(ws, 'GET', `/conversations/${contactId}`));
    assert.equal((await assignmentOf(inSales)).assignee_id, ana.userId);
    assert.equal((await assignmentOf(noTeam)).assignee_id, ana.userId);

    services.webhookWorker.wake();
    await services.webhookWorker.idle();
    const events = received
      .filter((body) => body.type === 'conversation-assigned')
      .map(
        (body) => body.data as { contact_id: string; team: { name: string } | null; assignee: { id: string } | null },
      )
      .filter((data) => data.assignee?.id === ana.userId)
      .map((data) => [data.contact_id, data.team?.name ?? null]);
    assert.deepEqual(
      events.sort(),
      [
        [inSales, 'Sales'],
        [noTeam, null],
      ].sort(),
      'each keeps its team',
    );
    const told = ok(await ana.send<{ notifications: { kind: string }[] }>('GET', '/api/dashboard/notifications'));
    assert.deepEqual(
      told.notifications.map((n) => n.kind),
      ['assignment', 'assignment'],
    );
  });
});
