import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { ownerSession } from '../../test/dashboard-session.js';
import { createTemplate, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { Campaign } from '../campaigns/campaign.schema.js';
import type { Message } from '../messages/message.schema.js';
import { inboundMessageWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Contact } from '../contacts/contact.schema.js';
import { DEFAULT_START_KEYWORDS, DEFAULT_STOP_KEYWORDS } from './opt-out.keywords.js';
import { withCallbackChecked } from '../../test/graph-stand-in.js';

// The outbox runs: the confirmation is checked where it ends, in the request to Meta.
const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer({ outbox: true });
const { outbox, scheduler } = server.app.services;

let phones = 0;
/** Each test has its own workspace; distinct numbers still keep one test's contacts apart. */
const newPhone = () => `+14155550${String(100 + (phones++ % 100))}`;

/** A customer of a simulator workspace writing in, as the API lets a test pretend. */
async function writes(ws: TestWorkspace, phone: string, text: string): Promise<void> {
  const response = await ws.action('simulate-inbound-message', { phone, text });
  assert.equal(response.status, 200, response.text);
}

async function contactOf(ws: TestWorkspace, phone: string): Promise<Contact> {
  const response = await ws.action<Contact>('get-contact', { phone });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** The texts Parley queued to the contact, oldest first. */
async function textsTo(ws: TestWorkspace, phone: string): Promise<string[]> {
  const response = await ws.action<Message[]>('list-messages', { phone, limit: 100 });
  assert.equal(response.status, 200, response.text);
  return response.body
    .filter((message) => message.direction === 'outbound')
    .map((message) => (message.content as { body: string }).body)
    .reverse();
}

/**
 * Meta's user_preferences webhook, as its reference documents it ("user_preferences webhook
 * reference", Example: the same body with value `stop` or `resume`); the business line and user
 * are the test's.
 */
function userPreferencesWebhook(phoneNumberId: string, waId: string, value: 'stop' | 'resume') {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: waId }],
              user_preferences: [
                {
                  wa_id: waId,
                  detail: `User requested to ${value} marketing messages`,
                  category: 'marketing_messages',
                  value,
                  timestamp: 1731705721,
                },
              ],
            },
            field: 'user_preferences',
          },
        ],
      },
    ],
  };
}

describe(`opt-out (${ENGINE})`, () => {
  test('keyword › STOP opts the contact out and tells them once, in English; a second STOP sends nothing', async () => {
    const ws = await createWorkspace(server);
    const phone = newPhone();
    await writes(ws, phone, 'hello');
    assert.equal((await contactOf(ws, phone)).opted_out, false);
    await writes(ws, phone, 'STOP');
    assert.equal((await contactOf(ws, phone)).opted_out, true);
    await writes(ws, phone, 'stop');
    assert.deepEqual(await textsTo(ws, phone), [
      'You are unsubscribed and will no longer receive marketing messages from us. Reply START to subscribe again.',
    ]);
  });

  test('keyword › "arret !" is ARRÊT: answered in French; START opts back in; a sentence with stop in it is no keyword', async () => {
    const ws = await createWorkspace(server);
    const phone = newPhone();
    await writes(ws, phone, 'arret !');
    assert.equal((await contactOf(ws, phone)).opted_out, true);
    await writes(ws, phone, 'Start');
    assert.equal((await contactOf(ws, phone)).opted_out, false);
    await writes(ws, phone, 'please stop sending the wrong size');
    assert.equal((await contactOf(ws, phone)).opted_out, false);
    assert.deepEqual(await textsTo(ws, phone), [
      'Vous êtes désabonné(e) et ne recevrez plus nos messages marketing. Répondez ABONNER pour vous réabonner.',
    ]);
  });

  test('settings › the defaults are listed; a replaced list is what counts; confirm off sends nothing; other workspaces keep the defaults', async () => {
    const ws = await createWorkspace(server);
    const other = await createWorkspace(server);
    const defaults = await ws.action('get-opt-out-settings');
    assert.equal(defaults.status, 200, defaults.text);
    assert.deepEqual(defaults.body, {
      stop_keywords: DEFAULT_STOP_KEYWORDS,
      start_keywords: DEFAULT_START_KEYWORDS,
      confirm: true,
    });
    const saved = await ws.action('update-opt-out-settings', {
      stop_keywords: [' Cancelar ', 'CANCELAR', 'Désinscrire'],
      confirm: false,
    });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.body, {
      stop_keywords: ['Cancelar', 'Désinscrire'],
      start_keywords: DEFAULT_START_KEYWORDS,
      confirm: false,
    });
    assert.deepEqual((await ws.action('get-opt-out-settings')).body, saved.body);

    const phone = newPhone();
    await writes(ws, phone, 'STOP');
    assert.equal((await contactOf(ws, phone)).opted_out, false, 'STOP is no longer a keyword here');
    await writes(ws, phone, 'desinscrire');
    assert.equal((await contactOf(ws, phone)).opted_out, true);
    assert.deepEqual(await textsTo(ws, phone), [], 'confirm is off');

    await writes(other, phone, 'STOP');
    assert.equal((await contactOf(other, phone)).opted_out, true);
    assert.equal((await textsTo(other, phone)).length, 1);
  });

  test('settings › a word in both lists, an empty word or a read token is refused and changes nothing', async () => {
    const ws = await createWorkspace(server);
    const before = (await ws.action('get-opt-out-settings')).body;
    const both = await ws.action<{ code: string; errors: object[] }>('update-opt-out-settings', {
      stop_keywords: ['STOP'],
      start_keywords: ['stop!', 'START'],
    });
    assert.equal(both.status, 400, both.text);
    assert.equal(both.body.code, 'validation_failed');
    assert.deepEqual(both.body.errors, [
      {
        field: 'start_keywords',
        message: 'must not repeat a stop keyword ("stop!")',
        code: 'contacts.keyword_in_both_lists',
        params: { keyword: 'stop!' },
      },
    ]);
    const empty = await ws.action<{ errors: object[] }>('update-opt-out-settings', {
      stop_keywords: ['STOP', ' ?! '],
    });
    assert.equal(empty.status, 400, empty.text);
    assert.deepEqual(empty.body.errors, [
      {
        field: 'stop_keywords',
        message: 'need a letter or a digit in each word (" ?! " has none)',
        code: 'contacts.keyword_without_letters',
        params: { word: ' ?! ' },
      },
    ]);
    const wrongType = await ws.action('update-opt-out-settings', { confirm: 'yes' });
    assert.equal(wrongType.status, 400, wrongType.text);
    const reader = await createWorkspace(server, { scope: 'read' });
    const readOnly = await reader.action('update-opt-out-settings', { confirm: false });
    assert.equal(readOnly.status, 403, readOnly.text);
    assert.deepEqual((await ws.action('get-opt-out-settings')).body, before);
  });

  test("webhook › Meta's user_preferences stop and resume change the contact, message nobody, and create an unknown number opted out", async () => {
    const cloud: CloudWorkspace = await cloudWorkspace();
    const phone = newPhone();
    const known = await cloud.ws.action('create-contact', { phone });
    assert.equal(known.status, 201, known.text);
    const stop = await postWebhook<{ marketing_preferences: number }>(
      userPreferencesWebhook(cloud.phoneNumberId, phone.slice(1), 'stop'),
    );
    assert.equal(stop.status, 200, stop.text);
    assert.equal(stop.body.marketing_preferences, 1);
    assert.equal((await contactOf(cloud.ws, phone)).opted_out, true);
    await postWebhook(userPreferencesWebhook(cloud.phoneNumberId, phone.slice(1), 'resume'));
    assert.equal((await contactOf(cloud.ws, phone)).opted_out, false);
    assert.deepEqual(await textsTo(cloud.ws, phone), []);

    const stranger = newPhone();
    await postWebhook(userPreferencesWebhook(cloud.phoneNumberId, stranger.slice(1), 'stop'));
    const created = await contactOf(cloud.ws, stranger);
    assert.equal(created.opted_out, true);
    assert.equal(created.name, 'Sheena Nelson');
  });

  test('webhook › a tap on the marketing opt-out button opts out and is confirmed; the older system message form opts back in', async () => {
    const cloud = await cloudWorkspace();
    const phone = newPhone();
    // A quick-reply button tap as Meta's messages webhook reference shows it ("button" message, with the
    // context of the template it answers); "Stop promotions" is the marketing opt-out button's text.
    const tap = inboundMessageWebhook({
      phoneNumberId: cloud.phoneNumberId,
      from: phone,
      name: 'Sheena Nelson',
      type: 'button',
      content: { payload: 'Stop promotions', text: 'Stop promotions' },
      replyTo: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDNEQzRjc1NjI0MTk3NEE2MjcA',
    });
    const tapped = await postWebhook<{ messages: number }>(tap);
    assert.equal(tapped.status, 200, tapped.text);
    assert.equal(tapped.body.messages, 1);
    assert.equal((await contactOf(cloud.ws, phone)).opted_out, true);
    outbox.wake();
    await outbox.idle();
    const sent = graph.requests.filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`);
    // Each request carries Parley's message id, which Meta echoes in the reply's statuses.
    assert.deepEqual(
      sent.map((request) => withCallbackChecked(request.body)),
      [
        {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: phone,
          type: 'text',
          text: {
            body: 'You are unsubscribed and will no longer receive marketing messages from us. Reply START to subscribe again.',
            preview_url: false,
          },
        },
      ],
    );

    // The `user_preference_changed` system message of Meta's earlier user preferences reference.
    const resume = inboundMessageWebhook({
      phoneNumberId: cloud.phoneNumberId,
      from: phone,
      type: 'system',
      content: {
        body: 'User requested to resume marketing messages',
        marketing: 'resume',
        type: 'user_preference_changed',
      },
    });
    assert.equal((await postWebhook(resume)).status, 200);
    assert.equal((await contactOf(cloud.ws, phone)).opted_out, false);
  });

  test('contacts › opted_out is set by create-contact and update-contact and shown by get-contact; a non-boolean is a 400', async () => {
    const ws = await createWorkspace(server);
    const phone = newPhone();
    const created = await ws.action<Contact>('create-contact', { phone, opted_out: true });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.opted_out, true);
    const back = await ws.action<Contact>('update-contact', { phone, opted_out: false });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.opted_out, false);
    const upsert = await ws.action<Contact>('create-contact', { phone, opted_out: true });
    assert.equal(upsert.status, 200, upsert.text);
    assert.equal((await contactOf(ws, phone)).opted_out, true);
    const bad = await ws.action('update-contact', { phone, opted_out: 'yes' });
    assert.equal(bad.status, 400, bad.text);
    assert.equal((await contactOf(ws, phone)).opted_out, true);
  });

  test('csv › an opted_out column opts contacts out or in (yes/no, true/false); another value is reported; the export shows it', async () => {
    const session = await ownerSession(server);
    const csv = ['Phone,Opted out', '+14155550101,yes', '+14155550102,false', '+14155550103,maybe'].join('\n');
    const imported = await session.send<{ created: number; errors: { row: number; field: string; message: string }[] }>(
      'POST',
      '/api/dashboard/contacts/import',
      { csv, columns: ['phone', 'opted_out'], has_header: true },
    );
    assert.equal(imported.status, 200, imported.text);
    assert.equal(imported.body.created, 2);
    assert.deepEqual(imported.body.errors, [
      { row: 4, field: 'opted_out', message: 'is not yes or no (true/false)', phone: '+14155550103', value: 'maybe' },
    ]);
    const exported = await session.send<string>('GET', '/api/dashboard/contacts/export.csv');
    assert.equal(exported.status, 200, exported.text);
    const rows = parse<{ phone: string; opted_out: string }>(exported.text, { columns: true });
    assert.deepEqual(rows.map((row) => [row.phone, row.opted_out]).sort(), [
      ['+14155550101', 'true'],
      ['+14155550102', 'false'],
    ]);
  });

  test('campaign › a contact who wrote Unsubscribe is skipped and counted as opted out; the others get the template', async () => {
    const ws = await createWorkspace(server);
    const [stays, leaves] = [newPhone(), newPhone()];
    for (const phone of [stays, leaves]) {
      const created = await ws.action('create-contact', { phone, name: 'Ada', tags: 'news' });
      assert.equal(created.status, 201, created.text);
    }
    await writes(ws, leaves, 'Unsubscribe');
    const template = await createTemplate(server.app.services, ws.workspaceId, {
      category: 'MARKETING',
      translations: [{ language: 'en_US', status: 'APPROVED', body: 'New arrivals this week.' }],
    });
    const created = await ws.action<Campaign>('create-campaign', {
      name: 'Weekly news',
      template_id: template.id,
      audience: { tag: 'news' },
    });
    assert.equal(created.status, 200, created.text);
    await scheduler.runDue(ws.workspaceId);
    const campaign = await ws.action<Campaign>('get-campaign', { campaign_id: created.body.id });
    assert.deepEqual(
      [campaign.body.counts.recipients, campaign.body.counts.skipped, campaign.body.counts.opted_out],
      [1, 1, 1],
    );
    const templatesTo = async (phone: string) =>
      (await ws.action<Message[]>('list-messages', { phone })).body.filter((message) => message.type === 'template');
    assert.equal((await templatesTo(stays)).length, 1);
    assert.equal((await templatesTo(leaves)).length, 0);
  });
});
