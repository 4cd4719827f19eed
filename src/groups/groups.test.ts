import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { createWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { ListedMessage } from '../messages/message.schema.js';
import type { MessageRecord } from '../triggers/trigger.schema.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import {
  groupCreatedWebhook,
  groupCreateFailedWebhook,
  groupMessageWebhook,
  groupMessageStatusWebhook,
  groupParticipantsWebhook,
  groupStatusWebhook,
  groupSubjectWebhook,
} from '../whatsapp/webhook.group-fixtures.js';
import type { WorkspaceEvent } from '../workspace-events/event.schema.js';
import type { Group, GroupMessage } from './group.schema.js';

// Private webhook targets allowed: the test's receiver listens on loopback.
const { server, graph, cloudWorkspace, postWebhook } = await startWhatsappServer({
  outbox: true,
  env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' },
});

/** An integration's webhook receiver: the events it was sent, in order. */
const heard: { type: string; data: GroupMessage }[] = [];
const receiver = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    heard.push(JSON.parse(raw) as { type: string; data: GroupMessage });
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
after(() => receiver.close());

/** The documented error shape, as far as these tests read it. */
interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

const newWamid = () => `wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI${randomInt(1e9)}`;
const newWaId = () => `1415555${String(randomInt(1e4)).padStart(4, '0')}`;

async function deliver(body: object): Promise<Record<string, number>> {
  const response = await postWebhook<Record<string, number>>(body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function groupsOf(cloud: CloudWorkspace): Promise<Group[]> {
  const response = await cloud.ws.action<Group[]>('list-groups', {});
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function groupMessages(cloud: CloudWorkspace, groupId: string): Promise<GroupMessage[]> {
  const response = await cloud.ws.action<GroupMessage[]>('list-group-messages', { group_id: groupId });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

describe(`WhatsApp groups (${ENGINE})`, () => {
  test('a group’s messages are its own conversation; its state follows Meta’s group webhooks; sends go to the group', async () => {
    const cloud = await cloudWorkspace();
    const { groupId } = graph.addGroup(cloud.phoneNumberId); // made before Parley knew of it
    const [ada, ben] = [newWaId(), newWaId()];
    const at = server.clock.now();

    // Ada also writes to the business one to one.
    await deliver(inboundTextWebhook({ ...cloud, from: ada, name: 'Ada', text: 'Is my order ready?' }));
    const joined = groupParticipantsWebhook(cloud, { groupId, type: 'group_participants_add', waIds: [ada, ben], at });
    assert.equal((await deliver(joined)).group_changes, 1);
    assert.equal(
      (await deliver(groupSubjectWebhook(cloud, { groupId, subject: 'Spring launch', at }))).group_changes,
      1,
    );

    const wamid = newWamid();
    const inGroup = groupMessageWebhook(cloud, { groupId, from: ada, name: 'Ada', wamid, at, body: 'Hello all' });
    assert.equal((await deliver(inGroup)).messages, 1);
    assert.equal((await deliver(inGroup)).duplicates, 1, 'Meta’s retry stores nothing twice');

    const [group, ...others] = await groupsOf(cloud);
    assert.equal(others.length, 0);
    assert.deepEqual(
      [group!.wa_group_id, group!.subject, group!.state, group!.participants.map((person) => person.wa_id)],
      [groupId, 'Spring launch', 'active', [ada, ben]],
    );
    const [received] = await groupMessages(cloud, group!.id);
    assert.deepEqual(
      [received!.direction, received!.status, received!.provider_message_id, received!.content.body],
      ['inbound', 'received', wamid, 'Hello all'],
    );
    assert.deepEqual(received!.content.sender, { wa_id: ada, user_id: null, name: 'Ada' }, 'the author is named');

    const thread = await cloud.ws.action<ListedMessage[]>('list-messages', { phone: `+${ada}` });
    assert.deepEqual(
      thread.body.map((message) => message.content.body),
      ['Is my order ready?'],
      'not in Ada’s one-to-one thread',
    );
    const feed = (await cloud.ws.get<MessageRecord[]>('/v1/triggers/new-message-received')).body;
    assert.equal(feed.length, 1, 'only the one-to-one message is a customer’s message in the feed');

    const sent = await cloud.ws.action<GroupMessage>('send-group-text', { group_id: group!.id, message: 'Welcome!' });
    assert.equal(sent.status, 200, sent.text);
    assert.deepEqual([sent.body.direction, sent.body.status], ['outbound', 'queued']);
    assert.deepEqual(sent.body.sender, { type: 'api', id: cloud.ws.tokenId, name: 'test' }, 'who sent it');
    assert.equal(received!.sender, null, "a participant's message names its author in its content");
    await until('the send to reach Meta', () =>
      graph.accepted.some((r) => JSON.stringify(r.body).includes('Welcome!')),
    );
    const request = graph.accepted.find((r) => JSON.stringify(r.body).includes('Welcome!'))!;
    assert.equal(request.path, `/${API_VERSION}/${cloud.phoneNumberId}/messages`);
    assert.deepEqual((request.body as Record<string, unknown>).recipient_type, 'group');
    assert.deepEqual((request.body as Record<string, unknown>).to, groupId);
    await until('the message to be sent', async () => (await groupMessages(cloud, group!.id))[0]?.status === 'sent');
    assert.deepEqual((await groupMessages(cloud, group!.id))[0]!.sender, sent.body.sender, 'listed with who sent it');

    const left = groupParticipantsWebhook(cloud, { groupId, type: 'group_participants_remove', waIds: [ada], at });
    await deliver(left);
    assert.deepEqual((await groupsOf(cloud))[0]!.participants, [{ wa_id: ben, user_id: null }]);

    await deliver(groupStatusWebhook(cloud, { groupId, type: 'group_suspend', at }));
    assert.equal((await groupsOf(cloud))[0]!.state, 'suspended');
    const refused = await cloud.ws.action<Problem>('send-group-text', { group_id: group!.id, message: 'Anyone?' });
    assert.equal(refused.status, 409, refused.text);
    await deliver(groupStatusWebhook(cloud, { groupId, type: 'group_suspend_cleared', at }));
    assert.equal((await groupsOf(cloud))[0]!.state, 'active');

    const events = (await cloud.ws.action<WorkspaceEvent[]>('list-workspace-events', {})).body;
    assert.deepEqual(
      [...new Set(events.map((event) => event.kind))].filter((kind) => kind.startsWith('group_')).sort(),
      ['group_participants_update', 'group_settings_update', 'group_status_update'],
      'each change is in the workspace event log as Meta sent it',
    );

    const stranger = await createWorkspace(server);
    const foreign = await stranger.action<Problem>('get-group', { group_id: group!.id });
    assert.equal(foreign.status, 404, 'another workspace does not see the group');
  });

  test('create-group › Meta creates it, its webhook makes it active with its invite link; a refusal fails it', async () => {
    const cloud = await cloudWorkspace();
    const created = await cloud.ws.action<Group>('create-group', {
      subject: '  Launch team ',
      description: 'Questions about the launch',
    });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(
      [created.body.state, created.body.subject, created.body.wa_group_id],
      ['creating', 'Launch team', null],
    );
    const asked = graph.groupCreates.at(-1)!;
    assert.equal(asked.phoneNumberId, cloud.phoneNumberId);
    assert.deepEqual(asked.body, {
      messaging_product: 'whatsapp',
      subject: 'Launch team',
      description: 'Questions about the launch',
      join_approval_mode: 'auto_approve',
    });

    const { groupId, inviteLink } = graph.addGroup(cloud.phoneNumberId);
    const confirmation = { groupId, requestId: asked.requestId, subject: 'Launch team', inviteLink, at: new Date() };
    assert.equal((await deliver(groupCreatedWebhook(cloud, confirmation))).group_changes, 1);
    const group = (await cloud.ws.action<Group>('get-group', { group_id: created.body.id })).body;
    assert.deepEqual([group.state, group.wa_group_id, group.invite_link], ['active', groupId, inviteLink]);
    const link = await cloud.ws.action<{ invite_link: string }>('get-group-invite-link', { group_id: group.id });
    assert.equal(link.status, 200, link.text);
    assert.equal(link.body.invite_link, inviteLink);

    const blank = await cloud.ws.action<Problem>('create-group', { subject: '   ' });
    assert.equal(blank.status, 400, blank.text);
    assert.equal(blank.body.errors?.[0]?.field, 'subject');

    const doomed = (await cloud.ws.action<Group>('create-group', { subject: 'One too many' })).body;
    const refusal = { requestId: graph.groupCreates.at(-1)!.requestId, subject: 'One too many', at: new Date() };
    await deliver(groupCreateFailedWebhook(cloud, refusal));
    assert.equal((await cloud.ws.action<Group>('get-group', { group_id: doomed.id })).body.state, 'failed');

    const simulated = await createWorkspace(server);
    const noNumber = await simulated.action<Problem>('create-group', { subject: 'Nope' });
    assert.equal(noNumber.status, 409, noNumber.text);
  });
  test('an approval-mode token may not write to a group: its sends wait for a person, a group’s cannot', async () => {
    const cloud = await cloudWorkspace();
    const { groupId } = graph.addGroup(cloud.phoneNumberId);
    const at = server.clock.now();
    await deliver(
      groupMessageWebhook(cloud, { groupId, from: newWaId(), name: 'Ada', wamid: newWamid(), at, body: 'Hi' }),
    );
    const group = (await groupsOf(cloud))[0]!;
    const agent = await server.app.services.tokens.create({ ...cloud.ws, name: 'Agent', mode: 'approval' });
    const refused = await server.http.send<Problem>('POST', '/api/v1/actions/send-group-text', {
      token: agent.token,
      body: { group_id: group.id, message: 'Welcome!' },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'insufficient_scope');
    assert.match(refused.body.detail, /wait for approval/);
    assert.equal((await groupMessages(cloud, group.id)).length, 1, 'only the message written there');
  });

  test('an integration hears of a group’s messages: written there, and each move of the business’s', async () => {
    const cloud = await cloudWorkspace();
    const { groupId } = graph.addGroup(cloud.phoneNumberId);
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/${cloud.phoneNumberId}`;
    const events = ['group-message-received', 'group-message-status-changed', 'message-status-changed'];
    const subscribed = await cloud.ws.action('create-webhook', { url, events });
    assert.equal(subscribed.status, 200, subscribed.text);
    const at = server.clock.now();
    const ada = newWaId();
    await deliver(groupMessageWebhook(cloud, { groupId, from: ada, name: 'Ada', wamid: newWamid(), at, body: 'Hi!' }));
    const group = (await groupsOf(cloud))[0]!;
    const sent = await cloud.ws.action<GroupMessage>('send-group-text', { group_id: group.id, message: 'Hello Ada' });
    assert.equal(sent.status, 200, sent.text);
    await until('the send to be sent', async () => (await groupMessages(cloud, group.id))[0]?.status === 'sent');
    const wamid = (await groupMessages(cloud, group.id))[0]!.provider_message_id!;
    await deliver(groupMessageStatusWebhook(cloud, { groupId, wamid, status: 'delivered', at, participant: ada }));

    const ours = () => heard.filter((event) => event.data.group_id === group.id);
    await until('three events', () => ours().length >= 3);
    const listed = await groupMessages(cloud, group.id);
    assert.deepEqual(
      ours().map((event) => [event.type, event.data.id, event.data.status]),
      [
        ['group-message-received', listed[1]!.id, 'received'],
        ['group-message-status-changed', sent.body.id, 'sent'],
        ['group-message-status-changed', sent.body.id, 'delivered'],
      ],
      'no message-status-changed: a group’s message is not a contact’s',
    );
    assert.deepEqual(ours()[0]!.data, listed[1], 'the message as list-group-messages shows it');
    assert.equal(listed[0]!.status, 'delivered');
  });
});
