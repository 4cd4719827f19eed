import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { flowSendRepository } from '../messages/index.js';
import type { Template } from '../templates/template.schema.js';
import { templateStatusWebhook } from '../whatsapp/webhook.fixtures.js';
import { bookingFlowJson } from './whatsapp-flow.fixtures.js';
import type { WhatsappFlow } from './whatsapp-flow.schema.js';

const { server, graph, cloudWorkspace, postWebhook } = await startWhatsappServer({ outbox: true });

interface Problem {
  code: string;
  errors?: { field: string; message: string }[];
}

async function publishedFlow(cloud: CloudWorkspace): Promise<WhatsappFlow> {
  const body = { name: 'Book a table', categories: ['APPOINTMENT_BOOKING'] };
  const flow = (await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', body)).body;
  await cloud.ws.action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: bookingFlowJson() });
  return (await cloud.ws.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id })).body;
}

/** A template whose FLOW button opens `flow` on its first screen, approved by Meta's webhook. */
async function approvedFlowTemplate(cloud: CloudWorkspace, flow: WhatsappFlow): Promise<Template> {
  const made = await cloud.ws.action<Template & { meta_template_id: string }>('create-template', {
    name: 'book_a_table',
    category: 'UTILITY',
    translations: [
      {
        language: 'en_US',
        body: 'Your table is waiting: book it in a minute.',
        buttons: [
          {
            type: 'FLOW',
            text: 'Book now',
            flow_id: flow.meta_flow_id,
            flow_action: 'navigate',
            navigate_screen: 'BOOKING',
          },
        ],
      },
    ],
  });
  assert.equal(made.status, 200, made.text);
  const review = templateStatusWebhook({
    wabaId: cloud.wabaId,
    templateId: Number(made.body.meta_template_id),
    name: 'book_a_table',
    language: 'en_US',
    event: 'APPROVED',
  });
  assert.equal((await postWebhook(review)).status, 200);
  return made.body;
}

describe(`Templates with a FLOW button (${ENGINE})`, () => {
  test('create-template › Meta gets the FLOW button as "Sending a Flow" documents it; a button naming no Flow is 400', async () => {
    const cloud = await cloudWorkspace();
    const flow = await publishedFlow(cloud);
    await approvedFlowTemplate(cloud, flow);
    const asked = graph.requests.find((r) => r.path === `/${API_VERSION}/${cloud.wabaId}/message_templates`)!;
    const components = (asked.body as { components: { type: string; buttons?: unknown[] }[] }).components;
    assert.deepEqual(components.find((c) => c.type === 'BUTTONS')?.buttons, [
      {
        type: 'FLOW',
        text: 'Book now',
        flow_id: flow.meta_flow_id,
        flow_action: 'navigate',
        navigate_screen: 'BOOKING',
      },
    ]);

    const nameless = await cloud.ws.action<Problem>('create-template', {
      name: 'no_flow',
      category: 'UTILITY',
      translations: [{ language: 'en_US', body: 'Hi', buttons: [{ type: 'FLOW', text: 'Open' }] }],
    });
    assert.equal(nameless.status, 400, nameless.text);
    assert.deepEqual(
      nameless.body.errors?.map((e) => e.field),
      ['translations.0.buttons.0.flow_id'],
    );
  });

  test('a campaign of it › each recipient’s send has its own flow_token, in Meta’s button component and kept with the message', async () => {
    const cloud = await cloudWorkspace();
    const flow = await publishedFlow(cloud);
    const template = await approvedFlowTemplate(cloud, flow);
    const phones = ['+14155550161', '+14155550162', '+14155550163'];
    const contactIds: string[] = [];
    for (const phone of phones) {
      contactIds.push((await cloud.ws.action<{ id: string }>('create-contact', { phone })).body.id);
    }
    const campaign = await cloud.ws.action<{ id: string }>('create-campaign', {
      name: 'Tables',
      template_id: template.id,
      audience: { contact_ids: contactIds },
    });
    assert.equal(campaign.status, 200, campaign.text);
    const { services } = server.app;
    await services.scheduler.runDue(cloud.ws.workspaceId);
    services.outbox.wake();
    await services.outbox.idle();

    const sent = graph.accepted.filter(
      (r) => (r.body as { template?: { name: string } }).template?.name === 'book_a_table',
    );
    assert.equal(sent.length, 3);
    const sends = flowSendRepository(services.deps.db);
    const tokens = new Set<string>();
    for (const request of sent) {
      const { template: sentTemplate } = request.body as { template: { components: Record<string, unknown>[] } };
      const button = sentTemplate.components.find((c) => c.type === 'button')!;
      const token = (button.parameters as { action: { flow_token: string } }[])[0]!.action.flow_token;
      assert.deepEqual(button, {
        type: 'button',
        sub_type: 'flow',
        index: '0',
        parameters: [{ type: 'action', action: { flow_token: token } }],
      });
      const kept = await sends.find(cloud.ws.workspaceId, token);
      assert.equal(kept?.meta_flow_id, flow.meta_flow_id, 'the token names the send, for the answer to find');
      tokens.add(token);
    }
    assert.equal(tokens.size, 3, 'a token per recipient');
  });
});
