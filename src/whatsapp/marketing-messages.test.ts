import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { createTemplate, ownerApi, type TestWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import type { MarketingMessagesSettings } from '../channels/marketing-messages.js';
import type { Message } from '../messages/message.schema.js';
import type { Template } from '../templates/template.schema.js';
import type { WorkspaceEvent } from '../workspace-events/event.schema.js';
import { linkClickWebhook, marketingStatusWebhook } from './webhook.marketing-messages-fixtures.js';

const { graph, server, connect, postWebhook } = await startWhatsappServer({ outbox: true });

interface Problem {
  code: string;
  errors?: { field: string; code: string }[];
}

/** A workspace on WhatsApp Cloud (the stand-in), its owner's API token and number. */
async function business() {
  const owner = await ownerSession(server);
  const api = await ownerApi(server, owner);
  const number = await connect(api.workspaceId);
  return { owner, api, ...number };
}

const turnOn = (api: TestWorkspace) =>
  api.action<MarketingMessagesSettings>('update-marketing-messages-settings', {
    enabled: true,
    meta_terms_accepted: true,
  });

/** Sends an approved template of `category` to `phone` and waits for the outbox; the message as get-message shows it. */
async function sendTemplate(api: TestWorkspace, phone: string, category: string, name: string): Promise<Message> {
  const template = await createTemplate(server.app.services, api.workspaceId, {
    name,
    category,
    translations: [{ language: 'en_US', status: 'APPROVED', body: 'Spring sale: 20% off everything today.' }],
  });
  const queued = await api.action<Message>('send-template-message', { phone, template_id: template.id });
  assert.equal(queued.status, 200, queued.text);
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
  return (await api.action<Message>('get-message', { message_id: queued.body.id })).body;
}

const sendsTo = (phoneNumberId: string, edge: string) =>
  graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${phoneNumberId}/${edge}`);

describe(`Meta's Marketing Messages API (${ENGINE})`, () => {
  test('update-marketing-messages-settings › off by default; on needs Meta’s terms confirmed, kept with who and when; owners and admins only', async () => {
    const { owner, api } = await business();
    const initial = await api.action<MarketingMessagesSettings>('get-marketing-messages-settings', {});
    assert.deepEqual(initial.body, { enabled: false, terms_accepted_by: null, terms_accepted_at: null });

    const unconfirmed = await api.action<Problem>('update-marketing-messages-settings', { enabled: true });
    assert.equal(unconfirmed.status, 400, unconfirmed.text);
    assert.deepEqual(
      unconfirmed.body.errors?.map(({ field, code }) => [field, code]),
      [['meta_terms_accepted', 'channels.meta_terms_required']],
    );

    const on = await turnOn(api);
    assert.equal(on.status, 200, on.text);
    assert.deepEqual([on.body.enabled, on.body.terms_accepted_by], [true, owner.userId]);
    const acceptedAt = Date.parse(on.body.terms_accepted_at!);
    assert.ok(Math.abs(acceptedAt - server.clock.now().getTime()) < 60_000, 'when it was confirmed');
    const off = await api.action<MarketingMessagesSettings>('update-marketing-messages-settings', { enabled: false });
    assert.deepEqual(off.body, { ...on.body, enabled: false }, 'off keeps the record of the terms');

    const member = await joinedTeammate(server, owner, 'member');
    const refused = await member.send<Problem>('POST', '/api/v1/actions/update-marketing-messages-settings', {
      enabled: false,
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'permission_denied');

    const other = await business();
    const theirs = await other.api.action<MarketingMessagesSettings>('get-marketing-messages-settings', {});
    assert.equal(theirs.body.enabled, false, 'one workspace’s choice is its own');
  });

  test('a marketing template goes to /marketing_messages when on, a utility one to /messages; statuses and clicks are kept', async () => {
    const { api, phoneNumberId, wabaId } = await business();
    const before = await sendTemplate(api, '+14155550301', 'MARKETING', 'spring_sale_off');
    assert.equal(before.sent_via, null, 'off: Cloud API');
    assert.equal(sendsTo(phoneNumberId, 'messages').length, 1);

    assert.equal((await turnOn(api)).status, 200);
    const marketing = await sendTemplate(api, '+14155550302', 'MARKETING', 'spring_sale');
    const [viaMm, ...more] = sendsTo(phoneNumberId, 'marketing_messages');
    assert.equal(more.length, 0);
    assert.deepEqual((viaMm!.body as { template: unknown }).template, {
      name: 'spring_sale',
      language: { code: 'en_US' },
    });
    assert.deepEqual([marketing.status, marketing.sent_via], ['sent', 'marketing_messages']);

    const utility = await sendTemplate(api, '+14155550303', 'UTILITY', 'order_shipped');
    assert.equal(utility.sent_via, null);
    assert.equal(sendsTo(phoneNumberId, 'messages').length, 2, 'the utility template stays on Cloud API');

    const line = { phoneNumberId, wabaId };
    const delivered = marketingStatusWebhook(line, {
      wamid: marketing.provider_message_id!,
      recipient: '14155550302',
      status: 'delivered',
      at: server.clock.now(),
    });
    assert.equal((await postWebhook<{ statuses: number }>(delivered)).body.statuses, 1);
    const afterStatus = (await api.action<Message>('get-message', { message_id: marketing.id })).body;
    assert.equal(afterStatus.status, 'delivered');
    assert.equal(afterStatus.pricing?.category, 'marketing_lite');

    const click = linkClickWebhook(line, { at: server.clock.now(), component: 'cta', clickId: 'click-8831' });
    assert.equal((await postWebhook<{ account_events: number }>(click)).body.account_events, 1);
    const events = await api.action<WorkspaceEvent[]>('list-workspace-events', {});
    const clicked = events.body.find((event) => event.kind === 'marketing_messages_link_click');
    assert.equal(clicked?.summary, 'marketing messages link click: cta');
    assert.deepEqual(clicked?.details.marketing_messages_link_click_data, {
      click_component: 'cta',
      product_id: 'sku_4711',
      click_id: 'click-8831',
      tracking_token: 'AQx7-tracking-token',
    });
  });

  test('Meta refusing a template it has in another category (131055) fails the message with its words', async () => {
    const { api, phoneNumberId, wabaId } = await business();
    assert.equal((await turnOn(api)).status, 200);
    graph.setTemplates(wabaId, [
      { id: '771', name: 'renamed_notice', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [] },
    ]);
    const refused = await sendTemplate(api, '+14155550304', 'MARKETING', 'renamed_notice');
    assert.equal(sendsTo(phoneNumberId, 'marketing_messages').length, 1);
    assert.deepEqual([refused.status, refused.error?.code], ['failed', 131055]);
  });

  test("create-template › Meta's time-to-live submitted in the category's range; outside it a 400 naming the field", async () => {
    const { api, wabaId } = await business();
    const template = {
      name: 'flash_sale',
      category: 'MARKETING',
      translations: [{ language: 'en_US', body: 'Flash sale: 30% off until midnight.' }],
    };
    const tooShort = await api.action<Problem>('create-template', { ...template, message_send_ttl_seconds: 600 });
    assert.equal(tooShort.status, 400, tooShort.text);
    assert.deepEqual(
      tooShort.body.errors?.map(({ field, code }) => [field, code]),
      [['message_send_ttl_seconds', 'templates.ttl_range']],
    );

    const created = await api.action<Template>('create-template', { ...template, message_send_ttl_seconds: 86_400 });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.message_send_ttl_seconds, 86_400);
    const submitted = graph.requests.filter(
      (r) => r.method === 'POST' && r.path === `/${API_VERSION}/${wabaId}/message_templates`,
    );
    assert.deepEqual(
      submitted.map((r) => (r.body as { message_send_ttl_seconds?: number }).message_send_ttl_seconds),
      [86_400],
    );
  });
});
