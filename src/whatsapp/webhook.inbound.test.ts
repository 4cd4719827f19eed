import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { Contact } from '../contacts/contact.schema.js';
import type { Message } from '../messages/message.schema.js';
import type { MessageRecord } from '../triggers/trigger.schema.js';
import { documented, documentedWebhook, messagesWebhook } from './webhook.fixtures.js';

const { server, cloudWorkspace, postWebhook } = await startWhatsappServer();

const newWamid = () => `wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQz${randomInt(1e9)}`;
/** A fresh wa_id per test (US numbers), so tests sharing a workspace never share a contact. */
const newWaId = () => `1415555${String(randomInt(1e4)).padStart(4, '0')}`;

/** Posts Meta's body, signed; asserts Meta gets its 200 and returns Parley's outcome. */
async function deliver(body: object): Promise<Record<string, number>> {
  const response = await postWebhook<Record<string, number>>(body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** The contact's conversation through list-messages, oldest first. */
async function conversation(cloud: CloudWorkspace, ref: { phone: string } | { contact_id: string }) {
  const response = await cloud.ws.action<Message[]>('list-messages', ref);
  assert.equal(response.status, 200, response.text);
  return response.body.reverse();
}

async function getContact(cloud: CloudWorkspace, ref: { phone: string } | { contact_id: string }): Promise<Contact> {
  const response = await cloud.ws.action<Contact>('get-contact', ref);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const contactOf = (cloud: CloudWorkspace, phone: string) => getContact(cloud, { phone });

/** The sender of the workspace's latest received message (the new-message-received feed's first record). */
async function latestSender(cloud: CloudWorkspace): Promise<Contact> {
  const [record] = (await cloud.ws.get<MessageRecord[]>('/v1/triggers/new-message-received')).body;
  return getContact(cloud, { contact_id: record!.contact_id });
}

describe(`inbound messages keep what Meta sends (${ENGINE})`, () => {
  test('reply › context kept and reply_to_message_id names the quoted message', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    const [first, reply] = [newWamid(), newWamid()];
    await deliver(documentedWebhook(cloud, documented.forwarded(from, first)));
    await deliver(documentedWebhook(cloud, documented.reply(from, reply, first, 'Yes please')));
    const [original, answer] = await conversation(cloud, { phone: `+${from}` });
    assert.deepEqual(original?.content, { body: 'Check out this deal!', context: { forwarded: true } });
    assert.equal(answer?.reply_to_message_id, original?.id);
    assert.deepEqual(answer?.content, { body: 'Yes please', context: { from: '15550783881', id: first } });
    const record = (await cloud.ws.get<MessageRecord[]>('/v1/triggers/new-message-received')).body[0];
    assert.equal(record?.reply_to_message_id, original?.id, 'the feed record names the quoted message too');
  });

  test('reply › a quote of a message Parley never had keeps its context, links nothing', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    await deliver(documentedWebhook(cloud, documented.productEnquiry(from, newWamid(), 'wamid.UNKNOWN')));
    const [message] = await conversation(cloud, { phone: `+${from}` });
    assert.equal(message?.reply_to_message_id, null);
    assert.deepEqual((message?.content.context as { referred_product: unknown }).referred_product, {
      catalog_id: '194836987003835',
      product_retailer_id: 'di9ozbzfi4',
    });
  });

  test('referral › the ad is kept on the message and as the contact’s first touch', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    const fromAd = documented.fromAd(from, newWamid());
    await deliver(documentedWebhook(cloud, fromAd));
    const secondAd = documented.fromAd(from, newWamid());
    (secondAd.referral as { source_id: string }).source_id = 'another-ad';
    await deliver(documentedWebhook(cloud, secondAd));
    const [message] = await conversation(cloud, { phone: `+${from}` });
    assert.deepEqual(message?.content.referral, fromAd.referral);
    const contact = await contactOf(cloud, `+${from}`);
    assert.deepEqual(contact.first_touch, fromAd.referral, 'the first ad stays the first touch');
  });

  test('reaction › linked to the message it reacts to, and removed by an empty emoji', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    const original = newWamid();
    await deliver(documentedWebhook(cloud, documented.forwarded(from, original)));
    await deliver(documentedWebhook(cloud, documented.reaction(from, newWamid(), original, '\u{1F600}')));
    const [message, reaction] = await conversation(cloud, { phone: `+${from}` });
    assert.equal(message?.reaction, '\u{1F600}');
    assert.equal(reaction?.type, 'reaction');
    assert.equal(reaction?.reply_to_message_id, message?.id);
    await deliver(documentedWebhook(cloud, documented.reaction(from, newWamid(), original, '')));
    const [unreacted] = await conversation(cloud, { phone: `+${from}` });
    assert.equal(unreacted?.reaction, null);
  });

  test('edit › applied to the original with its earlier version kept; a retried edit changes nothing', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    const original = newWamid();
    await deliver(documentedWebhook(cloud, documented.forwarded(from, original)));
    const edit = documentedWebhook(cloud, documented.edit(from, newWamid(), original, 'Check out this deal, Ada!'));
    assert.equal((await deliver(edit)).messages, 1);
    assert.equal((await deliver(edit)).duplicates, 1);
    const messages = await conversation(cloud, { phone: `+${from}` });
    assert.equal(messages.length, 1, 'the edit is no new message');
    assert.deepEqual(messages[0]?.content, { body: 'Check out this deal, Ada!' });
    assert.deepEqual(
      messages[0]?.edits.map((earlier) => earlier.content),
      [{ body: 'Check out this deal!', context: { forwarded: true } }],
    );
  });

  test('revoke › marks the original deleted, its content kept', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    const original = newWamid();
    await deliver(documentedWebhook(cloud, documented.forwarded(from, original)));
    await deliver(documentedWebhook(cloud, documented.revoke(from, newWamid(), original)));
    const messages = await conversation(cloud, { phone: `+${from}` });
    assert.equal(messages.length, 1);
    assert.notEqual(messages[0]?.revoked_at, null);
    assert.equal((messages[0]?.content as { body: string }).body, 'Check out this deal!');
  });

  test('edit › of a message Parley never had is stored as a new message', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    await deliver(documentedWebhook(cloud, documented.edit(from, newWamid(), 'wamid.NEVER', 'Fixed typo')));
    const messages = await conversation(cloud, { phone: `+${from}` });
    assert.deepEqual(
      messages.map((message) => message.content),
      [{ body: 'Fixed typo' }],
    );
  });
});

describe(`inbound senders are never dropped (${ENGINE})`, () => {
  test('Mexico › a 521 wa_id is the +52 contact, its wa_id kept', async () => {
    const cloud = await cloudWorkspace();
    const created = await cloud.ws.action<Contact>('create-contact', { phone: '+524428968441', name: 'Lupita' });
    assert.equal(created.status, 201, created.text);
    const outcome = await deliver(documentedWebhook(cloud, documented.forwarded('5214428968441', newWamid())));
    assert.equal(outcome.messages, 1);
    assert.equal(outcome.rejected, 0);
    const contact = await contactOf(cloud, '+524428968441');
    assert.equal(contact.id, created.body.id, 'one contact');
    assert.equal(contact.wa_id, '5214428968441');
    assert.equal(contact.name, 'Lupita', 'a name a person typed is never replaced by the profile name');
    assert.equal((await conversation(cloud, { phone: '+524428968441' })).length, 1);
  });

  test('BSUID › a message with from_user_id and no from is stored under that id; a later phone joins it', async () => {
    const cloud = await cloudWorkspace();
    const userId = `US.${randomInt(1e9)}${randomInt(1e9)}`;
    const outcome = await deliver(messagesWebhook(cloud, documented.fromUserIdOnly(userId, newWamid(), 'Hi')));
    assert.equal(outcome.messages, 1);
    const contact = await latestSender(cloud);
    assert.equal(contact.bsuid, userId);
    assert.equal(contact.phone, userId, 'replies go to the user id');
    assert.equal(contact.name, 'Sheena Nelson');
    // Meta shares the phone later: the same contact gets it.
    const from = newWaId();
    const withPhone = documentedWebhook(cloud, { ...documented.forwarded(from, newWamid()), from_user_id: userId }, [
      { profile: { name: 'Sheena N.' }, wa_id: from, user_id: userId },
    ]);
    await deliver(withPhone);
    const joined = await contactOf(cloud, `+${from}`);
    assert.equal(joined.id, contact.id);
    assert.equal(joined.bsuid, userId);
    assert.equal(joined.name, 'Sheena N.', 'a name that came from WhatsApp follows the profile');
    assert.equal((await conversation(cloud, { contact_id: joined.id })).length, 2);
  });

  test('BSUID › a sender named only in contacts[].user_id is that user; their username and parent id stay on the message', async () => {
    const cloud = await cloudWorkspace();
    const userId = `US.${randomInt(1e9)}${randomInt(1e9)}`;
    const outcome = await deliver(messagesWebhook(cloud, documented.contactUserIdOnly(userId, newWamid(), 'Hello')));
    assert.equal(outcome.messages, 1);
    const contact = await latestSender(cloud);
    assert.deepEqual([contact.bsuid, contact.phone, contact.name], [userId, userId, 'Sheena Nelson']);
    const [message] = await conversation(cloud, { contact_id: contact.id });
    assert.deepEqual(message?.content, {
      body: 'Hello',
      sender: {
        user_id: userId,
        parent_user_id: 'US.ENT.11815799212886844830',
        username: '@sheena.nelson',
        country_code: 'US',
      },
    });
  });

  test('profile name › a newer profile name renames a WhatsApp-named contact; a late older one does not', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    const at = (msAgo: number) => String(Math.floor((server.clock.now().getTime() - msAgo) / 1000));
    const named = (name: string, msAgo: number) =>
      documentedWebhook(cloud, { ...documented.forwarded(from, newWamid()), timestamp: at(msAgo) }, [
        { profile: { name }, wa_id: from },
      ]);
    await deliver(named('Sheena', 60_000));
    await deliver(named('Sheena Nelson', 0));
    await deliver(named('Old Sheena', 3_600_000));
    assert.equal((await contactOf(cloud, `+${from}`)).name, 'Sheena Nelson');
  });

  test('system › user_changed_user_id gives the same contact its new user id', async () => {
    const cloud = await cloudWorkspace();
    const [previous, next] = [`US.${randomInt(1e9)}1`, `US.${randomInt(1e9)}2`];
    await deliver(messagesWebhook(cloud, documented.fromUserIdOnly(previous, newWamid(), 'Hi')));
    const [first] = (await cloud.ws.get<MessageRecord[]>('/v1/triggers/new-message-received')).body;
    const outcome = await deliver(
      messagesWebhook(cloud, { messages: [documented.changedUserId(previous, next, newWamid())] }),
    );
    assert.equal(outcome.messages, 1);
    const contact = (await cloud.ws.action<Contact>('get-contact', { contact_id: first?.contact_id })).body;
    assert.deepEqual([contact.bsuid, contact.phone], [next, next]);
    const messages = await conversation(cloud, { contact_id: contact.id });
    assert.deepEqual(
      messages.map((message) => message.type),
      ['text', 'system'],
    );
  });

  test('system › user_changed_number moves the contact to the new number, the change kept in history', async () => {
    const cloud = await cloudWorkspace();
    const [from, to] = [newWaId(), newWaId()];
    await deliver(documentedWebhook(cloud, documented.forwarded(from, newWamid())));
    const before = await contactOf(cloud, `+${from}`);
    await deliver(messagesWebhook(cloud, { messages: [documented.changedNumber(from, newWamid(), to)] }));
    const after = await contactOf(cloud, `+${to}`);
    assert.equal(after.id, before.id);
    const messages = await conversation(cloud, { contact_id: after.id });
    assert.deepEqual(
      messages.map((message) => message.type),
      ['text', 'system'],
    );
    assert.equal((messages[1]?.content as { wa_id: string }).wa_id, to);
  });

  test('system › a number change opens no 24-hour window', async () => {
    const cloud = await cloudWorkspace();
    const [from, to] = [newWaId(), newWaId()];
    const created = await cloud.ws.action<Contact>('create-contact', { phone: `+${from}` });
    assert.equal(created.status, 201, created.text);
    await deliver(messagesWebhook(cloud, { messages: [documented.changedNumber(from, newWamid(), to)] }));
    const send = await cloud.ws.action<{ code: string }>('send-text-message', { phone: `+${to}`, message: 'Hi' });
    assert.equal(send.status, 422, send.text);
    assert.equal(send.body.code, 'customer_service_window_closed');
  });
});

describe(`pollers never miss a message (${ENGINE})`, () => {
  test('new-message-received › a message delivered late with an hour-old timestamp appears above the poller’s mark', async () => {
    const cloud = await cloudWorkspace();
    const from = newWaId();
    const at = (msAgo: number) => String(Math.floor((server.clock.now().getTime() - msAgo) / 1000));
    const onTime = newWamid();
    await deliver(documentedWebhook(cloud, { ...documented.forwarded(from, onTime), timestamp: at(0) }));
    const poll = async () => {
      server.clock.advance(31_000); // past the workspace's poll interval
      const response = await cloud.ws.get<MessageRecord[]>('/v1/triggers/new-message-received');
      assert.equal(response.status, 200, response.text);
      return response.body;
    };
    const mark = (await poll())[0]!.id;
    const late = newWamid();
    const hourAgo = at(3_600_000);
    await deliver(documentedWebhook(cloud, { ...documented.forwarded(from, late), timestamp: hourAgo }));
    const records = await poll();
    const fresh = records.slice(
      0,
      records.findIndex((record) => record.id === mark),
    );
    assert.deepEqual(
      fresh.map((record) => record.provider_message_id),
      [late],
    );
    const sentAt = Date.parse(fresh[0]!.sent_at!);
    assert.equal(sentAt, Number(hourAgo) * 1000, "Meta's time is kept as sent_at");
    assert.ok(Date.parse(fresh[0]!.created_at) > sentAt, 'created_at is when Parley recorded it');
  });
});
