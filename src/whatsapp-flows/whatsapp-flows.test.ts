import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { asClient, createWorkspace, ownerApi } from '../../test/factories.js';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { ENGINE } from '../../test/server.js';
import { withCallbackChecked } from '../../test/graph-stand-in.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { flowSendRepository, type Message } from '../messages/index.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import { accountWebhook } from '../whatsapp/webhook.delivery-fixtures.js';
import {
  bookingFlowJson,
  endpointErrorRate,
  endpointLatency,
  flowStatusChange,
  flowVersionExpiryWarning,
  misspeltFlowJson,
} from './whatsapp-flow.fixtures.js';
import type { WhatsappFlow, WhatsappFlowAlert } from './whatsapp-flow.schema.js';

const { server, graph, cloudWorkspace, connect, postWebhook } = await startWhatsappServer({ outbox: true });

/** A published Flow of the workspace's account, with its Flow JSON. */
async function publishedFlow(cloud: CloudWorkspace, name: string): Promise<WhatsappFlow> {
  const flow = (await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', { name, categories: ['OTHER'] })).body;
  await cloud.ws.action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: bookingFlowJson() });
  return (await cloud.ws.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id })).body;
}

/** A customer who just wrote to the business: their customer service window is open. */
async function customerWhoWrote(cloud: CloudWorkspace): Promise<string> {
  const phone = `+1415555${String(randomInt(1e4)).padStart(4, '0')}`;
  const webhook = inboundTextWebhook({ ...cloud, from: phone, text: 'Can I book?', timestamp: server.clock.now() });
  assert.equal((await postWebhook(webhook)).status, 200);
  return phone;
}

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The documented error shape, as far as these tests read it. */
interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
  validation_errors?: { error: string; line_start: number; column_start: number; pointers: { path: string }[] }[];
}

describe(`WhatsApp Flows (${ENGINE})`, () => {
  test('a Flow is created at Meta, its Flow JSON uploaded (Meta’s errors named in place), published and deprecated', async () => {
    const cloud = await cloudWorkspace();
    const created = await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', {
      name: 'Book a table',
      categories: ['APPOINTMENT_BOOKING'],
    });
    assert.equal(created.status, 200, created.text);
    const flow = created.body;
    assert.deepEqual([flow.status, flow.categories, flow.flow_json], ['DRAFT', ['APPOINTMENT_BOOKING'], null]);
    const asked = graph.requests.find((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${cloud.wabaId}/flows`);
    assert.deepEqual(asked?.body, { name: 'Book a table', categories: ['APPOINTMENT_BOOKING'] });
    assert.equal(graph.flows.get(flow.meta_flow_id)?.wabaId, cloud.wabaId, 'made in the workspace’s account');

    const misspelt = misspeltFlowJson();
    const refused = await cloud.ws.action<Problem>('update-whatsapp-flow-json', {
      whatsapp_flow_id: flow.id,
      flow_json: misspelt,
    });
    assert.equal(refused.status, 400, refused.text);
    const line = misspelt.split('\n').findIndex((text) => text.includes('"TextHeadline"')) + 1;
    const [metaError] = refused.body.validation_errors!;
    assert.deepEqual(
      [metaError!.error, metaError!.line_start, metaError!.pointers[0]!.path],
      ['INVALID_PROPERTY_VALUE', line, 'screens[0].layout.children[0].type'],
      'Meta’s error as Meta gives it',
    );
    assert.deepEqual(refused.body.errors, [
      {
        field: 'flow_json',
        message: `line ${line}, column ${metaError!.column_start}, screens[0].layout.children[0].type: Invalid value found for property 'type'.`,
      },
    ]);
    const upload = graph.requests.filter((r) => r.path === `/${API_VERSION}/${flow.meta_flow_id}/assets`).at(-1)!;
    assert.deepEqual((upload.body as { fields: object }).fields, { name: 'flow.json', asset_type: 'FLOW_JSON' });
    const kept = (await cloud.ws.action<WhatsappFlow>('get-whatsapp-flow', { whatsapp_flow_id: flow.id })).body;
    assert.equal(kept.flow_json, misspelt, 'the draft is kept, errors and all, to be fixed');
    assert.equal(kept.validation_errors.length, 1);
    assert.match(kept.preview_url!, /^https:\/\/business\.facebook\.com\/wa\/manage\/flows\//);
    assert.ok(Date.parse(kept.preview_expires_at!) > Date.now(), 'Meta’s preview link, until it expires');

    const early = await cloud.ws.action<Problem>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id });
    assert.equal(early.status, 409, 'Meta does not publish a Flow with errors');
    assert.match(early.body.detail, /validation errors/);

    const notJson = await cloud.ws.action<Problem>('update-whatsapp-flow-json', {
      whatsapp_flow_id: flow.id,
      flow_json: '{"version": "7.0",',
    });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.errors![0]!.field, 'flow_json');

    const fixed = await cloud.ws.action<WhatsappFlow>('update-whatsapp-flow-json', {
      whatsapp_flow_id: flow.id,
      flow_json: bookingFlowJson(),
    });
    assert.equal(fixed.status, 200, fixed.text);
    assert.deepEqual(fixed.body.validation_errors, []);
    assert.equal(graph.flows.get(flow.meta_flow_id)!.json, bookingFlowJson(), 'Meta has the document as written');

    const published = await cloud.ws.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id });
    assert.equal(published.status, 200, published.text);
    assert.equal(published.body.status, 'PUBLISHED');
    const frozen = await cloud.ws.action<Problem>('update-whatsapp-flow-json', {
      whatsapp_flow_id: flow.id,
      flow_json: bookingFlowJson(),
    });
    assert.equal(frozen.status, 409, frozen.text);
    assert.match(frozen.body.detail, /can't be updated/);
    const kept2 = await cloud.ws.action<Problem>('delete-whatsapp-flow', { whatsapp_flow_id: flow.id });
    assert.equal(kept2.status, 409, 'only a draft is deleted');

    const listed = await cloud.ws.action<WhatsappFlow[]>('list-whatsapp-flows', { status: 'PUBLISHED' });
    assert.deepEqual(
      listed.body.map((f) => f.name),
      ['Book a table'],
    );
    const deprecated = await cloud.ws.action<WhatsappFlow>('deprecate-whatsapp-flow', { whatsapp_flow_id: flow.id });
    assert.equal(deprecated.body.status, 'DEPRECATED');
    assert.deepEqual((await cloud.ws.action<WhatsappFlow[]>('list-whatsapp-flows', { status: 'PUBLISHED' })).body, []);
    const again = await cloud.ws.action<Problem & { meta_code: number }>('deprecate-whatsapp-flow', {
      whatsapp_flow_id: flow.id,
    });
    assert.deepEqual([again.status, again.body.meta_code], [409, 139003], 'Meta’s code for a Flow already deprecated');

    const stranger = await createWorkspace(server);
    const foreign = await stranger.action<Problem>('get-whatsapp-flow', { whatsapp_flow_id: flow.id });
    assert.equal(foreign.status, 404, 'another workspace does not see it');
  });

  test('create-whatsapp-flow › a copy takes the Flow JSON; a name taken is Meta’s 409; a draft is deleted', async () => {
    const cloud = await cloudWorkspace();
    const first = (
      await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', { name: 'Sign up', categories: ['SIGN_UP'] })
    ).body;
    await cloud.ws.action('update-whatsapp-flow-json', { whatsapp_flow_id: first.id, flow_json: bookingFlowJson() });
    const taken = await cloud.ws.action<Problem>('create-whatsapp-flow', { name: 'Sign up', categories: ['OTHER'] });
    assert.equal(taken.status, 409);
    assert.match(taken.body.detail, /Flow name is not unique/);

    const copy = await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', {
      name: 'Sign up (copy)',
      categories: ['SIGN_UP', 'SURVEY'],
      clone_whatsapp_flow_id: first.id,
    });
    assert.equal(copy.status, 200, copy.text);
    assert.equal(copy.body.flow_json, bookingFlowJson());
    assert.equal(graph.flows.get(copy.body.meta_flow_id)!.json, bookingFlowJson(), 'Meta cloned it');
    const asked = graph.requests.filter((r) => r.path === `/${API_VERSION}/${cloud.wabaId}/flows`).at(-1)!;
    assert.equal((asked.body as Record<string, unknown>).clone_flow_id, first.meta_flow_id);

    const deleted = await cloud.ws.action('delete-whatsapp-flow', { whatsapp_flow_id: copy.body.id });
    assert.deepEqual(deleted.body, { id: copy.body.id, deleted: true });
    assert.equal(graph.flows.has(copy.body.meta_flow_id), false, 'gone at Meta');
    const names = (await cloud.ws.action<WhatsappFlow[]>('list-whatsapp-flows', {})).body.map((f) => f.name);
    assert.deepEqual(names, ['Sign up']);
  });

  test('sync-whatsapp-flows › Flows made in WhatsApp Manager are added, those deleted there forgotten', async () => {
    const cloud = await cloudWorkspace();
    const ours = (
      await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', { name: 'Survey', categories: ['SURVEY'] })
    ).body;
    const elsewhere = { wabaId: cloud.wabaId, categories: ['CONTACT_US'], json: null, validationErrors: [] };
    for (const [id, name] of [
      ['901', 'Contact'],
      ['902', 'Callback'],
      ['903', 'Feedback'],
    ] as const) {
      graph.flows.set(`${cloud.wabaId}${id}`, { ...elsewhere, name, status: 'PUBLISHED' });
    }
    graph.flows.delete(ours.meta_flow_id);
    const synced = await cloud.ws.action<WhatsappFlow[]>('sync-whatsapp-flows', {});
    assert.equal(synced.status, 200, synced.text);
    assert.deepEqual(
      synced.body.map((f) => [f.name, f.status, f.flow_json]),
      [
        ['Callback', 'PUBLISHED', null],
        ['Contact', 'PUBLISHED', null],
        ['Feedback', 'PUBLISHED', null],
      ],
      'read across Meta’s pages; the one deleted at Meta is forgotten',
    );
  });

  test('a workspace on the simulator gets 409; a role without the templates permission gets 403, and may read', async () => {
    const simulated = await createWorkspace(server);
    const refused = await simulated.action<Problem>('create-whatsapp-flow', { name: 'A', categories: ['OTHER'] });
    assert.equal(refused.status, 409);
    assert.match(refused.body.detail, /WhatsApp Cloud/);
    assert.deepEqual((await simulated.action('list-whatsapp-flows', {})).body, []);

    const owner = await ownerSession(server);
    await connect(owner.workspaceId);
    const agent = await joinedTeammate(server, owner, 'agent');
    const issued = await agent.send<{ token: string; id: string }>('POST', '/api/dashboard/tokens', { name: 'agent' });
    const asAgent = asClient(server.http, {
      workspaceId: owner.workspaceId,
      userId: '',
      token: issued.body.token,
      tokenId: issued.body.id,
    });
    const denied = await asAgent.action<Problem>('create-whatsapp-flow', { name: 'A', categories: ['OTHER'] });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'permission_denied');
    assert.equal((await asAgent.action('list-whatsapp-flows', {})).status, 200);
  });

  test('send-whatsapp-flow › Meta’s interactive flow message goes out through the outbox, its flow_token kept with it', async () => {
    const cloud = await cloudWorkspace();
    const flow = await publishedFlow(cloud, 'Book a table');
    const phone = await customerWhoWrote(cloud);
    const sent = await cloud.ws.action<Message>('send-whatsapp-flow', {
      phone,
      whatsapp_flow_id: flow.id,
      header: 'Rosa',
      body: 'Book your table in a minute',
      cta: 'Book a table',
      data: { restaurant: 'Rosa' },
    });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.status, 'queued');
    const { interactive } = sent.body.content as { interactive: { action: { parameters: { flow_token: string } } } };
    const flowToken = interactive.action.parameters.flow_token;
    assert.match(flowToken, /^[0-9a-f-]{36}$/, 'Parley made the token');

    await until('the Flow to reach Meta', () => graph.accepted.some((r) => JSON.stringify(r.body).includes(flowToken)));
    const request = graph.accepted.find((r) => JSON.stringify(r.body).includes(flowToken))!;
    assert.equal(request.path, `/${API_VERSION}/${cloud.phoneNumberId}/messages`);
    assert.deepEqual(withCallbackChecked(request.body), {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'interactive',
      interactive: {
        type: 'flow',
        header: { type: 'text', text: 'Rosa' },
        body: { text: 'Book your table in a minute' },
        action: {
          name: 'flow',
          parameters: {
            flow_message_version: '3',
            flow_token: flowToken,
            flow_id: flow.meta_flow_id,
            flow_cta: 'Book a table',
            flow_action: 'navigate',
            flow_action_payload: { screen: 'BOOKING', data: { restaurant: 'Rosa' } },
          },
        },
      },
    });
    const link = await flowSendRepository(server.app.services.deps.db).find(cloud.ws.workspaceId, flowToken);
    assert.deepEqual(
      [link?.message_id, link?.whatsapp_flow_id, link?.meta_flow_id],
      [sent.body.id, flow.id, flow.meta_flow_id],
      'the token names the send, for the answer to find',
    );

    const exchange = await cloud.ws.action<Message>('send-whatsapp-flow', {
      phone,
      whatsapp_flow_id: flow.id,
      body: 'Pick a time',
      cta: 'Open',
      flow_action: 'data_exchange',
    });
    const parameters = (exchange.body.content as { interactive: { action: { parameters: object } } }).interactive.action
      .parameters;
    assert.equal('flow_action_payload' in parameters, false, 'the data endpoint gives the first screen');
  });

  test('send-whatsapp-flow › an approval token’s Flow waits; approved, it goes out with its flow_token kept', async () => {
    const owner = await ownerSession(server);
    const number = await connect(owner.workspaceId);
    const cloud = { ws: await ownerApi(server, owner), ...number };
    const flow = await publishedFlow(cloud, 'Book a table');
    const phone = await customerWhoWrote(cloud);
    const agent = await owner.send<{ token: string; id: string }>('POST', '/api/dashboard/tokens', {
      name: 'Agent',
      mode: 'approval',
    });
    const asAgent = asClient(server.http, { ...owner, token: agent.body.token, tokenId: agent.body.id });
    const held = await asAgent.action<{ id: string; status: string; content: object }>('send-whatsapp-flow', {
      phone,
      whatsapp_flow_id: flow.id,
      body: 'Book your table in a minute',
      cta: 'Book a table',
      reasoning: 'They asked to book',
    });
    assert.equal(held.status, 202, held.text);
    assert.equal(held.body.status, 'awaiting_approval');
    const approved = await owner.send<Message>('POST', `/api/dashboard/held-sends/${held.body.id}/approve`, {});
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.body.content, held.body.content, 'the Flow as the agent made it, flow_token and all');
    const { interactive } = approved.body.content as {
      interactive: { action: { parameters: { flow_token: string } } };
    };
    const link = await flowSendRepository(server.app.services.deps.db).find(
      owner.workspaceId,
      interactive.action.parameters.flow_token,
    );
    assert.deepEqual([link?.message_id, link?.whatsapp_flow_id], [approved.body.id, flow.id]);
    await until('the Flow to reach Meta', () =>
      graph.accepted.some((r) => JSON.stringify(r.body).includes(interactive.action.parameters.flow_token)),
    );
  });

  test('send-whatsapp-flow › a draft Flow is 409; a contact who has not written is outside the window (422)', async () => {
    const cloud = await cloudWorkspace();
    const draft = (
      await cloud.ws.action<WhatsappFlow>('create-whatsapp-flow', { name: 'Draft', categories: ['OTHER'] })
    ).body;
    const phone = await customerWhoWrote(cloud);
    const body = { phone, whatsapp_flow_id: draft.id, body: 'Hi', cta: 'Open' };
    const refused = await cloud.ws.action<Problem>('send-whatsapp-flow', body);
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.detail, /DRAFT/);

    const published = await publishedFlow(cloud, 'Published');
    const silent = await cloud.ws.action<{ id: string }>('create-contact', { phone: '+14155550123' });
    const toSilent = { ...body, phone: undefined, contact_id: silent.body.id, whatsapp_flow_id: published.id };
    const closed = await cloud.ws.action<Problem>('send-whatsapp-flow', toSilent);
    assert.equal(closed.status, 422, closed.text);
    assert.equal(closed.body.code, 'customer_service_window_closed');
  });

  test('Meta’s flows webhook › a status change is the Flow’s status; each alert is kept with its Flow, newest first', async () => {
    const cloud = await cloudWorkspace();
    const flow = await publishedFlow(cloud, 'Book a table');
    const deliver = async (value: Record<string, unknown>) =>
      assert.equal((await postWebhook(accountWebhook(cloud.wabaId, 'flows', value, new Date()))).status, 200);
    await deliver(endpointErrorRate(flow.meta_flow_id));
    await deliver(endpointLatency(flow.meta_flow_id));
    await deliver(flowVersionExpiryWarning(flow.meta_flow_id));
    await deliver(flowStatusChange(flow.meta_flow_id, 'PUBLISHED', 'BLOCKED'));
    await deliver(flowStatusChange('1', 'DRAFT', 'PUBLISHED')); // a Flow no workspace has: nothing to apply

    const listed = (await cloud.ws.action<WhatsappFlow[]>('list-whatsapp-flows', {})).body;
    assert.deepEqual(
      listed.map((f) => f.status),
      ['BLOCKED'],
      'Meta blocked it',
    );
    const alerts = await cloud.ws.action<WhatsappFlowAlert[]>('list-whatsapp-flow-alerts', {
      whatsapp_flow_id: flow.id,
    });
    assert.equal(alerts.status, 200, alerts.text);
    assert.deepEqual(
      alerts.body.map((a) => [a.event, a.alert_state]),
      [
        ['FLOW_STATUS_CHANGE', null],
        ['FLOW_VERSION_EXPIRY_WARNING', null],
        ['ENDPOINT_LATENCY', 'ACTIVATED'],
        ['ENDPOINT_ERROR_RATE', 'ACTIVATED'],
      ],
    );
    assert.match(alerts.body[1]!.message!, /will freeze in 21 days/, 'a version warning’s words are Meta’s `warning`');
    assert.equal(alerts.body[3]!.details.error_rate, 14.28, 'Meta’s figures, as sent');

    const stranger = await createWorkspace(server);
    const foreign = await stranger.action('list-whatsapp-flow-alerts', { whatsapp_flow_id: flow.id });
    assert.equal(foreign.status, 404);
  });
});
