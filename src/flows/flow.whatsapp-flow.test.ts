import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { customerPhone, flowConversation } from '../../test/flow-conversation.js';
import { withCallbackChecked } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { Message } from '../messages/index.js';
import type { FlowRecord } from '../triggers/trigger.schema.js';
import { documented, documentedWebhook } from '../whatsapp/webhook.fixtures.js';
import { bookingFlowJson } from '../whatsapp-flows/whatsapp-flow.fixtures.js';
import type { WhatsappFlow } from '../whatsapp-flows/whatsapp-flow.schema.js';
import type { Flow } from './flow.schema.js';

const bed = await startWhatsappServer({ outbox: true });
const { graph, server, cloudWorkspace, postWebhook } = bed;
const { sentTo, settle, writes } = flowConversation(bed);

/** A WhatsApp Flow of the workspace's account with the booking form, published unless asked otherwise. */
async function bookingForm(cloud: CloudWorkspace, publish = true): Promise<WhatsappFlow> {
  const name = `Book a table ${randomInt(1e9)}`;
  const flow = (await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', { name, categories: ['OTHER'] })).body;
  await cloud.ws.action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: bookingFlowJson() });
  if (!publish) return flow;
  return (await cloud.ws.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id })).body;
}

/** The florist's booking bot: the form, then a branch on the answer's seats, each confirming in its words. */
const bookingBot = (whatsappFlowId: string) => ({
  start: 'form',
  keywords: ['book'],
  nodes: [
    {
      id: 'form',
      type: 'send_whatsapp_flow',
      whatsapp_flow_id: whatsappFlowId,
      header: 'Rosa',
      text: 'Hi {{contact.first_name}}, book your table here',
      footer: 'Takes a minute',
      cta: 'Book a table',
      save_answers: [{ field: 'name', attribute: 'booked_as' }],
      timeout: 'PT1H',
      next: 'seats',
      on_timeout: 'nudge',
    },
    {
      id: 'seats',
      type: 'branch',
      branches: [{ when: { answer_field: 'seats', equals: '4' }, next: 'family' }],
      default: 'couple',
    },
    { id: 'family', type: 'send_text', text: 'A table for four on {{answer.day}}, {{answer.name}}.', next: 'end' },
    { id: 'couple', type: 'send_text', text: 'A table for two, {{answer.name}}.', next: 'end' },
    { id: 'nudge', type: 'send_text', text: 'Still want that table?', next: 'end' },
    { id: 'end', type: 'end' },
  ],
});

async function saveBot(cloud: CloudWorkspace, definition: object) {
  const saved = await cloud.ws.action<Flow>('save-flow', { name: `Bookings ${randomInt(1e9)}`, definition });
  assert.equal(saved.status, 200, saved.text);
  return saved.body;
}

/** The Flow message the stand-in received for the customer, as Meta's "Send a Flow" body. */
function flowMessageTo(cloud: CloudWorkspace, phone: string) {
  type Sent = {
    to: string;
    type: string;
    interactive?: { type: string; action: { parameters: { flow_token: string } } };
  };
  const request = graph.requests
    .filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
    .filter((r) => (r.body as Sent).to === phone && (r.body as Sent).interactive?.type === 'flow')
    .at(-1);
  assert.ok(request, 'a Flow message reached Meta');
  return request.body as Sent & { interactive: NonNullable<Sent['interactive']> };
}

/** The customer submits the Flow: Meta's nfm_reply with the token given, in reply to the Flow message. */
async function submits(cloud: CloudWorkspace, phone: string, flowToken: string, fields: Record<string, unknown>) {
  const messages = await cloud.ws.action<Message[]>('list-messages', { phone, limit: 5 });
  const flowMessage = messages.body.find((m) => m.direction === 'outbound' && m.type === 'interactive');
  const answer = documented.flowResponse(phone.slice(1), `wamid.${randomUUID()}`, flowMessage!.provider_message_id!, {
    flow_token: flowToken,
    ...fields,
  });
  answer.timestamp = String(Math.floor(server.clock.now().getTime() / 1000));
  assert.equal((await postWebhook(documentedWebhook({ phoneNumberId: cloud.phoneNumberId }, answer))).status, 200);
  await settle(cloud);
}

/** The flow's runs by state (get-flow; the trigger feed may be polled only so often). */
async function runs(cloud: CloudWorkspace, flowId: string): Promise<Flow['runs']> {
  return (await cloud.ws.action<Flow>('get-flow', { flow_id: flowId })).body.runs;
}

describe(`a flow's WhatsApp Flow node (${ENGINE})`, () => {
  test('sends Meta’s Flow message, waits for that send’s answer, branches on its fields and fills {{answer.…}}', async () => {
    const cloud = await cloudWorkspace();
    const form = await bookingForm(cloud);
    const bot = await saveBot(cloud, bookingBot(form.id));
    const customer = customerPhone();
    await writes(cloud, customer, { text: 'Book' });

    const sent = flowMessageTo(cloud, customer);
    const flowToken = sent.interactive.action.parameters.flow_token;
    assert.match(flowToken, /^[0-9a-f-]{36}$/);
    // Meta's "Send a Flow" (WhatsApp Flows > Sending a Flow): an interactive message of type flow.
    assert.deepEqual(withCallbackChecked(sent), {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: customer,
      type: 'interactive',
      interactive: {
        type: 'flow',
        header: { type: 'text', text: 'Rosa' },
        body: { text: 'Hi Ada, book your table here' },
        footer: { text: 'Takes a minute' },
        action: {
          name: 'flow',
          parameters: {
            flow_message_version: '3',
            flow_token: flowToken,
            flow_id: form.meta_flow_id,
            flow_cta: 'Book a table',
            flow_action: 'navigate',
            flow_action_payload: { screen: 'BOOKING' },
          },
        },
      },
    });
    assert.equal((await runs(cloud, bot.id)).waiting, 1);

    await writes(cloud, customer, { text: 'Is there parking?' });
    await submits(cloud, customer, randomUUID(), { name: 'Someone else', seats: '4' });
    assert.equal((await runs(cloud, bot.id)).waiting, 1, 'a text and another send’s answer leave it waiting');
    assert.equal(sentTo(cloud, customer).length, 1);

    await submits(cloud, customer, flowToken, { name: 'Ada L', day: '2025-06-01', seats: '4', reminders: true });
    assert.deepEqual(sentTo(cloud, customer).slice(1), ['text:A table for four on 2025-06-01, Ada L.']);
    assert.deepEqual([(await runs(cloud, bot.id)).completed, (await runs(cloud, bot.id)).waiting], [1, 0]);
    const contact = await cloud.ws.action<{ custom_attributes: Record<string, unknown> }>('get-contact', {
      phone: customer,
    });
    assert.equal(contact.body.custom_attributes.booked_as, 'Ada L', 'the answer’s field kept as the contact attribute');
    const stats = await cloud.ws.action<{ edges: { from: string; exit: string; to: string }[] }>('get-flow-stats', {
      flow_id: bot.id,
    });
    assert.deepEqual(stats.body.edges.map((e) => `${e.from}:${e.exit}:${e.to}`).sort(), [
      'family:next:end',
      'form:next:seats',
      'seats:branches/0/next:family',
    ]);

    // Another run takes the other branch: two seats.
    await writes(cloud, customer, { text: 'book' });
    const second = flowMessageTo(cloud, customer).interactive.action.parameters.flow_token;
    assert.notEqual(second, flowToken, 'each send has its own token');
    await submits(cloud, customer, second, { name: 'Ada', seats: '2' });
    assert.equal(sentTo(cloud, customer).at(-1), 'text:A table for two, Ada.');
  });

  test('without an answer in time the run takes on_timeout; an answer after that moves nothing', async () => {
    const cloud = await cloudWorkspace();
    const form = await bookingForm(cloud);
    const bot = await saveBot(cloud, bookingBot(form.id));
    const customer = customerPhone();
    await writes(cloud, customer, { text: 'book' });
    const flowToken = flowMessageTo(cloud, customer).interactive.action.parameters.flow_token;
    server.clock.advance(3_600_000);
    await settle(cloud);
    assert.deepEqual(sentTo(cloud, customer).slice(1), ['text:Still want that table?']);
    assert.equal((await runs(cloud, bot.id)).completed, 1);
    await submits(cloud, customer, flowToken, { name: 'Ada', seats: '4' });
    assert.equal(sentTo(cloud, customer).length, 2, 'the ended run sends nothing more');
  });

  test('save-flow refuses a node whose WhatsApp Flow is not published or unknown, naming its field; a draft keeps it', async () => {
    const cloud = await cloudWorkspace();
    const draftForm = await bookingForm(cloud, false);
    const refused = await cloud.ws.action<{ errors: { field: string; code: string; message: string }[] }>('save-flow', {
      name: `Bookings ${randomInt(1e9)}`,
      definition: bookingBot(draftForm.id),
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body.errors, [
      {
        field: '/definition/nodes/0/whatsapp_flow_id',
        code: 'flows.whatsapp_flow_not_published',
        message: 'names a WhatsApp Flow that is DRAFT: only a published Flow is sent',
        params: { status: 'DRAFT' },
      },
    ]);
    const unknown = await cloud.ws.action<{ errors: { field: string; code: string }[] }>('save-flow', {
      name: `Bookings ${randomInt(1e9)}`,
      definition: bookingBot(randomUUID()),
    });
    assert.deepEqual(
      unknown.body.errors.map((e) => [e.field, e.code]),
      [['/definition/nodes/0/whatsapp_flow_id', 'flows.unknown_whatsapp_flow']],
    );

    const published = await bookingForm(cloud);
    const bot = await saveBot(cloud, bookingBot(published.id));
    const draft = await cloud.ws.action<Flow>('save-flow-draft', {
      flow_id: bot.id,
      definition: bookingBot(draftForm.id),
    });
    assert.equal(draft.status, 200, draft.text);
    assert.deepEqual(
      draft.body.draft!.problems.map((p) => p.field),
      ['/definition/nodes/0/whatsapp_flow_id'],
    );
    const publish = await cloud.ws.action('publish-flow', { flow_id: bot.id });
    assert.equal(publish.status, 400, publish.text);
  });

  test('the node needs the customer service window: outside it the run fails and nothing is sent', async () => {
    const cloud = await cloudWorkspace();
    const form = await bookingForm(cloud);
    const bot = await saveBot(cloud, bookingBot(form.id));
    const customer = customerPhone();
    const run = await cloud.ws.action<FlowRecord>('trigger-flow', { flow_id: bot.id, phone: customer });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.status, 'failed');
    await settle(cloud);
    assert.deepEqual(sentTo(cloud, customer), []);
  });
});
