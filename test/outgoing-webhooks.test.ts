import assert from 'node:assert/strict';
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import type { Group } from '../src/groups/group.schema.js';
import type { Message } from '../src/messages/message.schema.js';
import type { CreatedWebhook, Delivery, Webhook, WebhookEvent } from '../src/outgoing/webhook.schema.js';
import { WEBHOOK_EVENTS } from '../src/outgoing/webhook.schema.js';
import { inboundTextWebhook, statusWebhook } from '../src/whatsapp/webhook.fixtures.js';
import { groupMessageWebhook } from '../src/whatsapp/webhook.group-fixtures.js';
import { flowAnswerWebhook, signUpFlowJson } from '../src/whatsapp/webhook.flow-answer-fixtures.js';
import { cliJson, runCli, stderrLines } from './cli.js';
import { createTemplate, createWorkspace, type TestWorkspace } from './factories.js';
import { ENGINE, startServer } from './server.js';
import { startWhatsappServer, type CloudWorkspace } from './whatsapp.js';

// The receiver runs on loopback over plain http, which only PARLEY_ALLOW_PRIVATE_WEBHOOKS permits (tested below).
const { server, graph, cloudWorkspace, postWebhook } = await startWhatsappServer({
  outbox: true,
  env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' },
});
const { services } = server.app;
const SECOND = 1000;
const HOUR = 3_600_000;

interface Body {
  id: string;
  type: WebhookEvent;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

/** One request the receiver got, whether its signature verified, and what it answered. */
interface Received {
  path: string;
  id: string;
  timestamp: number;
  signed: boolean;
  body: Body;
  answered: number;
}

/** What a receiver path answers to the n-th attempt (1-based) of a delivery. */
type Policy = (body: Body, attempt: number) => number;

const received: Received[] = [];
const receivers = new Map<string, { secret: string; policy: Policy }>();

/** A webhook receiver as an integrator writes one: it verifies each signature as Standard Webhooks says. */
const receiver = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    const path = req.url ?? '';
    const { secret, policy } = receivers.get(path)!;
    const id = String(req.headers['webhook-id']);
    const timestamp = Number(req.headers['webhook-timestamp']);
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest('base64');
    const signatures = String(req.headers['webhook-signature']).split(' ');
    const body = JSON.parse(raw) as Body;
    const attempt = received.filter((r) => r.path === path && r.id === id).length + 1;
    const answered = policy(body, attempt);
    received.push({ path, id, timestamp, signed: signatures.includes(`v1,${expected}`), body, answered });
    res.statusCode = answered;
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
after(() => receiver.close());
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

const phone = () => `+1415${randomInt(2_000_000, 9_999_999)}`;
/** A server as deployed: private targets refused. */
const strict = await startServer();

/** Subscribes `path` of the receiver through the API; the receiver keeps the secret shown once. */
async function subscribe(ws: TestWorkspace, path: string, events: readonly WebhookEvent[], policy: Policy) {
  const response = await ws.action<CreatedWebhook>('create-webhook', { url: receiverUrl + path, events });
  assert.equal(response.status, 200, response.text);
  receivers.set(path, { secret: response.body.secret, policy });
  return response.body;
}

/** Lets the server's delivery worker send whatever is due now on the manual clock. */
async function deliverDue(): Promise<void> {
  services.webhookWorker.wake();
  await services.webhookWorker.idle();
}

async function deliveries(ws: TestWorkspace, webhookId: string, status = ''): Promise<Delivery[]> {
  const response = await ws.action<Delivery[]>('list-webhook-deliveries', { webhook_id: webhookId, status });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function writesIn(cloud: CloudWorkspace, from: string, text: string): Promise<void> {
  const body = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: from.slice(1), name: 'Ada', text });
  assert.equal((await postWebhook(body)).status, 200);
}

const bodiesOf = (path: string, type: WebhookEvent) =>
  received.filter((r) => r.path === path && r.body.type === type && r.answered === 200).map((r) => r.body);

describe(`outgoing webhooks (${ENGINE})`, () => {
  test('every event type arrives signed, is retried after 500s, and is acknowledged exactly once per delivery id', async () => {
    const cloud = await cloudWorkspace();
    const { ws } = cloud;
    const hook = await subscribe(ws, '/all', WEBHOOK_EVENTS, (_, attempt) => (attempt <= 2 ? 500 : 200));
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const feeds: Partial<Record<WebhookEvent, unknown>> = {};
    const feed = async (type: WebhookEvent) => (await ws.get<unknown[]>(`/v1/triggers/${type}`)).body[0];

    const customer = phone();
    await writesIn(cloud, customer, 'hello');
    feeds['new-message-received'] = await feed('new-message-received');

    const template = await createTemplate(services, ws.workspaceId);
    const sent = await ws.action<Message>('send-template-message', {
      phone: customer,
      template_id: template.id,
      variables: ['Ada', 'ORD-1'],
    });
    services.outbox.wake();
    await services.outbox.idle();
    const wamid = (await ws.action<Message>('get-message', { message_id: sent.body.id })).body.provider_message_id!;
    const status = statusWebhook({
      phoneNumberId: cloud.phoneNumberId,
      wamid,
      status: 'delivered',
      recipient: customer,
    });
    assert.equal((await postWebhook(status)).status, 200);
    const deliveredMessage = (await ws.action<Message>('get-message', { message_id: sent.body.id })).body;

    const flow = await ws.action<{ id: string }>('save-flow', {
      name: `Tagger ${randomInt(1e9)}`,
      definition: {
        start: 'tag',
        nodes: [
          { id: 'tag', type: 'add_tag', tag: 'flowed', next: 'end' },
          { id: 'end', type: 'end' },
        ],
      },
    });
    await ws.action('trigger-flow', { flow_id: flow.body.id, phone: customer, context: { order: 'ORD-1' } });
    feeds['new-flow-triggered'] = await feed('new-flow-triggered');

    const sequence = await ws.action<{ id: string }>('save-sequence', {
      name: `Drip ${randomInt(1e9)}`,
      steps: [{ delay: 'P1D', action: { type: 'add_tag', tag: 'dripped' } }],
    });
    await ws.action('trigger-sequence', { sequence_id: sequence.body.id, phone: customer });
    feeds['new-sequence-triggered'] = await feed('new-sequence-triggered');

    const contactId = deliveredMessage.contact_id;
    const assigned = await server.http.send('PUT', `/api/v1/conversations/${contactId}/assignment`, {
      token: ws.token,
      body: { team_id: null, assignee_id: ws.userId },
    });
    assert.equal(assigned.status, 200, assigned.text);
    await ws.action('create-campaign', {
      name: `Launch ${randomInt(1e9)}`,
      template_id: template.id,
      variables: ['Ada', 'LAUNCH'],
      audience: { contact_ids: [contactId] },
    });
    await services.scheduler.runDue(ws.workspaceId);
    services.outbox.wake();
    await services.outbox.idle();
    server.clock.advance(SECOND);
    await services.scheduler.runDue(ws.workspaceId);
    feeds['new-campaign-sent'] = await feed('new-campaign-sent');

    // A message written in a WhatsApp group, and one the business sent there.
    const { groupId } = graph.addGroup(cloud.phoneNumberId);
    const at = server.clock.now();
    const written = groupMessageWebhook(cloud, {
      groupId,
      from: '4915112345678',
      name: 'Ada',
      wamid: 'wamid.G1',
      at,
      body: 'Hi',
    });
    assert.equal((await postWebhook(written)).status, 200);
    const [group] = (await ws.action<Group[]>('list-groups', {})).body;
    assert.equal((await ws.action('send-group-text', { group_id: group!.id, message: 'Welcome' })).status, 200);
    services.outbox.wake();
    await services.outbox.idle();

    // A send an approval-mode token made: held for a person, as held-send-changed says.
    const agent = await services.tokens.create({ ...ws, name: 'agent', mode: 'approval' });
    const held = await server.http.send('POST', '/api/v1/actions/send-text-message', {
      token: agent.token,
      body: { phone: customer, message: 'Your order ships today', reasoning: 'They asked when it ships' },
    });
    assert.equal(held.status, 202, held.text);

    // A WhatsApp Flow sent to the customer, and their answer.
    const form = (await ws.action<{ id: string }>('create-whatsapp-flow', { name: 'Join', categories: ['SIGN_UP'] }))
      .body;
    await ws.action('update-whatsapp-flow-json', { whatsapp_flow_id: form.id, flow_json: signUpFlowJson() });
    await ws.action('publish-whatsapp-flow', { whatsapp_flow_id: form.id });
    const flowSent = await ws.action<Message>('send-whatsapp-flow', {
      phone: customer,
      whatsapp_flow_id: form.id,
      body: 'Join the club',
      cta: 'Join',
    });
    const { parameters } = (
      flowSent.body.content as { interactive: { action: { parameters: { flow_token: string } } } }
    ).interactive.action;
    const answer = flowAnswerWebhook(
      { phoneNumberId: cloud.phoneNumberId, from: customer.slice(1) },
      { flow_token: parameters.flow_token, full_name: 'Ada' },
    );
    assert.equal((await postWebhook(answer)).status, 200);
    feeds['new-whatsapp-flow-answer'] = await feed('new-whatsapp-flow-answer');

    // The first attempts (made as each event committed) were answered 500; two rounds of retries follow.
    await deliverDue();
    const waiting = await deliveries(ws, hook.id);
    assert.ok(waiting.every((d) => d.status === 'pending' && d.attempts === 1 && d.last_status_code === 500));
    for (const delivery of waiting) {
      const last = delivery.attempt_log.at(-1)!;
      assert.equal(Date.parse(delivery.next_attempt_at!) - Date.parse(last.at), 10 * SECOND);
    }
    server.clock.advance(10 * SECOND);
    await deliverDue();
    server.clock.advance(60 * SECOND);
    await deliverDue();

    const log = await deliveries(ws, hook.id);
    assert.deepEqual(new Set(log.map((d) => d.event_type)), new Set(WEBHOOK_EVENTS), 'every event type was emitted');
    const requests = received.filter((r) => r.path === '/all');
    assert.ok(
      requests.every((r) => r.signed),
      'every signature verifies',
    );
    for (const delivery of log) {
      assert.equal(delivery.status, 'delivered');
      assert.deepEqual(
        delivery.attempt_log.map((a) => a.status_code),
        [500, 500, 200],
      );
      const attempts = requests.filter((r) => r.id === delivery.id);
      assert.deepEqual(
        attempts.map((r) => r.answered),
        [500, 500, 200],
        'the same delivery id on every retry',
      );
      assert.ok(attempts.every((r) => JSON.stringify(r.body) === JSON.stringify(delivery.payload)));
      assert.equal(delivery.payload.id, delivery.id);
      assert.equal(delivery.payload.workspace_id, ws.workspaceId);
    }
    const acknowledged = requests.filter((r) => r.answered === 200).map((r) => r.id);
    assert.equal(new Set(acknowledged).size, acknowledged.length, 'each delivery acknowledged exactly once');
    assert.deepEqual(new Set(acknowledged), new Set(log.map((d) => d.id)));
    const signedAt = requests.map((r) => r.timestamp * 1000 - server.clock.now().getTime());
    assert.ok(signedAt.every((skew) => Math.abs(skew) < 5 * 60 * SECOND));

    // `data` is the record the trigger feed returns for the event; status changes carry the message. An
    // event type may have fired more than once (two messages received), its deliveries in any order.
    for (const [type, record] of Object.entries(feeds)) {
      const idOf = (data: unknown) => (data as { id?: string }).id;
      const body = bodiesOf('/all', type as WebhookEvent).find((b) => idOf(b.data) === idOf(record));
      assert.deepEqual(body?.data, record, type);
    }
    const statusChanges = bodiesOf('/all', 'message-status-changed')
      .map((body) => body.data as unknown as Message)
      .filter((message) => message.id === sent.body.id);
    assert.deepEqual(statusChanges.map((message) => message.status).sort(), ['delivered', 'sent']);
    assert.deepEqual(
      statusChanges.find((message) => message.status === 'delivered'),
      deliveredMessage,
    );

    // A replay through the API: the same id and body, signed afresh, with a new attempt.
    const replayed = await ws.action<Delivery>('replay-webhook-delivery', { delivery_id: log[0]!.id });
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.body.status, 'pending');
    await deliverDue();
    const again = received.filter((r) => r.id === log[0]!.id);
    assert.equal(again.length, 4);
    assert.ok(again[3]!.signed);
    assert.deepEqual(again[3]!.body, again[2]!.body);
    const redelivered = (await deliveries(ws, hook.id)).find((d) => d.id === log[0]!.id)!;
    assert.equal(redelivered.status, 'delivered');
    assert.equal(redelivered.attempt_log.length, 4);
  });

  test('a subscription gets only the events it asked for', async () => {
    const cloud = await cloudWorkspace();
    const hook = await subscribe(cloud.ws, '/flows-only', ['new-flow-triggered'], () => 200);
    await writesIn(cloud, phone(), 'hello');
    await deliverDue();
    assert.deepEqual(await deliveries(cloud.ws, hook.id), []);
  });

  test('a delivery is retried on the schedule for 24 hours, then failed; a subscription failing that long is disabled, and enabling it resumes its deliveries', async () => {
    const cloud = await cloudWorkspace();
    const { ws } = cloud;
    let up = false;
    const hook = await subscribe(ws, '/down', ['new-message-received'], () => (up ? 204 : 503));
    await writesIn(cloud, phone(), 'first');
    await deliverDue();
    const [first] = await deliveries(ws, hook.id);

    let later: Delivery | undefined;
    for (let current = first!; current.status === 'pending';) {
      server.clock.advance(Date.parse(current.next_attempt_at!) - server.clock.now().getTime());
      await deliverDue();
      current = (await deliveries(ws, hook.id)).find((d) => d.id === first!.id)!;
      if (!later && current.attempts === 9) {
        await writesIn(cloud, phone(), 'second');
        await deliverDue();
        later = (await deliveries(ws, hook.id))[0];
      }
    }
    const failed = (await deliveries(ws, hook.id, 'failed'))[0]!;
    assert.equal(failed.id, first!.id);
    const gaps = failed.attempt_log.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(failed.attempt_log[i]!.at));
    const m = 60 * SECOND;
    assert.deepEqual(gaps, [10 * SECOND, m, 5 * m, 30 * m, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 8 * HOUR, 8 * HOUR]);
    assert.equal(failed.last_error, 'answered 503');

    const disabled = (await ws.action<Webhook[]>('list-webhooks')).body[0]!;
    assert.equal(disabled.status, 'disabled');
    assert.match(disabled.disabled_reason!, /24 hours/);
    const paused = (await deliveries(ws, hook.id, 'pending'))[0]!;
    assert.equal(paused.id, later!.id);
    assert.equal(paused.next_attempt_at, null);

    // Nothing is sent while it is disabled, nor queued for new events.
    const before = received.length;
    server.clock.advance(10 * HOUR);
    await writesIn(cloud, phone(), 'third');
    await deliverDue();
    assert.equal(received.length, before);
    assert.equal((await deliveries(ws, hook.id)).length, 2);

    // The receiver is back: enabling (through the CLI) resumes the waiting delivery; the failed one stays failed.
    up = true;
    const enabled = await cliJson<Webhook>(server, 'webhook', 'enable', '--id', hook.id);
    assert.equal(enabled.status, 'enabled');
    assert.equal(enabled.failing_since, null);
    await deliverDue();
    const resumed = (await deliveries(ws, hook.id)).find((d) => d.id === later!.id)!;
    assert.equal(resumed.status, 'delivered');
    assert.equal(resumed.last_status_code, 204);

    // A replay through the CLI only queues it (CLI processes send nothing); the server's worker sends it.
    const queued = await cliJson<Delivery>(server, 'webhook', 'replay', '--delivery', failed.id);
    assert.equal(queued.status, 'pending');
    assert.equal(queued.id, failed.id);
    await deliverDue();
    const replayed = (await deliveries(ws, hook.id)).find((d) => d.id === failed.id)!;
    assert.equal(replayed.status, 'delivered');
    assert.equal(received.filter((r) => r.id === failed.id).at(-1)!.answered, 204);
  });

  test('another workspace can neither see nor change a workspace’s webhooks and deliveries', async () => {
    const cloud = await cloudWorkspace();
    const hook = await subscribe(cloud.ws, '/mine', ['new-message-received'], () => 200);
    await writesIn(cloud, phone(), 'hello');
    await deliverDue();
    const [delivery] = await deliveries(cloud.ws, hook.id);
    const other = await createWorkspace(server);
    assert.deepEqual((await other.action('list-webhooks')).body, []);
    for (const [action, body] of [
      ['list-webhook-deliveries', { webhook_id: hook.id }],
      ['replay-webhook-delivery', { delivery_id: delivery!.id }],
      ['update-webhook', { webhook_id: hook.id, enabled: false }],
      ['delete-webhook', { webhook_id: hook.id }],
    ] as const) {
      const response = await other.action<{ code: string }>(action, body);
      assert.equal(response.status, 404, action);
      assert.equal(response.body.code, 'not_found');
    }
    const untouched = (await deliveries(cloud.ws, hook.id))[0]!;
    assert.equal(untouched.status, 'delivered');
    assert.equal((await cloud.ws.action<Webhook[]>('list-webhooks')).body[0]!.status, 'enabled');
  });

  test('bad input is refused with 400 and read-only tokens with 403; nothing is created', async () => {
    const ws = await createWorkspace(server);
    for (const body of [
      { url: `${receiverUrl}/x`, events: [] },
      { url: `${receiverUrl}/x`, events: ['new-message-received', 'message-deleted'] },
      { url: 'not a url', events: ['new-flow-triggered'] },
      { url: 'ftp://example.com/hook', events: ['new-flow-triggered'] },
      { url: 'https://user:pw@example.com/hook', events: ['new-flow-triggered'] },
      { events: ['new-flow-triggered'] },
    ]) {
      const response = await ws.action<{ code: string }>('create-webhook', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.code, 'validation_failed');
    }
    const reader = await createWorkspace(server, { scope: 'read' });
    const refused = await reader.action('create-webhook', { url: `${receiverUrl}/x`, events: ['new-flow-triggered'] });
    assert.equal(refused.status, 403);
    assert.deepEqual((await ws.action('list-webhooks')).body, []);
    const unknown = await ws.action('replay-webhook-delivery', { delivery_id: randomUUID() });
    assert.equal(unknown.status, 404);
  });

  test('parley webhook commands manage subscriptions and print JSON; a failure is one line on stderr', async () => {
    const ws = await createWorkspace(server);
    const created = await cliJson<CreatedWebhook>(
      server,
      'webhook',
      'create',
      '--workspace',
      ws.workspaceId,
      '--url',
      `${receiverUrl}/cli`,
      '--events',
      'new-flow-triggered,new-campaign-sent',
    );
    assert.match(created.secret, /^whsec_/);
    assert.deepEqual(created.events, ['new-flow-triggered', 'new-campaign-sent']);
    const listed = await cliJson<Webhook[]>(server, 'webhook', 'list', '--workspace', ws.workspaceId);
    assert.deepEqual(
      listed.map((w) => [w.id, w.status, 'secret' in w]),
      [[created.id, 'enabled', false]],
    );
    assert.equal((await cliJson<Webhook>(server, 'webhook', 'disable', '--id', created.id)).status, 'disabled');
    assert.deepEqual(await cliJson(server, 'webhook', 'deliveries', '--id', created.id, '--status', 'failed'), []);
    assert.equal((await cliJson<Webhook>(server, 'webhook', 'delete', '--id', created.id)).id, created.id);
    assert.deepEqual((await ws.action('list-webhooks')).body, []);

    for (const args of [
      ['create', '--workspace', ws.workspaceId, '--url', `${receiverUrl}/cli`, '--events', 'nope'],
      ['delete', '--id', created.id],
    ]) {
      const result = await runCli(server, 'webhook', ...args);
      assert.notEqual(result.code, 0, args.join(' '));
      assert.equal(stderrLines(result).length, 1, result.stderr);
      assert.equal(result.stdout, '');
    }
  });
});

describe(`outgoing webhook targets without PARLEY_ALLOW_PRIVATE_WEBHOOKS (${ENGINE})`, () => {
  test('plain http and loopback or private addresses are refused when subscribing', async () => {
    const ws = await createWorkspace(strict);
    for (const url of [
      `${receiverUrl}/x`,
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost:8443/x',
      'https://10.1.2.3/x',
      'https://192.168.1.20/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://169.254.169.254/latest',
    ]) {
      const response = await ws.action<{ code: string; detail: string }>('create-webhook', {
        url,
        events: ['new-flow-triggered'],
      });
      assert.equal(response.status, 400, url);
      assert.match(response.body.detail, /^url: /);
    }
    assert.deepEqual((await ws.action('list-webhooks')).body, []);
  });

  test('a target that turns out private when delivering (DNS) is refused then, and retried later', async () => {
    const ws = await createWorkspace(strict);
    const created = await ws.action<CreatedWebhook>('create-webhook', {
      url: 'https://203.0.113.10/hook',
      events: ['new-message-received'],
    });
    assert.equal(created.status, 200, created.text);
    // As if the name now resolved to loopback: the worker's connection refuses it after resolving.
    await strict.app.services.deps.db
      .updateTable('webhook_subscriptions')
      .set({ url: `https://localhost:${new URL(receiverUrl).port}/dns` })
      .where('id', '=', created.body.id)
      .execute();
    const inbound = await ws.action('simulate-inbound-message', { phone: phone(), text: 'hi' });
    assert.equal(inbound.status, 200, inbound.text);
    strict.app.services.webhookWorker.wake();
    await strict.app.services.webhookWorker.idle();
    const [delivery] = (await ws.action<Delivery[]>('list-webhook-deliveries', { webhook_id: created.body.id })).body;
    assert.equal(delivery!.status, 'pending');
    assert.match(delivery!.last_error!, /resolves to a private address/);
    assert.equal(received.filter((r) => r.path === '/dns').length, 0);
  });
});
