import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ownerSession } from '../../test/dashboard-session.js';
import { metaError } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';

const { graph, server, connect, postWebhook } = await startWhatsappServer();

interface Conversations {
  conversations: { contact_id: string; phone: string; unread: number }[];
}

describe(`inbox › read receipts (${ENGINE})`, () => {
  test('reading a conversation shows the customer blue ticks on WhatsApp; Meta refusing them fails nothing', async () => {
    const owner = await ownerSession(server);
    const number = await connect(owner.workspaceId);
    const wamid = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=';
    const customerWrites = async (id: string, text: string) => {
      const inbound = inboundTextWebhook({
        phoneNumberId: number.phoneNumberId,
        from: '16505551234',
        wamid: id,
        text,
        timestamp: server.clock.now(),
      });
      assert.equal((await postWebhook(inbound)).status, 200);
    };
    await customerWrites(wamid, 'Is my order on its way?');
    const listed = await owner.send<Conversations>('GET', '/api/dashboard/conversations');
    const conversation = listed.body.conversations.find((c) => c.phone === '+16505551234')!;
    assert.equal(conversation.unread, 1);

    const read = await owner.send('POST', `/api/dashboard/conversations/${conversation.contact_id}/read`, {});
    assert.equal(read.status, 200, read.text);
    const receipts = () =>
      graph.requests.filter(
        (r) =>
          r.path === `/${API_VERSION}/${number.phoneNumberId}/messages` &&
          r.headers.authorization === `Bearer ${number.accessToken}`,
      );
    // Meta's "mark message as read" request: the newest message, and with it every earlier one.
    assert.deepEqual(
      receipts().map((r) => r.body),
      [{ messaging_product: 'whatsapp', status: 'read', message_id: wamid }],
    );
    const reread = await owner.send('POST', `/api/dashboard/conversations/${conversation.contact_id}/read`, {});
    assert.equal(reread.status, 200, reread.text);
    assert.equal(receipts().length, 1, 'nothing new from the customer: Meta is not asked again');

    server.clock.advance(1000);
    await customerWrites('wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgB=', 'Hello?');
    graph.failNext({ status: 400, body: metaError(100, 'Invalid parameter') });
    const again = await owner.send('POST', `/api/dashboard/conversations/${conversation.contact_id}/read`, {});
    assert.equal(again.status, 200, 'the conversation is read in Parley all the same');
    assert.equal(receipts().length, 2, 'the new message was told to Meta, which refused');
  });

  test('with the workspace’s typing indicator on, opening a conversation also shows the customer a reply is coming', async () => {
    const owner = await ownerSession(server);
    const number = await connect(owner.workspaceId);
    const settings = await owner.send<{ typing_indicator: boolean }>('GET', '/api/dashboard/inbox/settings');
    assert.deepEqual(settings.body, { typing_indicator: false }, 'off by default');
    const saved = await owner.send('PUT', '/api/dashboard/inbox/settings', { typing_indicator: true });
    assert.equal(saved.status, 200, saved.text);
    const bad = await owner.send<{ code: string }>('PUT', '/api/dashboard/inbox/settings', { typing_indicator: 'yes' });
    assert.equal(bad.status, 400);
    assert.deepEqual((await owner.send('GET', '/api/dashboard/inbox/settings')).body, { typing_indicator: true });

    const wamid = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA';
    const inbound = inboundTextWebhook({
      phoneNumberId: number.phoneNumberId,
      from: '16505551299',
      wamid,
      text: 'Can I change the size?',
      timestamp: server.clock.now(),
    });
    assert.equal((await postWebhook(inbound)).status, 200);
    const listed = await owner.send<Conversations>('GET', '/api/dashboard/conversations');
    const conversation = listed.body.conversations.find((c) => c.phone === '+16505551299')!;
    await owner.send('POST', `/api/dashboard/conversations/${conversation.contact_id}/read`, {});
    // Meta's "Typing indicators" request: the read receipt with `typing_indicator: { type: 'text' }`.
    assert.deepEqual(graph.requests.at(-1)?.body, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: wamid,
      typing_indicator: { type: 'text' },
    });
  });
});
