import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { cliJson, runCli, stderrLines } from '../../test/cli.js';
import { createTemplate, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import type { Campaign } from '../campaigns/campaign.schema.js';
import { withCallbackChecked, type StandInNumber } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import type { Message } from '../messages/message.schema.js';
import { inboundMessageWebhook, inboundTextWebhook, phoneNumberQualityWebhook } from '../whatsapp/webhook.fixtures.js';
import { ACCOUNT_VIOLATION, accountWebhook, PARTNER_REMOVED } from '../whatsapp/webhook.delivery-fixtures.js';
import {
  ACCOUNT_RESTRICTION,
  AUTH_INTL_ELIGIBILITY,
  VOLUME_PRICING_TIER,
} from '../whatsapp/webhook.account-fixtures.js';
import type { Channel } from './channel.service.js';

const { graph, server, postWebhook } = await startWhatsappServer({ outbox: true });

interface Problem {
  status: number;
  code: string;
  errors?: { field: string; message: string }[];
}

/** A business of its own on the stand-in: a number in a WABA of its own, readable with its own token. */
const newNumber = () => graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });

const addCloud = (ws: TestWorkspace, number: StandInNumber, extra: object = {}) =>
  ws.action<Channel>('add-channel', {
    provider: 'whatsapp-cloud',
    phone_number_id: number.phoneNumberId,
    waba_id: number.wabaId,
    access_token: number.accessToken,
    ...extra,
  });

/** A workspace with two WhatsApp Cloud numbers, added through the API. */
async function twoNumbers() {
  const ws = await createWorkspace(server);
  const [first, second] = [newNumber(), newNumber()];
  for (const number of [first, second]) {
    const added = await addCloud(ws, number);
    assert.equal(added.status, 200, added.text);
  }
  return { ws, first, second };
}

/** A customer writes to `number` through a signed webhook. */
async function customerWrites(number: StandInNumber, from: string) {
  const wamid = `wamid.IN${randomInt(1e9)}`;
  const body = inboundTextWebhook({
    phoneNumberId: number.phoneNumberId,
    from: from.replace('+', ''),
    wamid,
    text: 'hello',
    timestamp: server.clock.now(),
  });
  const response = await postWebhook(body);
  assert.equal(response.status, 200, response.text);
  return wamid;
}

/** Sends through the API, lets the outbox deliver, and returns the message and the Graph requests it made. */
async function send(ws: TestWorkspace, body: object) {
  const before = graph.requests.length;
  const queued = await ws.action<Message>('send-text-message', { message: 'hi', ...body });
  assert.equal(queued.status, 200, queued.text);
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
  const message = (await ws.action<Message>('get-message', { message_id: queued.body.id })).body;
  return { message, requests: graph.requests.slice(before).filter((r) => r.path.endsWith('/messages')) };
}

const channelsOf = async (ws: TestWorkspace) => {
  const listed = await ws.action<{ channels: Channel[] }>('list-channels');
  assert.equal(listed.status, 200, listed.text);
  return listed.body.channels;
};

describe(`several numbers per workspace (${ENGINE})`, () => {
  test('account_update › Meta taking the account from this app disconnects its number: shown, its sends wait queued, then go once it is back', async () => {
    const ws = await createWorkspace(server);
    const [removed, kept] = [newNumber(), newNumber()];
    for (const number of [removed, kept]) assert.equal((await addCloud(ws, number)).status, 200);
    await customerWrites(removed, '+4915112340801');
    await customerWrites(kept, '+4915112340802');
    const update = accountWebhook(removed.wabaId, 'account_update', PARTNER_REMOVED, server.clock.now());
    assert.equal((await postWebhook(update)).status, 200);

    const [shown, other] = await channelsOf(ws);
    assert.deepEqual(
      [shown?.disconnection?.event, shown?.disconnection?.info],
      ['PARTNER_REMOVED', PARTNER_REMOVED.disconnection_info],
    );
    assert.equal(other?.disconnection, null, "another account's number stays connected");
    const waiting = await send(ws, { phone: '+4915112340801', from_phone_number_id: removed.phoneNumberId });
    assert.deepEqual(
      [waiting.message.status, waiting.requests.length],
      ['queued', 0],
      'the disconnected number sends nothing',
    );
    const going = await send(ws, { phone: '+4915112340802', from_phone_number_id: kept.phoneNumberId });
    assert.deepEqual([going.message.status, going.requests.length], ['sent', 1], 'the other number sends on');

    const back = accountWebhook(removed.wabaId, 'account_update', { event: 'PARTNER_ADDED' }, server.clock.now());
    assert.equal((await postWebhook(back)).status, 200);
    assert.equal((await channelsOf(ws))[0]?.disconnection, null);
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();
    const sent = await ws.action<Message>('get-message', { message_id: waiting.message.id });
    assert.equal(sent.body.status, 'sent', 'the waiting message goes once the number is back');
  });

  test("account_update › Meta's word on the account (violation, restriction, pricing tier, authentication-international rates) is kept on its numbers, the latest by Meta's time", async () => {
    const { ws, first, second } = await twoNumbers();
    const other = await createWorkspace(server);
    const outsider = newNumber();
    assert.equal((await addCloud(other, outsider)).status, 200);
    const now = server.clock.now();
    for (const value of [ACCOUNT_VIOLATION, ACCOUNT_RESTRICTION, VOLUME_PRICING_TIER, AUTH_INTL_ELIGIBILITY]) {
      assert.equal((await postWebhook(accountWebhook(first.wabaId, 'account_update', value, now))).status, 200);
    }
    const earlier = new Date(now.getTime() - 3_600_000);
    const stale = { ...ACCOUNT_VIOLATION, violation_info: { violation_type: 'SCAM' } };
    assert.equal((await postWebhook(accountWebhook(first.wabaId, 'account_update', stale, earlier))).status, 200);

    const [shown, untouched] = await channelsOf(ws);
    const at = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString().replace('Z', '+00:00');
    assert.deepEqual(shown?.account_status, {
      violation: { event: 'ACCOUNT_VIOLATION', at, info: ACCOUNT_VIOLATION.violation_info },
      restriction: { event: 'ACCOUNT_RESTRICTION', at, info: ACCOUNT_RESTRICTION.restriction_info },
      pricing_tier: { event: 'VOLUME_BASED_PRICING_TIER_UPDATE', at, info: VOLUME_PRICING_TIER.volume_tier_info },
      auth_international_eligibility: {
        event: 'AUTH_INTL_PRICE_ELIGIBILITY_UPDATE',
        at,
        info: AUTH_INTL_ELIGIBILITY.auth_international_rate_eligibility,
      },
    });
    assert.deepEqual(untouched?.account_status, {}, "another account's number hears nothing");
    assert.equal(untouched?.phone_number_id, second.phoneNumberId);
    assert.deepEqual((await channelsOf(other))[0]?.account_status, {}, 'nor does another workspace');
    assert.equal(shown?.disconnection, null, 'a violation does not disconnect the number');
    const events = await ws.action<{ kind: string }[]>('list-workspace-events', {});
    assert.equal(events.body.filter((event) => event.kind === 'account_update').length, 5, 'the log keeps them all');
  });

  test('list-channels › a workspace without channels shows the built-in simulator as its default', async () => {
    const ws = await createWorkspace(server);
    const [only, ...rest] = await channelsOf(ws);
    assert.deepEqual(rest, []);
    assert.equal(only?.id, null);
    assert.equal(only?.provider, 'simulator');
    assert.equal(only?.is_default, true);
  });

  test('add-channel › two numbers: the first is the default; each shows what Meta says about it', async () => {
    const { ws, first, second } = await twoNumbers();
    const channels = await channelsOf(ws);
    assert.deepEqual(
      channels.map((c) => [c.phone_number_id, c.display_phone_number, c.verified_name, c.is_default, c.quality_rating]),
      [
        [first.phoneNumberId, first.displayPhoneNumber, first.verifiedName, true, 'GREEN'],
        [second.phoneNumberId, second.displayPhoneNumber, second.verifiedName, false, 'GREEN'],
      ],
    );
    assert.ok(channels.every((c) => c.access_token_set && c.provider === 'whatsapp-cloud'));
  });

  test('add-channel › a number of another workspace is refused with 409; a missing field is named', async () => {
    const { first } = await twoNumbers();
    const other = await createWorkspace(server);
    const taken = await addCloud(other, first);
    assert.equal(taken.status, 409, taken.text);
    assert.equal((taken.body as unknown as Problem).errors?.[0]?.field, 'phone_number_id');
    const missing = await other.action<Problem>('add-channel', { provider: 'whatsapp-cloud', phone_number_id: '1' });
    assert.equal(missing.status, 400, missing.text);
    assert.deepEqual(missing.body.errors, [
      { field: 'waba_id', message: 'is required for WhatsApp Cloud', code: 'channels.required_for_cloud' },
    ]);
    const nameless = await other.action<Problem>('add-channel', { provider: 'simulator', phone_number_id: ' ' });
    assert.equal(nameless.status, 400, nameless.text);
    assert.deepEqual(nameless.body.errors, [
      {
        field: 'phone_number_id',
        message: 'A simulated number needs a phone number id (digits, e.g. 4242).',
        code: 'channels.simulated_number_id_required',
      },
    ]);
    assert.equal((await channelsOf(other))[0]?.id, null, 'nothing was saved');
  });

  test('inbound › routed by phone_number_id to its channel; replies go out on the number the customer wrote to', async () => {
    const { ws, first, second } = await twoNumbers();
    const [, secondChannel] = await channelsOf(ws);
    const wamid = await customerWrites(second, '+14155550181');
    const received = await ws.action<Message[]>('list-messages', { phone: '+14155550181' });
    assert.equal(received.status, 200, received.text);
    const inbound = received.body.find((m) => m.provider_message_id === wamid);
    assert.equal(inbound?.channel_id, secondChannel?.id);

    const reply = await send(ws, { phone: '+14155550181' });
    assert.deepEqual(
      reply.requests.map((r) => r.path),
      [`/${API_VERSION}/${second.phoneNumberId}/messages`],
      'the conversation stays on the number the customer wrote to',
    );
    assert.equal(reply.requests[0]?.headers.authorization, `Bearer ${second.accessToken}`);
    assert.equal(reply.message.channel_id, secondChannel?.id);
    assert.equal(reply.message.status, 'sent');

    const named = await send(ws, { phone: '+14155550181', from_phone_number_id: first.phoneNumberId });
    assert.deepEqual(
      named.requests.map((r) => [r.path, withCallbackChecked(r.body).to]),
      [[`/${API_VERSION}/${first.phoneNumberId}/messages`, '+14155550181']],
      'from_phone_number_id names the number',
    );
  });

  test('send › an unknown from_phone_number_id is a 422 naming the field, and nothing is queued', async () => {
    const { ws } = await twoNumbers();
    const foreign = newNumber();
    await ws.action('create-contact', { phone: '+14155550182' });
    const refused = await ws.action<Problem>('send-text-message', {
      phone: '+14155550182',
      message: 'hi',
      from_phone_number_id: foreign.phoneNumberId,
    });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'unknown_phone_number');
    assert.equal(refused.body.errors?.[0]?.field, 'from_phone_number_id');
    const messages = await ws.action<Message[]>('list-messages', { phone: '+14155550182' });
    assert.deepEqual(messages.body, []);
  });

  test('remove-channel › the other number becomes the default; another workspace’s channel is not found', async () => {
    const { ws, second } = await twoNumbers();
    const [firstChannel] = await channelsOf(ws);
    const stranger = await createWorkspace(server);
    const foreign = await stranger.action<Problem>('remove-channel', { channel_id: firstChannel!.id });
    assert.equal(foreign.status, 404, foreign.text);

    const removed = await ws.action<Channel>('remove-channel', { channel_id: firstChannel!.id });
    assert.equal(removed.status, 200, removed.text);
    const remaining = await channelsOf(ws);
    assert.deepEqual(
      remaining.map((c) => [c.phone_number_id, c.is_default]),
      [[second.phoneNumberId, true]],
    );
    const again = await ws.action<Problem>('remove-channel', { channel_id: firstChannel!.id });
    assert.equal(again.status, 404, again.text);
  });

  test('webhook › phone_number_quality_update keeps the number’s messaging limit tier', async () => {
    const { ws, first, second } = await twoNumbers();
    // Meta's documented example shape: the number named by WABA id (entry.id) and display number (digits).
    const body = phoneNumberQualityWebhook({
      wabaId: second.wabaId,
      displayPhoneNumber: second.displayPhoneNumber.replace(/\D/g, ''),
      event: 'UPGRADE',
      oldLimit: 'TIER_1K',
      currentLimit: 'TIER_10K',
      maxDailyConversations: 'TIER_10K',
    });
    const response = await postWebhook(body);
    assert.equal(response.status, 200, response.text);
    const tiers = (await channelsOf(ws)).map((c) => [c.phone_number_id, c.messaging_limit_tier]);
    assert.deepEqual(tiers, [
      [first.phoneNumberId, null],
      [second.phoneNumberId, 'TIER_10K'],
    ]);
  });

  test('create-campaign › from_phone_number_id sends from that number; removed before it sends, its messages fail', async () => {
    const { ws, first, second } = await twoNumbers();
    const { services } = server.app;
    const template = await createTemplate(services, ws.workspaceId);
    const contacts: string[] = [];
    for (const phone of ['+14155550191', '+14155550192']) {
      contacts.push((await ws.action<{ id: string }>('create-contact', { phone, name: 'Ada' })).body.id);
    }
    const campaign = (from: StandInNumber, scheduledAt?: string) =>
      ws.action<Campaign>('create-campaign', {
        name: `From ${from.phoneNumberId}`,
        template_id: template.id,
        variables: ['{{contact.name}}', 'ORD-1'],
        audience: { contact_ids: contacts },
        from_phone_number_id: from.phoneNumberId,
        ...(scheduledAt && { scheduled_at: scheduledAt }),
      });
    const runDue = async () => {
      await services.scheduler.runDue(ws.workspaceId);
      services.outbox.wake();
      await services.outbox.idle();
    };
    const sendsFrom = (number: StandInNumber) =>
      graph.requests.filter(
        (r) => r.method === 'POST' && r.path === `/${API_VERSION}/${number.phoneNumberId}/messages`,
      );

    const now = await campaign(second);
    assert.equal(now.status, 200, now.text);
    const [, secondChannel] = await channelsOf(ws);
    assert.equal(now.body.channel_id, secondChannel?.id);
    await runDue();
    assert.equal(sendsFrom(second).length, 2, 'both messages from the number the campaign chose');
    assert.equal(sendsFrom(first).length, 0);

    const later = await campaign(first, new Date(server.clock.now().getTime() + 60_000).toISOString());
    assert.equal(later.status, 200, later.text);
    const [firstChannel] = await channelsOf(ws);
    // The number is removed while the campaign waits: its messages must not go out from another number.
    assert.equal((await ws.action('remove-channel', { channel_id: firstChannel!.id })).status, 200);
    server.clock.advance(60_000);
    await runDue();
    const counts = (await ws.action<Campaign>('get-campaign', { campaign_id: later.body.id })).body.counts;
    assert.equal(counts.failed, 2, JSON.stringify(counts));
    assert.equal(sendsFrom(first).length, 0, 'nothing went out from the removed number');
    assert.equal(sendsFrom(second).length, 2, 'nor from another number');

    const unknown = await campaign(first);
    assert.equal(unknown.status, 422, unknown.text);
    assert.equal((unknown.body as unknown as Problem).code, 'unknown_phone_number');
  });

  test('download-media › media a customer sent to the second number is fetched with that number’s token', async () => {
    const { ws, second } = await twoNumbers();
    const mediaId = String(randomInt(1e12, 2e14));
    const bytes = randomBytes(1024);
    graph.setMedia(mediaId, { bytes, mime_type: 'image/jpeg' });
    const wamid = `wamid.IN${randomInt(1e9)}`;
    const sha256 = createHash('sha256').update(bytes).digest('base64');
    const image = inboundMessageWebhook({
      phoneNumberId: second.phoneNumberId,
      from: '14155550183',
      wamid,
      type: 'image',
      content: { mime_type: 'image/jpeg', sha256, id: mediaId },
    });
    assert.equal((await postWebhook(image)).status, 200);
    const [message] = (await ws.action<Message[]>('list-messages', { phone: '+14155550183' })).body;
    const before = graph.requests.length;
    const downloaded = await ws.action('download-media', { message_id: message!.id });
    assert.equal(downloaded.status, 200, downloaded.text);
    const asked = graph.requests.slice(before).find((r) => r.path === `/${API_VERSION}/${mediaId}`);
    assert.equal(asked?.headers.authorization, `Bearer ${second.accessToken}`);
  });

  test('cli › channel add, list and remove; a second number is added beside the first, not over it', async () => {
    const ws = await createWorkspace(server);
    const [first, second] = [newNumber(), newNumber()];
    const add = (number: StandInNumber, ...extra: string[]) => [
      ...['channel', 'add', '--workspace', ws.workspaceId, '--provider', 'whatsapp-cloud'],
      ...['--phone-number-id', number.phoneNumberId, '--waba-id', number.wabaId, '--access-token', number.accessToken],
      ...extra,
    ];
    await cliJson<Channel>(server, ...add(first));
    const added = await cliJson<Channel>(server, ...add(second, '--default'));
    assert.equal(added.is_default, true, '--default makes the new number the default');
    const simulated = await cliJson<Channel>(
      server,
      ...['channel', 'add', '--workspace', ws.workspaceId, '--provider', 'simulator', '--phone-number-id', '4242'],
    );
    assert.equal(simulated.is_default, false);

    const list = () => cliJson<{ channels: Channel[] }>(server, 'channel', 'list', '--workspace', ws.workspaceId);
    assert.deepEqual(
      (await list()).channels.map((c) => [c.provider, c.phone_number_id, c.is_default]),
      [
        ['whatsapp-cloud', second.phoneNumberId, true],
        ['whatsapp-cloud', first.phoneNumberId, false],
        ['simulator', '4242', false],
      ],
    );

    const duplicate = await runCli(server, ...add(first));
    assert.notEqual(duplicate.code, 0);
    assert.match(stderrLines(duplicate).join('\n'), /phone_number_id: is already one of this workspace/);

    await cliJson(server, 'channel', 'remove', '--workspace', ws.workspaceId, '--id', added.id!);
    assert.deepEqual(
      (await list()).channels.map((c) => [c.phone_number_id, c.is_default]),
      [
        [first.phoneNumberId, true],
        ['4242', false],
      ],
    );
  });
});
