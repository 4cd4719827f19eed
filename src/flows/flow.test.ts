import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import { createImageHeaderTemplate } from '../../test/factories.js';
import { customerPhone, flowConversation } from '../../test/flow-conversation.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { FlowRecord } from '../triggers/trigger.schema.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import { createFlowWebhookClient } from './flow-webhook.js';
import type { Flow } from './flow.schema.js';

// Flow webhooks call a server on loopback here, which production refuses by default (tested below).
const bed = await startWhatsappServer({ outbox: true, env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
const { graph, server, cloudWorkspace, postWebhook } = bed;
const { scheduler, outbox } = server.app.services;
const { sentTo, writes } = flowConversation(bed);
const phone = customerPhone;

/** An order-status endpoint a flow calls out to; records what it was sent. */
const calls: unknown[] = [];
const orders = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    calls.push(JSON.parse(body));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'shipped' }));
  });
});
await new Promise<void>((resolve) => orders.listen(0, '127.0.0.1', resolve));
after(() => orders.close());
const ordersUrl = `http://127.0.0.1:${(orders.address() as { port: number }).port}/orders`;

const supportFlow = () => ({
  start: 'menu',
  keywords: ['Help'],
  nodes: [
    {
      id: 'menu',
      type: 'send_buttons',
      text: 'Hi {{contact.name}}, what do you need?',
      buttons: [
        { id: 'order', title: 'My order' },
        { id: 'person', title: 'A person' },
      ],
      next: 'wait',
    },
    { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'route', on_timeout: 'bye' },
    {
      id: 'route',
      type: 'branch',
      branches: [
        { when: { button_id: 'person' }, next: 'handoff' },
        { when: { button_id: 'order' }, next: 'email' },
      ],
      default: 'bye',
    },
    {
      id: 'email',
      type: 'ask',
      text: 'Your email?',
      attribute: 'email_given',
      validate: 'email',
      timeout: 'PT30M',
      retries: 1,
      retry_text: 'That does not look like an email, again?',
      next: 'lookup',
    },
    { id: 'lookup', type: 'webhook', url: ordersUrl, save_as: 'order_status', next: 'tag', on_error: 'bye' },
    { id: 'tag', type: 'add_tag', tag: 'asked-order', next: 'answer' },
    { id: 'answer', type: 'send_text', text: 'Your order is {{attributes.order_status.status}}.', next: 'end' },
    { id: 'handoff', type: 'handoff', note: 'wants a person' },
    { id: 'bye', type: 'send_text', text: 'Bye!', next: 'end' },
    { id: 'end', type: 'end' },
  ],
});

async function saveFlow(cloud: CloudWorkspace, definition: object) {
  const response = await cloud.ws.action<Flow>('save-flow', { name: `Support ${randomInt(1e9)}`, definition });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

describe(`flows (${ENGINE})`, () => {
  test('save-flow: a template node takes header_media_url, Meta gets it as the header image; refused without one', async () => {
    const cloud = await cloudWorkspace();
    const template = await createImageHeaderTemplate(server.app.services, cloud.ws.workspaceId);
    const definition = (extra: object) => ({
      start: 'photo',
      nodes: [{ id: 'photo', type: 'send_template', template_id: template.id, ...extra }],
    });
    const refused = await cloud.ws.action<{ code: string; errors: { field: string }[] }>('save-flow', {
      name: `Photo ${randomInt(1e9)}`,
      definition: definition({}),
    });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'header_media_required');
    assert.deepEqual(
      refused.body.errors.map((e) => e.field),
      ['/definition/nodes/0/header_media_url'],
    );

    const link = 'https://shop.example/new.jpg';
    const flow = await saveFlow(cloud, definition({ header_media_url: link }));
    const customer = phone();
    const run = await cloud.ws.action<FlowRecord>('trigger-flow', { flow_id: flow.id, phone: customer });
    assert.equal(run.status, 200, run.text);
    outbox.wake();
    await outbox.idle();
    const sent = graph.requests
      .filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
      .map((r) => r.body as { to: string; template?: { components: unknown } })
      .find((body) => body.to === customer);
    // Meta's "Send template messages", media header: {type: "header", parameters: [{type: "image", image: {link}}]}.
    assert.deepEqual(sent?.template?.components, [
      { type: 'header', parameters: [{ type: 'image', image: { link } }] },
    ]);
  });

  test('a keyword starts the flow; button reply, question with a retry, webhook, tag, answer', async () => {
    const cloud = await cloudWorkspace();
    const flow = await saveFlow(cloud, supportFlow());
    const customer = phone();
    // A sequence the flow's tag ends (tags added by flows count as exit conditions too).
    await cloud.ws.action('create-contact', { phone: customer, name: 'Ada' });
    const sequence = await cloud.ws.action<{ id: string }>('save-sequence', {
      name: 'Nurture',
      exit_on: { reply: false, tags: ['asked-order'] },
      steps: [{ delay: 'P1D', action: { type: 'add_tag', tag: 'nurtured' } }],
    });
    assert.equal(
      (await cloud.ws.action('trigger-sequence', { sequence_id: sequence.body.id, phone: customer })).status,
      200,
    );
    await writes(cloud, customer, { text: ' help ' });
    assert.deepEqual(sentTo(cloud, customer), ['interactive:Hi Ada, what do you need?']);
    const buttons = graph.requests.at(-1)!.body as { interactive: { type: string; action: { buttons: unknown[] } } };
    assert.deepEqual(buttons.interactive.action.buttons[0], {
      type: 'reply',
      reply: { id: 'order', title: 'My order' },
    });

    await writes(cloud, customer, { button: 'order' });
    await writes(cloud, customer, { text: 'not an email' });
    await writes(cloud, customer, { text: 'Ada@Example.com' });
    assert.deepEqual(sentTo(cloud, customer).slice(1), [
      'text:Your email?',
      'text:That does not look like an email, again?',
      'text:Your order is shipped.',
    ]);
    assert.deepEqual((calls.at(-1) as { contact: { phone: string } }).contact.phone, customer);
    const contact = await cloud.ws.action<{ tags: string[]; metadata: Record<string, unknown> }>('get-contact', {
      phone: customer,
    });
    assert.deepEqual(contact.body.tags, ['asked-order']);
    const fetched = await cloud.ws.action<Flow>('get-flow', { flow_id: flow.id });
    assert.equal(fetched.body.runs.completed, 1);
    const nurture = await cloud.ws.action<{ enrolments: { exited: number } }>('get-sequence', {
      sequence_id: sequence.body.id,
    });
    assert.equal(nurture.body.enrolments.exited, 1, 'the tag the flow added ended the enrolment');
    const feed = await cloud.ws.get(`/v1/triggers/new-flow-triggered?flow_id=${flow.id}`);
    assert.deepEqual(
      (feed.body as FlowRecord[]).map((r) => [r.status, r.contact_phone, r.context.keyword]),
      [['completed', customer, 'help']],
    );
  });

  test('trigger-flow: a wait that times out takes its timeout edge; handoff ends the run', async () => {
    const cloud = await cloudWorkspace();
    const flow = await saveFlow(cloud, supportFlow());
    const customer = phone();
    await writes(cloud, customer, { text: 'hello there' }); // opens the window; no keyword, so no run
    assert.deepEqual(sentTo(cloud, customer), []);
    const run = await cloud.ws.action<FlowRecord>('trigger-flow', { flow_id: flow.id, phone: customer });
    assert.equal(run.status, 200, run.text);
    outbox.wake();
    await outbox.idle();
    server.clock.advance(3_600_000);
    await scheduler.runDue(cloud.ws.workspaceId);
    outbox.wake();
    await outbox.idle();
    assert.deepEqual(sentTo(cloud, customer), ['interactive:Hi Ada, what do you need?', 'text:Bye!']);

    const second = await cloud.ws.action<FlowRecord>('trigger-flow', { flow_id: flow.id, phone: customer });
    await writes(cloud, customer, { button: 'person' });
    const feed = await cloud.ws.get(`/v1/triggers/new-flow-triggered?flow_id=${flow.id}`);
    assert.deepEqual(
      (feed.body as FlowRecord[]).map((r) => [r.id, r.status]),
      [
        [second.body.id, 'handed_off'],
        [run.body.id, 'completed'],
      ],
    );
  });

  test('stop-flow-run: the next message no longer answers the run; 409 once ended; other workspaces get 404', async () => {
    const cloud = await cloudWorkspace();
    const flow = await saveFlow(cloud, supportFlow());
    const customer = phone();
    await writes(cloud, customer, { text: 'help' });
    const [run] = (await cloud.ws.get<FlowRecord[]>(`/v1/triggers/new-flow-triggered?flow_id=${flow.id}`)).body;
    assert.equal(run!.status, 'waiting');
    const other = await cloudWorkspace();
    assert.equal((await other.ws.action('stop-flow-run', { run_id: run!.id })).status, 404);

    const stopped = await cloud.ws.action<FlowRecord>('stop-flow-run', { run_id: run!.id });
    assert.equal(stopped.status, 200, stopped.text);
    assert.equal(stopped.body.status, 'cancelled');
    await writes(cloud, customer, { button: 'person' });
    assert.deepEqual(sentTo(cloud, customer), ['interactive:Hi Ada, what do you need?']);
    const fetched = await cloud.ws.action<Flow>('get-flow', { flow_id: flow.id });
    assert.deepEqual([fetched.body.runs.cancelled, fetched.body.runs.waiting], [1, 0]);
    const again = await cloud.ws.action('stop-flow-run', { run_id: run!.id });
    assert.equal(again.status, 409, again.text);
  });

  test('an empty placeholder takes its fallback: a contact without a name reads "Hi there,", never "Hi ,"', async () => {
    const cloud = await cloudWorkspace();
    await saveFlow(cloud, {
      start: 'hi',
      keywords: ['hello'],
      nodes: [
        { id: 'hi', type: 'send_text', text: 'Hi {{contact.first_name | "there"}}, how can we help?', next: 'end' },
        { id: 'end', type: 'end' },
      ],
    });
    const customer = phone();
    const from = customer.slice(1);
    const hello = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from, name: null, text: 'hello' });
    assert.equal((await postWebhook(hello)).status, 200);
    outbox.wake();
    await outbox.idle();
    assert.deepEqual(sentTo(cloud, customer), ['text:Hi there, how can we help?']);
  });

  test('save-flow names the node at fault and writes nothing', async () => {
    const cloud = await cloudWorkspace();
    const broken = supportFlow();
    Object.assign(broken.nodes[0]!, { next: 'nowhere' });
    const response = await cloud.ws.action('save-flow', { name: 'Broken', definition: broken });
    assert.equal(response.status, 400, response.text);
    const errors = (response.body as { errors: { field: string; message: string; code?: string }[] }).errors;
    assert.ok(
      errors.some(
        (e) =>
          e.field === '/definition/nodes/0/next' && e.code === 'flows.unknown_target' && e.message.includes('nowhere'),
      ),
      JSON.stringify(errors),
    );
    assert.ok(
      errors.some(
        (e) => e.field === '/definition/nodes/1' && e.code === 'flows.unreachable' && e.message.includes('unreachable'),
      ),
      JSON.stringify(errors),
    );
    assert.deepEqual((await cloud.ws.get('/v1/dropdowns/flows')).body, []);
  });

  test('free-form nodes need the 24-hour window: outside it the run fails and nothing is sent', async () => {
    const cloud = await cloudWorkspace();
    const flow = await saveFlow(cloud, supportFlow());
    const customer = phone();
    const run = await cloud.ws.action<FlowRecord>('trigger-flow', { flow_id: flow.id, phone: customer });
    assert.equal(run.body.status, 'failed');
    outbox.wake();
    await outbox.idle();
    assert.deepEqual(sentTo(cloud, customer), []);
  });

  test('webhook call-outs refuse loopback and private addresses unless allowed', async () => {
    const client = createFlowWebhookClient({ allowPrivate: false });
    try {
      for (const url of [ordersUrl, 'http://localhost:9/x', 'http://10.1.2.3/x', 'http://[::1]:9/x']) {
        const result = await client.call({ url, method: 'POST', timeoutMs: 1000, body: {} });
        assert.equal(result.ok, false, url);
        assert.match((result as { error: string }).error, /private/, url);
      }
    } finally {
      await client.close();
    }
  });
});
