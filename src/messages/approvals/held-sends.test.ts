/**
 * Agent tokens in approval mode (decision 0160): their sends to customers are held, through REST and MCP,
 * until a member approves (possibly with their own text), rejects, or the token's timeout expires them;
 * an approved send goes out once through the one outbound path, as the token's message.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch, request } from 'undici';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../../test/dashboard-session.js';
import { asClient, createTemplate, type TestWorkspace } from '../../../test/factories.js';
import { ENGINE, startServer } from '../../../test/server.js';
import { createApp } from '../../app.js';
import { SESSION_COOKIE } from '../../http/session-auth.js';
import type { Message } from '../message.schema.js';
import type { HeldSend, PendingSend } from './held-send.schema.js';

const server = await startServer({ PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' });
const tls = new Agent({ connect: { ca: server.app.tls!.cert } });
after(() => tls.close());
const MINUTE = 60_000;

type Problem = { code: string; detail: string; errors?: { field: string; code?: string }[] };
interface Shop {
  owner: DashboardSession;
  /** A token of the owner's in approval mode: the agent. */
  agent: TestWorkspace;
  /** A token of the owner's that sends directly. */
  direct: TestWorkspace;
  phone: string;
  contactId: string;
}

/** Mints a token through Settings → API tokens, as a person does. */
async function mint(owner: DashboardSession, body: Record<string, unknown>) {
  const issued = await owner.send<{ id: string; token: string; mode: string; approval_timeout_minutes: number | null }>(
    'POST',
    '/api/dashboard/tokens',
    body,
  );
  assert.equal(issued.status, 200, issued.text);
  return issued.body;
}

/** A workspace whose customer wrote in (the window is open), an approval token and a direct one. */
async function shop(timeoutMinutes = 30): Promise<Shop> {
  const owner = await ownerSession(server);
  const ids = { workspaceId: owner.workspaceId, userId: owner.userId };
  const agentToken = await mint(owner, { name: 'Agent', mode: 'approval', approval_timeout_minutes: timeoutMinutes });
  const directToken = await mint(owner, { name: 'Zapier' });
  const agent = asClient(server.http, { ...ids, token: agentToken.token, tokenId: agentToken.id });
  const direct = asClient(server.http, { ...ids, token: directToken.token, tokenId: directToken.id });
  const phone = `+1415555${String(randomInt(10_000)).padStart(4, '0')}`;
  const inbound = await direct.action<Message>('simulate-inbound-message', { phone, text: 'When does it ship?' });
  assert.equal(inbound.status, 200, inbound.text);
  return { owner, agent, direct, phone, contactId: inbound.body.contact_id };
}

/** The agent's text send, held (202). */
async function held(s: Shop, message = 'It ships today.', reasoning = 'They asked when it ships') {
  const answer = await s.agent.action<HeldSend>('send-text-message', { phone: s.phone, message, reasoning });
  assert.equal(answer.status, 202, answer.text);
  return answer.body;
}

const pending = async (s: Shop) =>
  (await s.owner.send<PendingSend[]>('GET', `/api/dashboard/conversations/${s.contactId}/held-sends`)).body;
const messagesOf = async (s: Shop) =>
  (await s.direct.action<Message[]>('list-messages', { contact_id: s.contactId })).body;
const approve = (session: DashboardSession, id: string, body: Record<string, unknown> = {}) =>
  session.send<Message & Problem>('POST', `/api/dashboard/held-sends/${id}/approve`, body);
const reject = (session: DashboardSession, id: string, body: Record<string, unknown> = {}) =>
  session.send<HeldSend & Problem>('POST', `/api/dashboard/held-sends/${id}/reject`, body);

describe(`sends held for approval (${ENGINE})`, () => {
  test('create a token › mode and timeout are kept and listed; bad ones are refused naming the field', async () => {
    const owner = await ownerSession(server);
    const agent = await mint(owner, { name: 'Agent', mode: 'approval', approval_timeout_minutes: 45 });
    assert.deepEqual([agent.mode, agent.approval_timeout_minutes], ['approval', 45]);
    const defaulted = await mint(owner, { name: 'Agent 2', mode: 'approval' });
    assert.equal(defaulted.approval_timeout_minutes, 60);
    const plain = await mint(owner, { name: 'Zapier' });
    assert.deepEqual([plain.mode, plain.approval_timeout_minutes], ['direct', null]);
    const listed = (
      await owner.send<{ id: string; mode: string; approval_timeout_minutes: number | null }[]>(
        'GET',
        '/api/dashboard/tokens',
      )
    ).body;
    assert.deepEqual(
      listed.map((t) => [t.id, t.mode, t.approval_timeout_minutes]).sort(),
      [
        [agent.id, 'approval', 45],
        [defaulted.id, 'approval', 60],
        [plain.id, 'direct', null],
      ].sort(),
    );
    const me = await server.http.send<{ token: { mode: string } }>('GET', '/api/v1/me', { token: agent.token });
    assert.equal(me.body.token.mode, 'approval');

    for (const [body, field] of [
      [{ name: 'x', mode: 'approval', approval_timeout_minutes: 0 }, 'approval_timeout_minutes'],
      [{ name: 'x', mode: 'approval', approval_timeout_minutes: 7 * 24 * 60 + 1 }, 'approval_timeout_minutes'],
      [{ name: 'x', approval_timeout_minutes: 30 }, 'approval_timeout_minutes'],
      [{ name: 'x', mode: 'supervised' }, 'mode'],
    ] as const) {
      const refused = await owner.send<Problem>('POST', '/api/dashboard/tokens', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.deepEqual([...new Set(refused.body.errors!.map((e) => e.field))], [field]);
    }
    assert.equal((await owner.send<unknown[]>('GET', '/api/dashboard/tokens')).body.length, 3, 'nothing created');
  });

  test('send-text-message › an approval token’s send answers 202 awaiting_approval; nothing is sent, the thread lists it', async () => {
    const s = await shop();
    const before = await messagesOf(s);
    const send = await held(s);
    assert.equal(send.status, 'awaiting_approval');
    assert.equal(send.contact_id, s.contactId);
    assert.deepEqual([send.type, send.content], ['text', { body: 'It ships today.', preview_url: false }]);
    assert.equal(send.reasoning, 'They asked when it ships');
    assert.equal(Date.parse(send.expires_at) - Date.parse(send.created_at), 30 * MINUTE);
    assert.deepEqual(await messagesOf(s), before, 'no message was queued');

    const [listed, ...others] = await pending(s);
    assert.deepEqual(others, []);
    assert.equal(listed!.id, send.id);
    assert.deepEqual(listed!.agent, { type: 'api', id: s.agent.tokenId, name: 'Agent' });
    assert.equal(listed!.preview, 'It ships today.');
    assert.deepEqual((await s.agent.action<HeldSend>('get-held-send', { held_send_id: send.id })).body, send);

    // A direct token's answer is the spec's, unchanged: 200 and the queued message.
    const direct = await s.direct.action<Message>('send-text-message', { phone: s.phone, message: 'Hi' });
    assert.equal(direct.status, 200);
    assert.equal(direct.body.status, 'queued');
  });

  test('inbox list › each conversation counts its sends waiting; filter=awaiting_approval lists just those, whatever their state', async () => {
    const s = await shop();
    type Listed = { conversations: { contact_id: string; awaiting_approval: number }[] };
    const list = async (query: string) => {
      const answer = await s.owner.send<Listed>('GET', `/api/dashboard/conversations?${query}`);
      assert.equal(answer.status, 200, answer.text);
      return answer.body.conversations.map((c) => [c.contact_id, c.awaiting_approval]);
    };
    const quiet = await s.direct.action<Message>('simulate-inbound-message', { phone: '+14155550999', text: 'Hi' });
    assert.deepEqual(await list('filter=awaiting_approval'), []);
    const first = await held(s);
    await held(s, 'Tracking: ABC123', 'They may want to track it');
    assert.deepEqual(await list('filter=awaiting_approval'), [[s.contactId, 2]]);
    assert.deepEqual(
      (await list('filter=open')).sort(),
      [
        [s.contactId, 2],
        [quiet.body.contact_id, 0],
      ].sort(),
    );

    // Marked done, it still waits for a person; decided, it is no longer listed.
    const done = await s.owner.send('POST', `/api/dashboard/conversations/${s.contactId}/done`, { done: true });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(await list('filter=awaiting_approval'), [[s.contactId, 2]]);
    assert.equal((await reject(s.owner, first.id)).status, 200);
    assert.deepEqual(await list('filter=awaiting_approval'), [[s.contactId, 1]]);
    const [second] = await pending(s);
    assert.equal((await approve(s.owner, second!.id)).status, 200);
    assert.deepEqual(await list('filter=awaiting_approval'), []);

    // Another workspace's list shows none of it.
    const other = await ownerSession(server);
    const theirs = await other.send<Listed>('GET', '/api/dashboard/conversations?filter=awaiting_approval');
    assert.deepEqual(theirs.body.conversations, []);
  });

  test('approve › the message goes out as the token’s, once; the held send names it; a second approval is 409', async () => {
    const s = await shop();
    const send = await held(s);
    const approved = await approve(s.owner, send.id);
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual([approved.body.type, approved.body.content.body], ['text', 'It ships today.']);
    const [message] = await messagesOf(s);
    assert.equal(message!.id, approved.body.id);
    const thread = await s.owner.send<{ messages: { id: string; sender: { type: string; id: string } }[] }>(
      'GET',
      `/api/dashboard/conversations/${s.contactId}`,
    );
    assert.deepEqual(thread.body.messages.find((m) => m.id === approved.body.id)!.sender, {
      type: 'api',
      id: s.agent.tokenId,
      name: 'Agent',
    });
    const after = (await s.agent.action<HeldSend>('get-held-send', { held_send_id: send.id })).body;
    assert.deepEqual([after.status, after.message_id, after.edited], ['approved', approved.body.id, false]);
    assert.deepEqual(await pending(s), []);

    const again = await approve(s.owner, send.id);
    assert.equal(again.status, 409);
    assert.match(again.body.detail, /already approved/);
    assert.equal((await messagesOf(s)).length, 2, 'the inbound and one reply');
  });

  test('approve › two people at once, in two processes, send it exactly once', async () => {
    const s = await shop();
    const mate = await joinedTeammate(server, s.owner, 'agent');
    const other = await createApp(server.config, { clock: server.clock, logger: false });
    try {
      for (let round = 0; round < 3; round++) {
        const send = await held(s, `Round ${round}`);
        const elsewhere = other.server.inject({
          method: 'POST',
          url: `/api/dashboard/held-sends/${send.id}/approve`,
          headers: {
            cookie: `${SESSION_COOKIE}=${mate.cookie}`,
            'x-csrf-token': mate.csrfToken,
            'x-forwarded-proto': 'https',
          },
          payload: {},
        });
        const [here, there] = await Promise.all([approve(s.owner, send.id), elsewhere]);
        assert.deepEqual([here.status, there.statusCode].sort(), [200, 409], `${here.text} ${there.body}`);
        const sent = (await messagesOf(s)).filter((m) => m.content.body === `Round ${round}`);
        assert.equal(sent.length, 1, 'one message');
      }
    } finally {
      await other.close();
    }
  });

  test('edit, then approve › the person’s text goes out and the agent learns it was edited; only a text can be edited', async () => {
    const s = await shop();
    const send = await held(s, 'It ships tomorow');
    const approved = await approve(s.owner, send.id, { message: 'It ships tomorrow, before noon.' });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.content.body, 'It ships tomorrow, before noon.');
    const after = (await s.agent.action<HeldSend>('get-held-send', { held_send_id: send.id })).body;
    assert.equal(after.edited, true);
    assert.equal(after.content.body, 'It ships tomorow', 'what the agent proposed is kept');

    const template = await createTemplate(server.app.services, s.owner.workspaceId);
    const templated = await s.agent.action<HeldSend>('send-template-message', {
      phone: s.phone,
      template_id: template.id,
      variables: ['Ada', 'ORD-1'],
    });
    assert.equal(templated.status, 202, templated.text);
    const refused = await approve(s.owner, templated.body.id, { message: 'Something else' });
    assert.equal(refused.status, 400);
    assert.deepEqual(
      refused.body.errors!.map((e) => [e.field, e.code]),
      [['message', 'messages.only_text_editable']],
    );
    assert.equal((await pending(s)).length, 1, 'still awaiting');
    assert.equal((await approve(s.owner, templated.body.id)).status, 200, 'approved as it is');
  });

  test('reject › never sent, the note reaches the agent; approving after is 409', async () => {
    const s = await shop();
    const send = await held(s);
    const rejected = await reject(s.owner, send.id, { note: 'We do not promise dates' });
    assert.equal(rejected.status, 200, rejected.text);
    assert.deepEqual([rejected.body.status, rejected.body.note], ['rejected', 'We do not promise dates']);
    assert.deepEqual((await s.agent.action<HeldSend>('get-held-send', { held_send_id: send.id })).body, rejected.body);
    assert.equal((await approve(s.owner, send.id)).status, 409);
    assert.equal((await reject(s.owner, send.id)).status, 409);
    assert.equal((await messagesOf(s)).length, 1, 'only the inbound');
    assert.deepEqual(await pending(s), []);
  });

  test('expiry › nobody decided within the token’s timeout: expired by the job, never sent', async () => {
    const s = await shop(5);
    const send = await held(s);
    server.clock.advance(5 * MINUTE - 1000);
    await server.app.services.scheduler.runDue(s.owner.workspaceId);
    assert.equal((await pending(s)).length, 1, 'still within its time');
    server.clock.advance(2000);
    assert.deepEqual(await pending(s), [], 'out of time: no longer offered');
    assert.equal((await approve(s.owner, send.id)).status, 409, 'nor approvable before the job runs');
    await server.app.services.scheduler.runDue(s.owner.workspaceId);
    const after = (await s.agent.action<HeldSend>('get-held-send', { held_send_id: send.id })).body;
    assert.equal(after.status, 'expired');
    assert.equal(after.decided_at, new Date(server.clock.now()).toISOString().replace('Z', '+00:00'));
    assert.equal((await messagesOf(s)).length, 1);
  });

  test('the sending rules › a closed window refuses the send at once (422, nothing held), and again at approval', async () => {
    const s = await shop(60 * 48);
    const send = await held(s);
    server.clock.advance(24 * 60 * MINUTE + MINUTE);
    const late = await approve(s.owner, send.id);
    assert.equal(late.status, 422);
    assert.equal(late.body.code, 'customer_service_window_closed');
    assert.equal((await pending(s)).length, 1, 'still awaiting: a template may follow instead');
    const closed = await s.agent.action<Problem>('send-text-message', { phone: s.phone, message: 'Hi again' });
    assert.equal(closed.status, 422);
    assert.equal(closed.body.code, 'customer_service_window_closed');
    assert.equal((await pending(s)).length, 1, 'nothing more held');
  });

  test('guards › roles, workspaces, read-only tokens, group sends and bad ids', async () => {
    const s = await shop();
    const send = await held(s);
    const marketer = await joinedTeammate(server, s.owner, 'marketer');
    assert.equal((await approve(marketer, send.id)).body.code, 'permission_denied');
    assert.equal((await reject(marketer, send.id)).body.code, 'permission_denied');
    const stranger = await shop();
    assert.equal((await approve(stranger.owner, send.id)).status, 404, 'another workspace’s answers like none');
    assert.equal((await stranger.agent.action<Problem>('get-held-send', { held_send_id: send.id })).status, 404);
    assert.equal((await approve(s.owner, 'not-an-id')).status, 400);
    const reader = await mint(s.owner, { name: 'Reader', scope: 'read', mode: 'approval' });
    const readOnly = await server.http.send<Problem>('POST', '/api/v1/actions/send-text-message', {
      token: reader.token,
      body: { phone: s.phone, message: 'Hi' },
    });
    assert.equal(readOnly.body.code, 'insufficient_scope');
    assert.equal((await pending(s)).length, 1);
    assert.equal((await approve(s.owner, send.id)).status, 200);
  });

  test('idempotency › a retried held send answers the same held send; nothing is held twice', async () => {
    const s = await shop();
    const body = { phone: s.phone, message: 'Once', reasoning: 'Retried' };
    const headers = { 'idempotency-key': `held-${randomInt(1e9)}` };
    const first = await s.agent.action<HeldSend>('send-text-message', body, headers);
    const second = await s.agent.action<HeldSend>('send-text-message', body, headers);
    assert.deepEqual([first.status, second.status], [202, 202]);
    assert.deepEqual(second.body, first.body);
    assert.equal((await pending(s)).length, 1);
  });

  test('events › open dashboards hear of a held send and its decision; webhooks get held-send-changed', async () => {
    const s = await shop();
    const hook = await s.direct.action<{ id: string }>('create-webhook', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['held-send-changed'],
    });
    assert.equal(hook.status, 200, hook.text);
    const stream = await request(`${server.baseUrl}/api/dashboard/events`, {
      dispatcher: tls,
      reset: true,
      headers: { cookie: `${SESSION_COOKIE}=${s.owner.cookie}`, accept: 'text/event-stream' },
    });
    let heard = '';
    const approvalEvents = () => heard.split('\n\n').filter((chunk) => chunk.startsWith('event: approval'));
    stream.body.on('data', (chunk: Buffer) => (heard += chunk.toString()));
    const send = await held(s);
    await approve(s.owner, send.id);
    const deadline = Date.now() + 10_000;
    while (approvalEvents().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    stream.body.destroy();
    assert.deepEqual(
      approvalEvents().map((chunk) => JSON.parse(chunk.split('data: ')[1]!) as unknown),
      [
        { type: 'approval', contact_id: s.contactId, message_id: send.id },
        { type: 'approval', contact_id: s.contactId, message_id: send.id },
      ],
    );

    const deliveries = await s.direct.action<{ event_type: string; payload: { data: HeldSend } }[]>(
      'list-webhook-deliveries',
      { webhook_id: hook.body.id },
    );
    const changes = deliveries.body.map((d) => [d.event_type, d.payload.data.status]);
    assert.deepEqual(changes.sort(), [
      ['held-send-changed', 'approved'],
      ['held-send-changed', 'awaiting_approval'],
    ]);
  });

  test('MCP › the send tools hold an approval token’s sends (with reasoning); the tool output says awaiting_approval', async () => {
    const s = await shop();
    const trusting: FetchLike = (url, init) => fetch(url, { ...init, dispatcher: tls } as never) as never;
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
      fetch: trusting,
      requestInit: { headers: { authorization: `Bearer ${s.agent.token}` } },
    });
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(transport);
    after(() => client.close());
    const result = (await client.callTool({
      name: 'send_text_message',
      arguments: { contact_id: s.contactId, message: 'Shipping today', reasoning: 'Asked about shipping' },
    })) as CallToolResult;
    assert.ok(!result.isError, JSON.stringify(result.content));
    const answer = result.structuredContent as unknown as HeldSend;
    assert.deepEqual([answer.status, answer.reasoning], ['awaiting_approval', 'Asked about shipping']);
    const followed = (await client.callTool({
      name: 'get_held_send',
      arguments: { held_send_id: answer.id },
    })) as CallToolResult;
    assert.deepEqual(followed.structuredContent, answer);
    const [listed] = await pending(s);
    assert.equal(listed!.reasoning, 'Asked about shipping');
  });
});
