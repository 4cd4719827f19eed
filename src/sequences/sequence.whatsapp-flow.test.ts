import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { customerPhone, flowConversation } from '../../test/flow-conversation.js';
import { withCallbackChecked } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { flowSendRepository } from '../messages/index.js';
import { bookingFlowJson } from '../whatsapp-flows/whatsapp-flow.fixtures.js';
import type { WhatsappFlow } from '../whatsapp-flows/whatsapp-flow.schema.js';
import type { Sequence } from './sequence.schema.js';

const bed = await startWhatsappServer({ outbox: true });
const { graph, server, cloudWorkspace } = bed;
const { settle, writes } = flowConversation(bed);

async function bookingForm(cloud: CloudWorkspace, publish = true): Promise<WhatsappFlow> {
  const name = `Book a table ${randomInt(1e9)}`;
  const flow = (await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', { name, categories: ['OTHER'] })).body;
  await cloud.ws.action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: bookingFlowJson() });
  if (!publish) return flow;
  return (await cloud.ws.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id })).body;
}

const flowStep = (whatsappFlowId: string, extra: object = {}) => ({
  action: {
    type: 'send_whatsapp_flow',
    whatsapp_flow_id: whatsappFlowId,
    text: 'Hi {{contact.first_name}}, book your table',
    cta: 'Book a table',
    screen: 'BOOKING',
    ...extra,
  },
});

async function enrol(cloud: CloudWorkspace, steps: object[], phone: string) {
  const saved = await cloud.ws.action<Sequence>('save-sequence', {
    name: `Bookings ${randomInt(1e9)}`,
    exit_on: { reply: false },
    steps,
  });
  assert.equal(saved.status, 200, saved.text);
  const enrolled = await cloud.ws.action('trigger-sequence', { sequence_id: saved.body.id, phone });
  assert.equal(enrolled.status, 200, enrolled.text);
  // Each step's job is due once the one before it has run.
  for (let i = 0; i < steps.length; i++) await settle(cloud);
  return saved.body.id;
}

const enrolments = async (cloud: CloudWorkspace, id: string) =>
  (await cloud.ws.action<Sequence>('get-sequence', { sequence_id: id })).body.enrolments;

describe(`a sequence's WhatsApp Flow step (${ENGINE})`, () => {
  test('sends Meta’s Flow message inside the window, its token kept for the answer, and goes on', async () => {
    const cloud = await cloudWorkspace();
    const form = await bookingForm(cloud);
    const customer = customerPhone();
    await writes(cloud, customer, { text: 'Hello' });
    const id = await enrol(cloud, [flowStep(form.id), { action: { type: 'add_tag', tag: 'invited' } }], customer);

    const request = graph.requests
      .filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
      .find(
        (r) =>
          (r.body as { to: string; type: string }).to === customer &&
          (r.body as { type: string }).type === 'interactive',
      );
    assert.ok(request, 'the Flow message reached Meta');
    const body = withCallbackChecked(request.body) as {
      interactive: { action: { parameters: { flow_token: string } } };
    };
    const flowToken = body.interactive.action.parameters.flow_token;
    // Meta's "Send a Flow" (WhatsApp Flows > Sending a Flow): an interactive message of type flow.
    assert.deepEqual(body, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: customer,
      type: 'interactive',
      interactive: {
        type: 'flow',
        body: { text: 'Hi Ada, book your table' },
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
    const send = await flowSendRepository(server.app.services.deps.db).find(cloud.ws.workspaceId, flowToken);
    assert.equal(send?.whatsapp_flow_id, form.id, 'the token names the send, for the answer to find');
    assert.equal((await enrolments(cloud, id)).completed, 1);
    const contact = await cloud.ws.action<{ tags: string[] }>('get-contact', { phone: customer });
    assert.deepEqual(contact.body.tags, ['invited']);
  });

  test('outside the window the step is skipped, or fails the enrolment when it says so', async () => {
    const cloud = await cloudWorkspace();
    const form = await bookingForm(cloud);
    const skipped = await enrol(cloud, [flowStep(form.id), { action: { type: 'add_tag', tag: 'x' } }], customerPhone());
    assert.equal((await enrolments(cloud, skipped)).completed, 1);
    const failing = await enrol(cloud, [flowStep(form.id, { outside_window: 'fail' })], customerPhone());
    assert.equal((await enrolments(cloud, failing)).failed, 1);
  });

  test('save-sequence refuses a WhatsApp Flow that is not published, at the step’s field', async () => {
    const cloud = await cloudWorkspace();
    const draft = await bookingForm(cloud, false);
    const refused = await cloud.ws.action<{ errors: { field: string; code: string }[] }>('save-sequence', {
      name: `Bookings ${randomInt(1e9)}`,
      steps: [flowStep(draft.id)],
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(
      refused.body.errors.map((e) => [e.field, e.code]),
      [['/steps/0/action/whatsapp_flow_id', 'sequences.whatsapp_flow_not_published']],
    );
  });
});
