import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { metaError } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { documentedStatusWebhook, type DocumentedStatusOptions } from '../whatsapp/webhook.delivery-fixtures.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Message } from './message.schema.js';

const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer({ outbox: true });
const HOUR = 3_600_000;

/** A workspace whose customer wrote in (the window is open), and a text sent to them, settled. */
async function sentText(phone: string): Promise<{ cloud: CloudWorkspace; message: Message }> {
  const cloud = await cloudWorkspace();
  await customerWrites(cloud, phone);
  const queued = await cloud.ws.action<Message>('send-text-message', { phone, message: 'hi' });
  assert.equal(queued.status, 200, queued.text);
  return { cloud, message: await settled(cloud, queued.body.id) };
}

async function settled(cloud: CloudWorkspace, messageId: string): Promise<Message> {
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
  const response = await cloud.ws.action<Message>('get-message', { message_id: messageId });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function postStatus(
  cloud: CloudWorkspace,
  options: Omit<DocumentedStatusOptions, 'phoneNumberId' | 'timestamp'>,
) {
  const body = documentedStatusWebhook({
    ...options,
    phoneNumberId: cloud.phoneNumberId,
    timestamp: server.clock.now(),
  });
  const response = await postWebhook<{ statuses: number }>(body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const sendsFrom = (phoneNumberId: string) =>
  graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${phoneNumberId}/messages`);

/** The contact writes in, opening the window for a text reply. */
async function customerWrites(cloud: CloudWorkspace, phone: string): Promise<void> {
  const inbound = inboundTextWebhook({
    phoneNumberId: cloud.phoneNumberId,
    from: phone,
    text: 'hi',
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(inbound)).status, 200);
}

describe(`delivery statuses (${ENGINE})`, () => {
  test('get-message › shows the pricing, conversation and callback data of Meta’s status webhooks', async () => {
    const { cloud, message } = await sentText('+14155550180');
    const wamid = message.provider_message_id!;
    await postStatus(cloud, { wamid, status: 'sent', recipient: '14155550180', callbackData: message.id });
    const expiresAt = new Date(Math.floor(server.clock.now().getTime() / 1000) * 1000 + 24 * HOUR);
    // `delivered` repeats pricing and conversation without the expiration: the one `sent` gave stays.
    await postStatus(cloud, { wamid, status: 'delivered', recipient: '14155550180', callbackData: message.id });
    const shown = (await cloud.ws.action<Message>('get-message', { message_id: message.id })).body;
    assert.equal(shown.status, 'delivered');
    assert.deepEqual(shown.pricing, { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' });
    assert.deepEqual(shown.conversation, {
      id: 'CONVERSATION_ID_9fd1c1a4',
      origin_type: 'marketing',
      expires_at: expiresAt.toISOString().replace('Z', '+00:00'),
    });
    assert.equal(shown.biz_opaque_callback_data, message.id);

    const other = await cloudWorkspace();
    const foreign = await other.ws.action('get-message', { message_id: message.id });
    assert.equal(foreign.status, 404, 'another workspace cannot read it');
  });

  test('webhook › a `played` status changes no status, but its per-message pricing is kept', async () => {
    const { cloud, message } = await sentText('+14155550181');
    const wamid = message.provider_message_id!;
    await postStatus(cloud, { wamid, status: 'read', recipient: '14155550181' });
    // Meta's per-message pricing (July 2025): `type` says what is charged; `billable` is deprecated and absent here.
    const pricing = { pricing_model: 'PMP', category: 'service', type: 'free_customer_service' };
    const answer = await postStatus(cloud, { wamid, status: 'played', recipient: '14155550181', pricing });
    assert.equal(answer.statuses, 0, 'no status changed');
    const shown = (await cloud.ws.action<Message>('get-message', { message_id: message.id })).body;
    assert.equal(shown.status, 'read');
    assert.deepEqual(shown.pricing, { ...pricing, billable: null });
  });

  test('get-message › a failure shows Meta’s code, title and details with a plain-language reason', async () => {
    const { cloud, message } = await sentText('+14155550181');
    const outcome = await postStatus(cloud, {
      wamid: message.provider_message_id!,
      status: 'failed',
      recipient: '14155550181',
    });
    assert.equal(outcome.statuses, 1);
    const shown = (await cloud.ws.action<Message>('get-message', { message_id: message.id })).body;
    assert.equal(shown.status, 'failed');
    const metaText =
      'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business';
    assert.deepEqual(shown.error, {
      code: 131050,
      title: metaText,
      details: metaText,
      reason: 'The recipient has stopped marketing messages from this business.',
    });
  });

  test('webhook › a status that arrives before Parley recorded the send is applied once it is', async () => {
    const cloud = await cloudWorkspace();
    const phone = '+14155550182';
    await customerWrites(cloud, phone);
    const wamid = `wamid.EARLY${randomInt(1e9)}`;
    // Meta's `delivered` overtakes the answer to the send (no callback data: an older send's shape).
    const early = await postStatus(cloud, { wamid, status: 'delivered', recipient: '14155550182' });
    assert.equal(early.statuses, 0, 'no message has that wamid yet');
    graph.failNext({
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: phone, wa_id: '14155550182' }],
        messages: [{ id: wamid }],
      },
    });
    const queued = await cloud.ws.action<Message>('send-text-message', { phone, message: 'hello' });
    const shown = await settled(cloud, queued.body.id);
    assert.equal(shown.provider_message_id, wamid);
    assert.equal(shown.status, 'delivered', 'the early status was kept and applied');
    assert.equal(shown.pricing?.category, 'marketing');
  });

  test('webhook › a status naming Parley’s id reconciles a send the outbox never recorded; it is not sent again', async () => {
    const cloud = await cloudWorkspace();
    const phone = '+14155550183';
    await customerWrites(cloud, phone);
    // The send's outcome is unknown to Parley (a 5xx here; a crash or a timeout in life): it is due again later.
    graph.failNext({ status: 500, body: metaError(131000, 'Something went wrong') });
    const queued = await cloud.ws.action<Message>('send-text-message', { phone, message: 'hello' });
    assert.equal((await settled(cloud, queued.body.id)).status, 'queued');
    assert.equal(sendsFrom(cloud.phoneNumberId).length, 1);

    const wamid = `wamid.RECONCILED${randomInt(1e9)}`;
    const outcome = await postStatus(cloud, {
      wamid,
      status: 'sent',
      recipient: '14155550183',
      callbackData: queued.body.id,
    });
    assert.equal(outcome.statuses, 1);
    server.clock.advance(HOUR);
    const shown = await settled(cloud, queued.body.id);
    assert.equal(shown.status, 'sent');
    assert.equal(shown.provider_message_id, wamid);
    assert.equal(shown.biz_opaque_callback_data, queued.body.id);
    assert.equal(sendsFrom(cloud.phoneNumberId).length, 1, 'the retry was cancelled: Meta had it');

    const stranger = await cloudWorkspace();
    const elsewhere = await postStatus(stranger, {
      wamid: `wamid.OTHER${randomInt(1e9)}`,
      status: 'read',
      recipient: '14155550183',
      callbackData: queued.body.id,
    });
    assert.equal(elsewhere.statuses, 0, 'another workspace’s status cannot name this message');
    assert.equal((await cloud.ws.action<Message>('get-message', { message_id: queued.body.id })).body.status, 'sent');
  });
});
