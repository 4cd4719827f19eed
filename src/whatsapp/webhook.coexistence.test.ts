import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { Channel } from '../channels/channel.service.js';
import type { Contact } from '../contacts/contact.schema.js';
import type { ListedMessage, Message } from '../messages/message.schema.js';
import type { TeamReport } from '../reports/team-report.schema.js';
import type { MessageRecord } from '../triggers/trigger.schema.js';
import type { WorkspaceEvent } from '../workspace-events/event.schema.js';
import {
  contactBookWebhook,
  echoWebhook,
  historyDeclinedWebhook,
  historyWebhook,
} from './webhook.coexistence-fixtures.js';
import { inboundTextWebhook, statusWebhook } from './webhook.fixtures.js';

const { server, cloudWorkspace, postWebhook } = await startWhatsappServer();

const newWamid = () => `wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI${randomInt(1e9)}`;
/** A fresh wa_id per test (US numbers), so tests sharing a workspace never share a contact. */
const newWaId = () => `1415555${String(randomInt(1e4)).padStart(4, '0')}`;
const MINUTE = 60_000;

/** Posts Meta's body, signed; asserts Meta gets its 200 and returns Parley's outcome. */
async function deliver(body: object): Promise<Record<string, number>> {
  const response = await postWebhook<Record<string, number>>(body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** The contact's conversation through list-messages, oldest first, with who sent each message. */
async function conversation(cloud: CloudWorkspace, phone: string): Promise<ListedMessage[]> {
  const response = await cloud.ws.action<ListedMessage[]>('list-messages', { phone });
  assert.equal(response.status, 200, response.text);
  return response.body.reverse();
}

async function channelOf(cloud: CloudWorkspace): Promise<Channel> {
  const response = await cloud.ws.action<{ channels: Channel[] }>('list-channels', {});
  assert.equal(response.status, 200, response.text);
  return response.body.channels.find((channel) => channel.phone_number_id === cloud.phoneNumberId)!;
}

async function receivedFeed(cloud: CloudWorkspace): Promise<MessageRecord[]> {
  return (await cloud.ws.get<MessageRecord[]>('/v1/triggers/new-message-received')).body;
}

/** A free-form text to the contact: refused (422) while their customer service window is closed. */
const sendText = (cloud: CloudWorkspace, phone: string) =>
  cloud.ws.action<Message>('send-text-message', { phone, message: 'Following up' });

describe(`the WhatsApp Business app on a connected number (${ENGINE})`, () => {
  test('echo › stored as the business’s message from the app, its statuses applied; no window, feed or opt-out', async () => {
    const cloud = await cloudWorkspace();
    const customer = newWaId();
    const wamid = newWamid();
    const at = server.clock.now();
    const echo = echoWebhook(cloud, [{ to: customer, wamid, at, content: { body: 'STOP by the shop at 10' } }]);
    assert.equal((await deliver(echo)).echoes, 1);
    assert.equal((await deliver(echo)).echoes, 0, 'Meta’s retry stores nothing twice');

    const [message, ...rest] = await conversation(cloud, `+${customer}`);
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [message?.direction, message?.status, message?.provider_message_id, message?.sender?.type],
      ['outbound', 'sent', wamid, 'business_app'],
    );
    assert.deepEqual(message?.content, { body: 'STOP by the shop at 10' });
    assert.equal(Date.parse(message.sent_at!), Math.floor(at.getTime() / 1000) * 1000, 'sent when Meta says');

    const read = statusWebhook({ ...cloud, wamid, status: 'read', recipient: customer });
    assert.equal((await deliver(read)).statuses, 1);
    assert.equal((await conversation(cloud, `+${customer}`))[0]?.status, 'read');

    assert.deepEqual(await receivedFeed(cloud), [], 'not a customer’s message: no trigger record');
    const contact = (await cloud.ws.action<Contact>('get-contact', { phone: `+${customer}` })).body;
    assert.equal(contact.opted_out, false, 'the business’s own words trip no opt-out keyword');
    const refused = await sendText(cloud, `+${customer}`);
    assert.equal(refused.status, 422, 'the customer wrote nothing: their window stays closed');
  });

  test('echo › an edit or deletion in the app changes the business’s message', async () => {
    const cloud = await cloudWorkspace();
    const customer = newWaId();
    const wamid = newWamid();
    await deliver(echoWebhook(cloud, [{ to: customer, wamid, at: server.clock.now() }]));
    const edit = { original_message_id: wamid, message: { type: 'text', text: { body: 'We open at 11 on Sundays.' } } };
    await deliver(
      echoWebhook(cloud, [{ to: customer, wamid: newWamid(), at: server.clock.now(), type: 'edit', content: edit }]),
    );
    const revoke = { original_message_id: wamid };
    await deliver(
      echoWebhook(cloud, [
        { to: customer, wamid: newWamid(), at: server.clock.now(), type: 'revoke', content: revoke },
      ]),
    );
    const [message, ...rest] = await conversation(cloud, `+${customer}`);
    assert.equal(rest.length, 0, 'amendments are not messages of their own');
    assert.deepEqual(message?.content, { body: 'We open at 11 on Sundays.' });
    assert.deepEqual(
      message?.edits?.map((edit) => edit.content),
      [{ body: 'We open at 10 on Sundays.' }],
    );
    assert.ok(message?.revoked_at);
  });

  test('echo › the team’s reply in response times; the number is paced at Meta’s 20 per second', async () => {
    const cloud = await cloudWorkspace();
    assert.deepEqual(
      [(await channelOf(cloud)).business_app, (await channelOf(cloud)).messages_per_second],
      [false, 80],
    );
    const customer = newWaId();
    await deliver(
      inboundTextWebhook({ ...cloud, from: customer, text: 'Open on Sunday?', timestamp: server.clock.now() }),
    );
    const answeredAt = new Date(server.clock.now().getTime() + 5 * MINUTE);
    await deliver(echoWebhook(cloud, [{ to: customer, wamid: newWamid(), at: answeredAt }]));

    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await cloud.ws.get<TeamReport>(`/v1/reports/agents?from=${day(-2)}&to=${day(1)}`);
    assert.equal(report.status, 200, report.text);
    const { conversations, median_seconds } = report.body.everyone.first_response;
    assert.equal(conversations, 1);
    // The customer's message opens the span when it is received (milliseconds in); Meta's times are whole seconds.
    assert.ok(median_seconds !== null && Math.abs(median_seconds - 300) <= 1, `answered in ${median_seconds} s`);

    const channel = await channelOf(cloud);
    assert.deepEqual([channel.business_app, channel.messages_per_second], [true, 20]);
  });

  test('history › each chunk imported once, with its own times and directions, triggering nothing; progress shown', async () => {
    const cloud = await cloudWorkspace();
    const customer = newWaId();
    const start = new Date(Date.UTC(2026, 5, 1, 9, 0, 0));
    const minutes = (n: number) => new Date(start.getTime() + n * MINUTE);
    const [asked, answered, thanked] = [newWamid(), newWamid(), newWamid()];
    const first = historyWebhook(cloud, {
      phase: 1,
      chunkOrder: 1,
      progress: 40,
      threads: [
        {
          customer,
          messages: [
            { from: 'customer', wamid: asked, at: minutes(0), body: 'Do you deliver?', status: 'READ' },
            { from: 'business', wamid: answered, at: minutes(3), body: 'Yes, on Fridays.', status: 'READ' },
          ],
        },
      ],
    });
    assert.equal((await deliver(first)).history_messages, 2);
    assert.equal((await deliver(first)).history_messages, 0, 'a chunk delivered twice stores nothing twice');
    const second = historyWebhook(cloud, {
      phase: 2,
      chunkOrder: 2,
      progress: 100,
      threads: [
        {
          customer,
          messages: [{ from: 'business', wamid: thanked, at: minutes(-60), body: 'Thanks!', status: 'DELIVERED' }],
        },
      ],
    });
    assert.equal((await deliver(second)).history_messages, 1);

    const messages = await conversation(cloud, `+${customer}`);
    assert.deepEqual(
      messages.map((message) => [
        message.provider_message_id,
        message.direction,
        message.status,
        new Date(message.created_at).toISOString(),
      ]),
      [
        [thanked, 'outbound', 'delivered', minutes(-60).toISOString()],
        [asked, 'inbound', 'received', minutes(0).toISOString()],
        [answered, 'outbound', 'read', minutes(3).toISOString()],
      ],
    );
    assert.equal(messages[2]?.sender?.type, 'business_app');
    assert.deepEqual(await receivedFeed(cloud), [], 'history is not new: no trigger record');
    assert.equal((await sendText(cloud, `+${customer}`)).status, 422, 'an old message opens no window');
    const { history_import, business_app } = await channelOf(cloud);
    assert.equal(business_app, true);
    assert.deepEqual(
      [history_import?.progress, history_import?.phase, history_import?.chunks, history_import?.messages],
      [100, 2, 3, 3],
    );
  });

  test('history › a business that declines to share it is shown so', async () => {
    const cloud = await cloudWorkspace();
    assert.equal((await deliver(historyDeclinedWebhook(cloud))).history_messages, 0);
    const { history_import } = await channelOf(cloud);
    assert.equal(history_import?.declined, 'History sharing is turned off by the business');
  });

  test('contact book › added contacts are created or named, a name typed in Parley kept, a removal deletes nothing', async () => {
    const cloud = await cloudWorkspace();
    const [added, typed, removed] = [newWaId(), newWaId(), newWaId()];
    assert.equal(
      (await cloud.ws.action('create-contact', { phone: `+${typed}`, name: 'Typed In Parley' })).status,
      201,
    );
    await deliver(inboundTextWebhook({ ...cloud, from: removed, text: 'Hi', timestamp: server.clock.now() }));
    const at = server.clock.now();
    const outcome = await deliver(
      contactBookWebhook(cloud, [
        { phone: added, action: 'add', fullName: 'Sheena Nelson', at },
        { phone: typed, action: 'add', fullName: 'App Name', at },
        { phone: removed, action: 'remove', at },
      ]),
    );
    assert.deepEqual([outcome.contact_book, outcome.account_events], [1, 1]);
    const nameOf = async (phone: string) =>
      (await cloud.ws.action<Contact>('get-contact', { phone: `+${phone}` })).body.name;
    assert.equal(await nameOf(added), 'Sheena Nelson');
    assert.equal(await nameOf(typed), 'Typed In Parley');
    const later = new Date(at.getTime() + 60_000);
    await deliver(inboundTextWebhook({ ...cloud, from: added, name: 'sheena_n', text: 'Hi!', timestamp: later }));
    assert.equal(await nameOf(added), 'Sheena Nelson', 'her WhatsApp profile name does not replace the business’s');
    assert.equal((await conversation(cloud, `+${removed}`)).length, 1, 'the removed person’s history stays');
    const events = await cloud.ws.action<WorkspaceEvent[]>('list-workspace-events', {});
    assert.equal(events.body[0]?.kind, 'smb_app_state_sync', 'the change is in the event log as Meta sent it');
  });
});
