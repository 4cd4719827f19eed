import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createWorkspace, createTemplate, type TestWorkspace } from '../../test/factories.js';
import { cliJson, runCli } from '../../test/cli.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { createApp } from '../app.js';
import { inboundTextWebhook, signBody, statusWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Message } from './message.schema.js';

const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer({ outbox: true });
const HOUR = 3_600_000;

/** A customer writes in through a signed webhook; returns the wamid. */
async function customerWrites(cloud: CloudWorkspace, from: string, text = 'hello') {
  const wamid = `wamid.IN${randomInt(1e9)}`;
  const body = inboundTextWebhook({
    phoneNumberId: cloud.phoneNumberId,
    from: from.replace('+', ''),
    name: 'Ada',
    wamid,
    text,
    timestamp: server.clock.now(),
  });
  const response = await postWebhook(body);
  assert.equal(response.status, 200, response.text);
  return wamid;
}

/** Lets the outbox deliver what is due, then reads the message back through the API. */
async function settled(ws: TestWorkspace, messageId: string): Promise<Message> {
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
  const response = await ws.action<Message>('get-message', { message_id: messageId });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const sentTo = (phoneNumberId: string) =>
  graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${phoneNumberId}/messages`);

describe(`messaging (${ENGINE})`, () => {
  test('send-text-message › refused outside the 24-hour window, with the time it closed', async () => {
    const cloud = await cloudWorkspace();
    await cloud.ws.action('create-contact', { phone: '+14155550170' });
    const never = await cloud.ws.action<{ code: string; window_closed_at: string | null }>('send-text-message', {
      phone: '+14155550170',
      message: 'hi',
    });
    assert.equal(never.status, 422);
    assert.equal(never.body.code, 'customer_service_window_closed');
    assert.equal(never.body.window_closed_at, null);

    // Meta's webhook timestamps are whole seconds.
    const wroteAt = Math.floor(server.clock.now().getTime() / 1000) * 1000;
    await customerWrites(cloud, '+14155550170');
    server.clock.advance(24 * HOUR - 60_000);
    const inside = await cloud.ws.action<Message>('send-text-message', { phone: '+14155550170', message: 'at 23:59' });
    assert.equal(inside.status, 200, inside.text);
    server.clock.advance(2 * 60_000);
    const outside = await cloud.ws.action<{ code: string; window_closed_at: string }>('send-text-message', {
      phone: '+14155550170',
      message: 'at 24:01',
    });
    assert.equal(outside.status, 422);
    assert.equal(outside.body.code, 'customer_service_window_closed');
    assert.equal(Date.parse(outside.body.window_closed_at), wroteAt + 24 * HOUR);
    await settled(cloud.ws, inside.body.id);
    assert.equal(sentTo(cloud.phoneNumberId).length, 1, 'only the message inside the window reaches Meta');
  });

  test('send-text-message › queued, then sent to the Graph API in Meta’s format with the workspace token', async () => {
    const cloud = await cloudWorkspace();
    await customerWrites(cloud, '+14155550171');
    const queued = await cloud.ws.action<Message>('send-text-message', {
      phone: '+14155550171',
      message: 'Your order *ships* today: https://example.com/t/1',
      preview_url: true,
    });
    assert.equal(queued.status, 200, queued.text);
    assert.equal(queued.body.status, 'queued');
    assert.equal(queued.body.provider_message_id, null);

    const sent = await settled(cloud.ws, queued.body.id);
    assert.equal(sent.status, 'sent');
    // Ids are case-insensitive: the API lower-cases them as it validates the request.
    const shouted = await cloud.ws.action<Message>('get-message', { message_id: queued.body.id.toUpperCase() });
    assert.equal(shouted.status, 200, shouted.text);
    assert.equal(shouted.body.id, queued.body.id);
    assert.match(sent.provider_message_id ?? '', /^wamid\./);
    const [request] = sentTo(cloud.phoneNumberId);
    assert.equal(request?.headers.authorization, `Bearer ${cloud.accessToken}`);
    assert.deepEqual(request?.body, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+14155550171',
      type: 'text',
      text: { preview_url: true, body: 'Your order *ships* today: https://example.com/t/1' },
      biz_opaque_callback_data: queued.body.id,
    });
  });

  test('send-template-message › Meta’s components for header media, body variables and a URL button', async () => {
    const cloud = await cloudWorkspace();
    const template = await createTemplate(server.app.services, cloud.ws.workspaceId, {
      name: 'order_update',
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          body: 'Hi {{1}}, order {{2}} is on its way.',
          header_type: 'IMAGE',
          header_content: 'https://cdn.example.com/sample.jpg',
          buttons: [{ type: 'URL', text: 'Track', url: 'https://example.com/track/{{1}}' }],
        },
        { language: 'de', status: 'PENDING', body: 'Hallo {{1}}, Bestellung {{2}}.' },
      ],
    });
    const queued = await cloud.ws.action<Message>('send-template-message', {
      phone: '+14155550172',
      template_id: template.id,
      variables: { '1': 'Ada', '2': 'ORD-7' },
      header_media_url: 'https://cdn.example.com/box.jpg',
      button_variables: ['ORD-7'],
    });
    assert.equal(queued.status, 200, queued.text);
    assert.equal((queued.body.content as { text: string }).text, 'Hi Ada, order ORD-7 is on its way.');
    await settled(cloud.ws, queued.body.id);
    assert.deepEqual(sentTo(cloud.phoneNumberId)[0]?.body, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+14155550172',
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/box.jpg' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'ORD-7' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ORD-7' }] },
        ],
      },
      biz_opaque_callback_data: queued.body.id,
    });

    const refused = async (body: object) =>
      (await cloud.ws.action<{ code: string }>('send-template-message', { phone: '+14155550172', ...body })).body.code;
    const base = {
      template_id: template.id,
      header_media_url: 'https://cdn.example.com/a.jpg',
      button_variables: ['1'],
    };
    assert.equal(await refused({ ...base, variables: ['Ada'] }), 'template_variables_mismatch');
    assert.equal(await refused({ ...base, language: 'de', variables: ['Ada', 'x'] }), 'template_not_approved');
    assert.equal(await refused({ ...base, language: 'fr', variables: ['Ada', 'x'] }), 'template_language_unavailable');
    assert.equal(
      await refused({ ...base, template_id: '01900000-0000-7000-8000-000000000000', variables: ['Ada', 'x'] }),
      'not_found',
    );
    assert.equal(sentTo(cloud.phoneNumberId).length, 1, 'refused sends never reach Meta');
  });

  test('send-template-message › fills {{contact.first_name}} for the recipient as campaigns do; an empty one is a 400', async () => {
    const cloud = await cloudWorkspace();
    const template = await createTemplate(server.app.services, cloud.ws.workspaceId);
    await cloud.ws.action('create-contact', { phone: '+14155550181', name: 'Carlos Okafor' });
    const queued = await cloud.ws.action<Message>('send-template-message', {
      phone: '+14155550181',
      template_id: template.id,
      variables: ['{{contact.first_name}}', 'ORD-{{ contact.phone }}'],
    });
    assert.equal(queued.status, 200, queued.text);
    assert.equal((queued.body.content as { text: string }).text, 'Hi Carlos, your order ORD-+14155550181 has shipped.');
    await settled(cloud.ws, queued.body.id);
    const body = sentTo(cloud.phoneNumberId).at(-1)?.body as { template: { components: unknown } };
    assert.deepEqual(body.template.components, [
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Carlos' },
          { type: 'text', text: 'ORD-+14155550181' },
        ],
      },
    ]);

    // A new number has no name: the fallback fills in, and without one the send is refused, naming the variable.
    const fallback = await cloud.ws.action<Message>('send-template-message', {
      phone: '+14155550182',
      template_id: template.id,
      variables: { '1': '{{contact.first_name | "there"}}', '2': 'ORD-8' },
    });
    assert.equal((fallback.body.content as { text: string }).text, 'Hi there, your order ORD-8 has shipped.');
    const empty = await cloud.ws.action<{ code: string; errors: object[] }>('send-template-message', {
      phone: '+14155550182',
      template_id: template.id,
      variables: ['{{contact.first_name}}', 'ORD-8'],
    });
    assert.equal(empty.status, 400, empty.text);
    assert.deepEqual(empty.body.errors, [
      {
        field: 'variables',
        message: '1 has no value for this contact; give a fallback such as {{contact.first_name | "there"}}',
        code: 'messages.no_value_for_contact',
        params: { variable: '1', example: '{{contact.first_name | "there"}}' },
      },
    ]);
  });

  test('outbox › retries a 429 with backoff and fails fast on 131047, recording Meta’s code', async () => {
    const cloud = await cloudWorkspace();
    await customerWrites(cloud, '+14155550173');
    graph.failNext({
      status: 429,
      body: { error: { message: 'Rate limit hit', type: 'OAuthException', code: 130429, fbtrace_id: 'x' } },
    });
    const retried = await cloud.ws.action<Message>('send-text-message', { phone: '+14155550173', message: 'one' });
    assert.equal((await settled(cloud.ws, retried.body.id)).status, 'queued', 'waits for its backoff');
    server.clock.advance(20 * 60_000);
    assert.equal((await settled(cloud.ws, retried.body.id)).status, 'sent');
    assert.equal(sentTo(cloud.phoneNumberId).length, 2);

    graph.failNext({
      status: 400,
      body: {
        error: {
          message: 'Re-engagement message',
          type: 'OAuthException',
          code: 131047,
          error_data: { messaging_product: 'whatsapp', details: 'More than 24 hours have passed' },
          fbtrace_id: 'y',
        },
      },
    });
    const failed = await cloud.ws.action<Message>('send-text-message', { phone: '+14155550173', message: 'two' });
    const result = await settled(cloud.ws, failed.body.id);
    assert.equal(result.status, 'failed');
    assert.equal(result.error?.code, 131047);
    server.clock.advance(20 * 60_000);
    await settled(cloud.ws, failed.body.id);
    assert.equal(sentTo(cloud.phoneNumberId).length, 3, 'a final failure is never retried');

    // Meta said the window is closed, though Parley counted it open: later sends are refused at once…
    const refused = await cloud.ws.action<{ code: string }>('send-text-message', {
      phone: '+14155550173',
      message: 'three',
    });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'customer_service_window_closed');
    // …until the customer writes again.
    await customerWrites(cloud, '+14155550173');
    const reopened = await cloud.ws.action<Message>('send-text-message', { phone: '+14155550173', message: 'four' });
    assert.equal(reopened.status, 200, reopened.text);
  });

  test('webhook › a bad signature is a 401 and stores nothing; a retried delivery is stored once', async () => {
    const cloud = await cloudWorkspace();
    const body = inboundTextWebhook({
      phoneNumberId: cloud.phoneNumberId,
      from: '14155550174',
      name: 'Grace',
      wamid: 'wamid.ONCE',
      text: 'hi there',
      timestamp: server.clock.now(),
    });
    const forged = await postWebhook(body, signBody(JSON.stringify(body), 'not-the-secret'));
    assert.equal(forged.status, 401);
    assert.equal((forged.body as { code: string }).code, 'webhook_signature_invalid');
    assert.equal((await postWebhook(body, 'sha256=00')).status, 401);
    const feed = async () =>
      (
        await server.http.send<{ id: string }[]>('GET', '/api/v1/triggers/new-message-received', {
          token: cloud.ws.token,
        })
      ).body;
    assert.deepEqual(await feed(), []);

    assert.equal((await postWebhook(body)).status, 200);
    assert.equal((await postWebhook(body)).status, 200);
    server.clock.advance(60_000);
    const records = await feed();
    assert.equal(records.length, 1);
    const contact = await cloud.ws.action<{ name: string }>('get-contact', { phone: '+14155550174' });
    assert.equal(contact.body.name, 'Grace', 'an unknown sender becomes a contact with their profile name');
  });

  test('webhook › statuses move a message forward and never back; failures carry Meta’s error', async () => {
    const cloud = await cloudWorkspace();
    await customerWrites(cloud, '+14155550175');
    const queued = await cloud.ws.action<Message>('send-text-message', { phone: '+14155550175', message: 'hi' });
    const { provider_message_id: wamid } = await settled(cloud.ws, queued.body.id);
    const status = async (value: string) => {
      const body = statusWebhook({
        phoneNumberId: cloud.phoneNumberId,
        wamid: wamid!,
        status: value,
        recipient: '14155550175',
        timestamp: server.clock.now(),
      });
      assert.equal((await postWebhook(body)).status, 200);
      return (await cloud.ws.action<Message>('get-message', { message_id: queued.body.id })).body;
    };
    assert.equal((await status('delivered')).status, 'delivered');
    assert.equal((await status('sent')).status, 'delivered', 'a late "sent" does not move it back');
    assert.equal((await status('read')).status, 'read');

    const other = await cloud.ws.action<Message>('send-text-message', { phone: '+14155550175', message: 'again' });
    const { provider_message_id: otherWamid } = await settled(cloud.ws, other.body.id);
    const failed = statusWebhook({
      phoneNumberId: cloud.phoneNumberId,
      wamid: otherWamid!,
      status: 'failed',
      recipient: '14155550175',
      errors: [{ code: 131026, title: 'Message undeliverable' }],
    });
    assert.equal((await postWebhook(failed)).status, 200);
    const result = (await cloud.ws.action<Message>('get-message', { message_id: other.body.id })).body;
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.error, {
      code: 131026,
      title: 'Message undeliverable',
      details: null,
      reason:
        'The message could not be delivered: the number may not be on WhatsApp, use an old app version or not have accepted the latest terms.',
    });
  });

  test('simulator › a tapped reply button or list row is stored as Meta’s interactive reply and answers the flow', async () => {
    const ws = await createWorkspace(server);
    const phone = '+14155550177';
    const definition = {
      start: 'menu',
      keywords: ['menu'],
      nodes: [
        {
          id: 'menu',
          type: 'send_buttons',
          text: 'Pick one',
          buttons: [{ id: 'person', title: 'A person' }],
          next: 'wait',
        },
        { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'route' },
        { id: 'route', type: 'branch', branches: [{ when: { button_id: 'person' }, next: 'handoff' }], default: 'end' },
        { id: 'handoff', type: 'handoff', note: 'tapped' },
        { id: 'end', type: 'end' },
      ],
    };
    const flow = await ws.action<{ id: string }>('save-flow', { name: 'Menu', definition });
    assert.equal((await ws.action('simulate-inbound-message', { phone, text: 'menu' })).status, 200);
    const button_reply = { id: 'person', title: 'A person' };
    const tap = await ws.action<Message>('simulate-inbound-message', { phone, button_reply });
    assert.equal(tap.status, 200, tap.text);
    assert.deepEqual([tap.body.type, tap.body.content], ['interactive', { button_reply }]);
    const runs = (await ws.action<{ runs: Record<string, number> }>('get-flow', { flow_id: flow.body.id })).body.runs;
    assert.equal(runs.handed_off, 1);

    const list_reply = { id: 'size_m', title: 'Medium', description: 'Fits most' };
    const row = await ws.action<Message>('simulate-inbound-message', { phone, list_reply });
    assert.deepEqual([row.body.type, row.body.content], ['interactive', { list_reply }]);
    for (const body of [{ phone }, { phone, text: 'hi', button_reply }]) {
      const refused = await ws.action<{ errors: { field: string; code: string }[] }>('simulate-inbound-message', body);
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.errors[0]!.field, 'text');
      assert.equal(refused.body.errors[0]!.code, 'messages.simulate_one_kind');
    }
  });

  test('simulator › a send moves through sent, delivered and read; simulate-inbound opens the window', async () => {
    const ws = await createWorkspace(server);
    const inbound = await ws.action<Message>('simulate-inbound-message', { phone: '+14155550176', text: 'hello' });
    assert.equal(inbound.status, 200, inbound.text);
    assert.equal(inbound.body.status, 'received');
    const queued = await ws.action<Message>('send-text-message', { phone: '+14155550176', message: 'hi back' });
    assert.equal(queued.status, 200, queued.text);
    assert.equal((await settled(ws, queued.body.id)).status, 'sent');
    const deadline = Date.now() + 10_000;
    let current = 'sent';
    while (current !== 'read' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      current = (await ws.action<Message>('get-message', { message_id: queued.body.id })).body.status;
    }
    assert.equal(current, 'read');
  });

  test('webhook › the GET handshake echoes the challenge only for the verify token', async () => {
    const ok = await server.http.send(
      'GET',
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444',
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.text, '1158201444');
    const wrong = await server.http.send(
      'GET',
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
    );
    assert.equal(wrong.status, 403);
  });

  test('webhook › one delivery: a repeated message is stored once; a wa_id that is no valid number is kept raw', async () => {
    const cloud = await cloudWorkspace();
    const good = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: '14155550177', text: 'ok' });
    const odd = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: '123456', text: 'not a phone' });
    // Meta can repeat a message inside one delivery, too.
    const entries = [...(good.entry as object[]), ...(odd.entry as object[]), ...(good.entry as object[])];
    const batch = { ...good, entry: entries };
    const response = await postWebhook(batch);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      messages: 2,
      duplicates: 1,
      statuses: 0,
      template_statuses: 0,
      marketing_preferences: 0,
      account_events: 0,
      unrouted: 0,
      rejected: 0,
      echoes: 0,
      history_messages: 0,
      contact_book: 0,
      group_changes: 0,
      calls: 0,
    });
    const again = await postWebhook(odd);
    assert.deepEqual(again.body, { ...(response.body as object), messages: 0, duplicates: 1 });
    // The contact is kept under the id Meta gave (replies go back to it), with the message.
    const found = await cloud.ws.action<{ id: string; phone: string }[]>('search-contacts', {
      query: '123456',
    });
    assert.deepEqual(
      found.body.map((contact) => contact.phone),
      ['+123456'],
    );
    const messages = await cloud.ws.action<Message[]>('list-messages', { contact_id: found.body[0]!.id });
    assert.equal(messages.status, 200, messages.text);
    assert.deepEqual(
      messages.body.map((message) => message.content),
      [{ body: 'not a phone' }],
    );
  });

  test('webhook › a message delivered late never moves the contact’s last message back', async () => {
    const cloud = await cloudWorkspace();
    const from = '14155550178';
    const newer = new Date(Math.floor(server.clock.now().getTime() / 1000) * 1000);
    const older = new Date(newer.getTime() - 2 * 60 * 60 * 1000);
    for (const [wamid, timestamp] of [
      ['wamid.NEWER', newer],
      ['wamid.OLDER', older],
    ] as const) {
      const delivery = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from, wamid, text: wamid, timestamp });
      assert.equal((await postWebhook(delivery)).status, 200);
    }
    const contact = await cloud.ws.action<{ last_message_at: string }>('get-contact', { phone: `+${from}` });
    assert.equal(Date.parse(contact.body.last_message_at), newer.getTime());
  });

  test('webhook › concurrent deliveries (Meta retrying one mid-flight) are each answered with their own counts', async () => {
    const cloud = await cloudWorkspace();
    const deliveries = Array.from({ length: 8 }, (_, i) =>
      inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: `1415555${3000 + i}`, text: `hi ${i}` }),
    );
    const responses = await Promise.all([...deliveries, deliveries[0]!].map((body) => postWebhook(body)));
    const counts = responses.map((response) => {
      assert.equal(response.status, 200, response.text);
      return response.body as { messages: number; duplicates: number };
    });
    assert.deepEqual(counts.slice(1, 8), Array(7).fill({ ...counts[1]!, messages: 1, duplicates: 0 }));
    // The first delivery and its retry: one stored it, the other found it stored.
    assert.deepEqual(
      [counts[0]!.messages + counts[8]!.messages, counts[0]!.duplicates + counts[8]!.duplicates],
      [1, 1],
    );
    const feed = await cloud.ws.get('/v1/triggers/new-message-received');
    const senders = (feed.body as { contact_phone: string }[]).map((record) => record.contact_phone);
    assert.equal(senders.length, 8, 'eight messages, each stored once');
  });

  test('outbox › a restart in the middle of the queue loses nothing and sends nothing twice', async () => {
    const cloud = await cloudWorkspace();
    await customerWrites(cloud, '+14155550178');
    const { outbox } = server.app.services;
    await outbox.stop();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const queued = await cloud.ws.action<Message>('send-text-message', { phone: '+14155550178', message: `m${i}` });
      ids.push(queued.body.id);
    }
    assert.equal(sentTo(cloud.phoneNumberId).length, 0, 'nothing leaves while the outbox is stopped');
    // A new process on the same database (a restart) delivers the queue once.
    const restarted = await createApp(server.config, { clock: server.clock, logger: false });
    await restarted.services.outbox.idle();
    await restarted.close();
    outbox.start(server.app.server.log);
    await outbox.idle();
    const statuses = await Promise.all(ids.map(async (id) => (await settled(cloud.ws, id)).status));
    assert.deepEqual(statuses, ['sent', 'sent', 'sent', 'sent', 'sent']);
    const bodies = sentTo(cloud.phoneNumberId).map((r) => (r.body as { text: { body: string } }).text.body);
    assert.deepEqual(bodies.sort(), ['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  test('channel › a token rotated from another process (the CLI) is what the running server sends with', async () => {
    const cloud = await cloudWorkspace();
    const phone = '+14155550181';
    await customerWrites(cloud, phone);
    const tokenOfNextSend = async () => {
      const queued = await cloud.ws.action<Message>('send-text-message', { phone, message: 'hi' });
      assert.equal(queued.status, 200, queued.text);
      assert.equal((await settled(cloud.ws, queued.body.id)).status, 'sent');
      return sentTo(cloud.phoneNumberId).at(-1)?.headers.authorization;
    };
    assert.equal(await tokenOfNextSend(), `Bearer ${cloud.accessToken}`);
    graph.grantAccess(cloud.wabaId, 'rotated-token');
    await cliJson(
      server,
      ...['channel', 'set', '--workspace', cloud.ws.workspaceId, '--provider', 'whatsapp-cloud'],
      ...['--phone-number-id', cloud.phoneNumberId, '--waba-id', cloud.wabaId, '--access-token', 'rotated-token'],
    );
    // The server caches channel rows; another process's change reaches it within seconds (channel.service.ts).
    const deadline = Date.now() + 10_000;
    let used = await tokenOfNextSend();
    while (used !== 'Bearer rotated-token' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      used = await tokenOfNextSend();
    }
    assert.equal(used, 'Bearer rotated-token');
  });

  test('cli › channel set stores the access token encrypted; simulate inbound is for the simulator only', async () => {
    const ws = await createWorkspace(server);
    const number = graph.addPhoneNumber({ accessToken: 'EAAG-secret-token' });
    const { phoneNumberId, wabaId } = number;
    const { id, ...connected } = await cliJson<{ id: string; provider: string; access_token_set: boolean }>(
      server,
      ...['channel', 'set', '--workspace', ws.workspaceId, '--provider', 'whatsapp-cloud'],
      ...['--phone-number-id', phoneNumberId, '--waba-id', wabaId, '--access-token', 'EAAG-secret-token'],
    );
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(connected, {
      provider: 'whatsapp-cloud',
      phone_number_id: phoneNumberId,
      display_phone_number: number.displayPhoneNumber,
      verified_name: number.verifiedName,
      waba_id: wabaId,
      access_token_set: true,
      messages_per_second: 80,
      is_default: true,
      quality_rating: 'GREEN',
      messaging_limit_tier: null,
      business_app: false,
      history_import: null,
      disconnection: null,
      account_status: {},
      portfolio_limit: null,
    });
    const stored = await server.app.services.deps.db
      .selectFrom('channels')
      .select('access_token')
      .where('workspace_id', '=', ws.workspaceId)
      .executeTakeFirstOrThrow();
    assert.ok(
      stored.access_token && !stored.access_token.includes('EAAG-secret-token'),
      'the token is not stored in plain',
    );
    const refused = await runCli(
      server,
      'simulate',
      'inbound',
      '--workspace',
      ws.workspaceId,
      '--from',
      '+14155550179',
      '--text',
      'hi',
    );
    assert.notEqual(refused.code, 0);

    await cliJson(server, 'channel', 'set', '--workspace', ws.workspaceId, '--provider', 'simulator');
    const inbound = await cliJson<{ status: string; contact_phone: string }>(
      server,
      ...['simulate', 'inbound', '--workspace', ws.workspaceId, '--from', '+1 (415) 555-0179', '--text', 'hi'],
    );
    assert.equal(inbound.status, 'received');
    assert.equal(inbound.contact_phone, '+14155550179');
  });
});
