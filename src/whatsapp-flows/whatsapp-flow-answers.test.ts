import assert from 'node:assert/strict';
import { createHmac, randomInt } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { asClient, ownerApi, type TestWorkspace } from '../../test/factories.js';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import type { Contact } from '../contacts/contact.schema.js';
import type { Message } from '../messages/index.js';
import type { WhatsappFlowAnswerRecord } from '../triggers/index.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import { flowAnswerWebhook, signUpFlowJson } from '../whatsapp/webhook.flow-answer-fixtures.js';
import type { WhatsappFlow } from './whatsapp-flow.schema.js';

// The webhook receiver runs on loopback over plain http, which only PARLEY_ALLOW_PRIVATE_WEBHOOKS permits.
const { server, connect, postWebhook } = await startWhatsappServer({
  outbox: true,
  env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' },
});
const { services } = server.app;

/** An integrator's receiver: each body kept with whether its Standard Webhooks signature verified. */
const received: { signed: boolean; body: { type: string; data: WhatsappFlowAnswerRecord } }[] = [];
let secret = '';
const receiver = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    const [id, timestamp] = [String(req.headers['webhook-id']), String(req.headers['webhook-timestamp'])];
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest('base64');
    const signed = String(req.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
    received.push({ signed, body: JSON.parse(raw) as (typeof received)[number]['body'] });
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
after(() => receiver.close());
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/answers`;

/** A business on the Graph stand-in: its owner's dashboard session and API token, and its number. */
async function business() {
  const owner = await ownerSession(server);
  const line = await connect(owner.workspaceId);
  return { owner, api: await ownerApi(server, owner), line };
}
type Business = Awaited<ReturnType<typeof business>>;

async function publishedSignUp(api: TestWorkspace): Promise<WhatsappFlow> {
  const name = `Join the club ${randomInt(1e6)}`;
  const flow = (await api.action<WhatsappFlow>('create-whatsapp-flow', { name, categories: ['SIGN_UP'] })).body;
  await api.action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: signUpFlowJson() });
  return (await api.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id })).body;
}

/** Sends the Flow to a customer who just wrote; the flow_token Parley made and the wamid Meta gave the message. */
async function sentTo({ api, line }: Business, flow: WhatsappFlow, phone: string) {
  const wrote = inboundTextWebhook({ ...line, from: phone, name: 'Ada', text: 'Hi', timestamp: server.clock.now() });
  assert.equal((await postWebhook(wrote)).status, 200);
  const sent = await api.action<Message>('send-whatsapp-flow', {
    phone,
    whatsapp_flow_id: flow.id,
    body: 'Join the club',
    cta: 'Join',
  });
  assert.equal(sent.status, 200, sent.text);
  services.outbox.wake();
  await services.outbox.idle();
  const message = (await api.action<Message>('get-message', { message_id: sent.body.id })).body;
  const { interactive } = message.content as { interactive: { action: { parameters: { flow_token: string } } } };
  return { message, flowToken: interactive.action.parameters.flow_token, wamid: message.provider_message_id! };
}

/** What the customer filled in, as Meta's response_json carries it (dates as text, a checkbox group as a list). */
const filledIn = {
  full_name: 'Ada Lovelace',
  birthday: '1990-12-10',
  interests: ['roses', 'tulips'],
  newsletter: true,
};
const labelled = [
  { name: 'full_name', label: 'Your name', value: 'Ada Lovelace' },
  { name: 'birthday', label: 'Birthday', value: '1990-12-10' },
  { name: 'interests', label: 'What do you like?', value: ['roses', 'tulips'] },
  { name: 'newsletter', label: 'Send me the newsletter', value: true },
  { name: 'source', label: 'source', value: 'whatsapp' },
];

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function csvOf(owner: DashboardSession, flowId: string) {
  return owner.send<string>('GET', `/api/dashboard/whatsapp-flows/${flowId}/answers.csv`);
}

describe(`WhatsApp Flows' answers (${ENGINE})`, () => {
  test('an nfm_reply is kept once, labelled, linked to its send, set on the contact, listed, exported, fed and announced', async () => {
    const shop = await business();
    const { api, owner, line } = shop;
    const flow = await publishedSignUp(api);
    assert.deepEqual(
      flow.answer_fields.map((field) => field.label),
      ['Your name', 'Birthday', 'What do you like?', 'Send me the newsletter', 'source'],
      'the fields of its complete payload, labelled from the screens they come from',
    );
    const mapped = await api.action<WhatsappFlow>('set-whatsapp-flow-attributes', {
      whatsapp_flow_id: flow.id,
      answer_attributes: { birthday: 'birthday', interests: 'likes' },
    });
    assert.equal(mapped.status, 200, mapped.text);
    assert.deepEqual(mapped.body.answer_attributes, { birthday: 'birthday', interests: 'likes' });
    const hook = await api.action<{ secret: string }>('create-webhook', {
      url: receiverUrl,
      events: ['new-whatsapp-flow-answer'],
    });
    secret = hook.body.secret;

    const phone = `+1415555${String(randomInt(1e4)).padStart(4, '0')}`;
    const { message: flowMessage, flowToken, wamid } = await sentTo(shop, flow, phone);
    const answerWamid = `wamid.ANSWER${randomInt(1e9)}`;
    const answer = flowAnswerWebhook(
      { ...line, from: phone, replyTo: wamid, wamid: answerWamid },
      { flow_token: flowToken, ...filledIn, source: 'whatsapp' },
    );
    assert.equal((await postWebhook(answer)).status, 200);
    assert.equal((await postWebhook(answer)).status, 200, 'Meta redelivers the same webhook');

    const listed = await api.action<WhatsappFlowAnswerRecord[]>('list-whatsapp-flow-answers', {
      whatsapp_flow_id: flow.id,
    });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.length, 1, 'kept once');
    const [record] = listed.body;
    assert.deepEqual(
      {
        whatsapp_flow_id: record!.whatsapp_flow_id,
        whatsapp_flow_name: record!.whatsapp_flow_name,
        meta_flow_id: record!.meta_flow_id,
        flow_token: record!.flow_token,
        sent_message_id: record!.sent_message_id,
        contact_id: record!.contact_id,
        contact_phone: record!.contact_phone,
        contact_name: record!.contact_name,
        fields: record!.fields,
      },
      {
        whatsapp_flow_id: flow.id,
        whatsapp_flow_name: flow.name,
        meta_flow_id: flow.meta_flow_id,
        flow_token: flowToken,
        sent_message_id: flowMessage.id,
        contact_id: flowMessage.contact_id,
        contact_phone: phone,
        contact_name: 'Ada',
        fields: labelled,
      },
    );
    const answerMessage = await api.action<Message>('get-message', { message_id: record!.message_id });
    assert.equal(answerMessage.body.provider_message_id, answerWamid);
    assert.equal(answerMessage.body.reply_to_message_id, flowMessage.id, 'in reply to the Flow message');

    const contact = (await api.action<Contact>('get-contact', { contact_id: flowMessage.contact_id })).body;
    assert.deepEqual(contact.custom_attributes, { birthday: '1990-12-10', likes: ['roses', 'tulips'] });

    const feed = await api.get<WhatsappFlowAnswerRecord[]>(
      `/v1/triggers/new-whatsapp-flow-answer?whatsapp_flow_id=${flow.id}`,
    );
    assert.equal(feed.status, 200, feed.text);
    assert.deepEqual(feed.body, listed.body, 'the feed shows the record the list shows');

    await services.webhookWorker.idle();
    await until('the webhook event', () => received.some((r) => r.body.data.id === record!.id));
    const events = received.filter((r) => r.body.data.id === record!.id);
    assert.equal(events.length, 1, 'announced once');
    assert.equal(events[0]!.signed, true);
    assert.equal(events[0]!.body.type, 'new-whatsapp-flow-answer');
    assert.deepEqual(events[0]!.body.data, record, 'the event carries the feed’s record');

    const csv = await csvOf(owner, flow.id);
    assert.equal(csv.status, 200, csv.text);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="Join-the-club-\d+-answers\.csv"/);
    assert.equal(
      csv.text,
      'received_at,contact_phone,contact_name,Your name,Birthday,What do you like?,Send me the newsletter,source\n' +
        `${record!.created_at},${phone},Ada,Ada Lovelace,1990-12-10,"[""roses"",""tulips""]",true,whatsapp\n`,
    );

    const thread = await owner.send<{ messages: (Message & { form?: unknown })[] }>(
      'GET',
      `/api/dashboard/conversations/${flowMessage.contact_id}`,
    );
    const form = thread.body.messages.find((m) => m.id === record!.message_id)?.form;
    assert.deepEqual(form, { whatsapp_flow_id: flow.id, whatsapp_flow_name: flow.name, fields: labelled });
  });

  test('an answer to a Flow Parley did not send is kept, linked to no send; lists page by contact and Flow', async () => {
    const shop = await business();
    const { api, line } = shop;
    const flow = await publishedSignUp(api);
    const phone = `+1415556${String(randomInt(1e4)).padStart(4, '0')}`;
    const { flowToken } = await sentTo(shop, flow, phone);
    const ours = flowAnswerWebhook({ ...line, from: phone }, { flow_token: flowToken, ...filledIn });
    const elsewhere = flowAnswerWebhook({ ...line, from: phone }, { flow_token: 'made-by-another-tool', rating: '5' });
    assert.equal((await postWebhook(ours)).status, 200);
    server.clock.advance(1000);
    assert.equal((await postWebhook(elsewhere)).status, 200);

    const contactId = (await api.action<Contact>('get-contact', { phone })).body.id;
    const first = await server.http.send<{ data: WhatsappFlowAnswerRecord[]; next_cursor: string | null }>(
      'POST',
      '/api/v1/actions/list-whatsapp-flow-answers?paginate=cursor&limit=1',
      { token: api.token, body: { contact_id: contactId } },
    );
    assert.equal(first.status, 200, first.text);
    const [foreign] = first.body.data;
    assert.deepEqual(
      [foreign!.flow_token, foreign!.whatsapp_flow_id, foreign!.sent_message_id, foreign!.fields],
      ['made-by-another-tool', null, null, [{ name: 'rating', label: 'rating', value: '5' }]],
      'newest first: the answer to a Flow sent from elsewhere, labelled by its names',
    );
    const second = await server.http.send<{ data: WhatsappFlowAnswerRecord[]; next_cursor: string | null }>(
      'POST',
      `/api/v1/actions/list-whatsapp-flow-answers?paginate=cursor&limit=1&cursor=${first.body.next_cursor}`,
      { token: api.token, body: { contact_id: contactId } },
    );
    assert.deepEqual(
      second.body.data.map((answer) => answer.whatsapp_flow_id),
      [flow.id],
    );
    assert.equal(second.body.next_cursor, null);
    const otherFilter = await server.http.send<{ code: string }>(
      'POST',
      `/api/v1/actions/list-whatsapp-flow-answers?paginate=cursor&limit=1&cursor=${first.body.next_cursor}`,
      { token: api.token, body: { whatsapp_flow_id: flow.id } },
    );
    assert.equal(otherFilter.body.code, 'invalid_cursor', 'a cursor is for its own filters');
    const ofFlow = await api.action<WhatsappFlowAnswerRecord[]>('list-whatsapp-flow-answers', {
      whatsapp_flow_id: flow.id,
    });
    assert.equal(ofFlow.body.length, 1, 'the Flow’s own answers only');
    const unknown = await api.action('list-whatsapp-flow-answers', {
      whatsapp_flow_id: '00000000-0000-4000-8000-000000000001',
    });
    assert.equal(unknown.status, 404);
  });

  test('set-whatsapp-flow-attributes › a field the Flow’s answers lack is a 400 naming it; an agent gets 403 but reads answers', async () => {
    const shop = await business();
    const flow = await publishedSignUp(shop.api);
    const wrong = await shop.api.action<{ errors: { field: string; code: string; message: string }[] }>(
      'set-whatsapp-flow-attributes',
      { whatsapp_flow_id: flow.id, answer_attributes: { shoe_size: 'size' } },
    );
    assert.equal(wrong.status, 400, wrong.text);
    assert.deepEqual(wrong.body.errors, [
      {
        field: 'answer_attributes',
        code: 'whatsapp_flows.not_an_answer_field',
        message: '“shoe_size” is not a field of this Flow’s answers',
        params: { name: 'shoe_size' },
      },
    ]);

    const agent = await joinedTeammate(server, shop.owner, 'agent');
    const issued = await agent.send<{ token: string; id: string }>('POST', '/api/dashboard/tokens', { name: 'agent' });
    const asAgent = asClient(server.http, {
      ...issued.body,
      workspaceId: shop.owner.workspaceId,
      userId: '',
      tokenId: issued.body.id,
    });
    const denied = await asAgent.action<{ code: string }>('set-whatsapp-flow-attributes', {
      whatsapp_flow_id: flow.id,
      answer_attributes: {},
    });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'permission_denied');
    assert.equal((await asAgent.action('list-whatsapp-flow-answers', { whatsapp_flow_id: flow.id })).status, 200);
    assert.equal((await csvOf(agent, flow.id)).status, 200, 'agents export answers as they export contacts');
  });
});
