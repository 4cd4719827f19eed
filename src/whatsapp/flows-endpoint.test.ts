import assert from 'node:assert/strict';
import { createHmac, createPublicKey, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { ownerApi, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { API_VERSION, APP_SECRET, startWhatsappServer } from '../../test/whatsapp.js';
import type { FlowsEndpoint } from '../flows-endpoint/flows-endpoint.schema.js';
import {
  dataExchangeRequest,
  encryptFlowRequest,
  ERROR_NOTIFICATION_RESPONSE,
  errorNotificationRequest,
  flowTokenSignature,
  HEALTH_CHECK_REQUEST,
  HEALTH_CHECK_RESPONSE,
} from './flows-endpoint.fixtures.js';
import { inboundTextWebhook, signBody } from './webhook.fixtures.js';
import { bookingFlowJson } from '../whatsapp-flows/whatsapp-flow.fixtures.js';

// The business endpoint runs on loopback over plain http, which only PARLEY_ALLOW_PRIVATE_WEBHOOKS permits.
const { server, graph, connect, postWebhook } = await startWhatsappServer({
  env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' },
});

interface Problem {
  code: string;
  errors?: { field: string; code: string }[];
}

type Endpoint = FlowsEndpoint & { signing_secret: string | null };

/** One request the business endpoint got, and whether its Standard Webhooks signature verified. */
interface Relayed {
  path: string;
  body: Record<string, unknown>;
  signed: boolean;
}

/** What a business endpoint path answers: a status and JSON, or never (it hangs). */
type Policy = (body: Record<string, unknown>) => { status: number; body: object } | 'hang';

const relayed: Relayed[] = [];
const endpoints = new Map<string, { secret: string; policy: Policy }>();

/** The business's own endpoint, as an integrator writes one: it checks each signature as Standard Webhooks says. */
const business = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    const path = req.url ?? '';
    const { secret, policy } = endpoints.get(path)!;
    const id = String(req.headers['webhook-id']);
    const timestamp = String(req.headers['webhook-timestamp']);
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest('base64');
    const body = JSON.parse(raw) as Record<string, unknown>;
    relayed.push({ path, body, signed: req.headers['webhook-signature'] === `v1,${expected}` });
    const answer = policy(body);
    if (answer === 'hang') return;
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
});
await new Promise<void>((resolve) => business.listen(0, '127.0.0.1', resolve));
after(() => {
  business.closeAllConnections();
  business.close();
});
const businessUrl = `http://127.0.0.1:${(business.address() as { port: number }).port}`;

/** Each channel's phone number id, by channel id: whose key at Meta a request is encrypted to. */
const numbers = new Map<string, string>();

/** A workspace on WhatsApp Cloud (the stand-in): its owner, API client, number and channel id. */
async function numberOfOwn() {
  const owner = await ownerSession(server);
  const api = await ownerApi(server, owner);
  const number = await connect(api.workspaceId);
  const channels = await api.action<{ channels: { id: string }[] }>('list-channels');
  const channelId = channels.body.channels[0]!.id;
  numbers.set(channelId, number.phoneNumberId);
  return { owner, api, ...number, channelId };
}

async function setUp(api: TestWorkspace, channelId: string): Promise<FlowsEndpoint> {
  const response = await api.action<FlowsEndpoint>('set-up-flows-encryption', { channel_id: channelId });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Points the number's screens at a path of the business endpoint, which answers by `policy`. */
async function relayTo(api: TestWorkspace, channelId: string, path: string, policy: Policy): Promise<Endpoint> {
  const response = await api.action<Endpoint>('set-flows-business-endpoint', {
    channel_id: channelId,
    url: businessUrl + path,
  });
  assert.equal(response.status, 200, response.text);
  endpoints.set(path, { secret: response.body.signing_secret!, policy });
  return response.body;
}

/**
 * Meta's request to the endpoint URL Parley shows: the payload encrypted to the key Meta holds for the
 * number (or `publicKey`), signed with the app secret (or `signature`).
 */
async function metaSends(
  endpoint: FlowsEndpoint,
  payload: object,
  options: { publicKey?: string; signature?: string } = {},
) {
  const phoneNumberId = numbers.get(endpoint.channel_id)!;
  const sent = encryptFlowRequest(options.publicKey ?? graph.businessPublicKey(phoneNumberId)!, payload);
  const raw = JSON.stringify(sent.body);
  const response = await server.http.send('POST', new URL(endpoint.endpoint_url).pathname, {
    rawBody: raw,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': options.signature ?? signBody(raw, APP_SECRET),
    },
  });
  return { response, answer: () => sent.decryptAnswer(response.text) };
}

const keyRequests = (phoneNumberId: string, method: string) =>
  graph.requests.filter(
    (r) => r.method === method && r.path === `/${API_VERSION}/${phoneNumberId}/whatsapp_business_encryption`,
  );

describe(`WhatsApp Flows: data endpoint (${ENGINE})`, () => {
  test('set-up-flows-encryption › registers a new RSA 2048 public key with Meta, keeps the private key sealed, and shows Meta’s word on it; owners and admins only', async () => {
    const { owner, api, phoneNumberId, channelId } = await numberOfOwn();
    const before = await api.action<FlowsEndpoint>('get-flows-endpoint', { channel_id: channelId });
    assert.equal(before.status, 200, before.text);
    assert.deepEqual([before.body.key_status, before.body.public_key], ['not_set_up', null]);
    assert.equal(before.body.endpoint_url, `${server.config.publicBaseUrl}/webhooks/whatsapp/flows/${channelId}`);

    const first = await setUp(api, channelId);
    assert.equal(first.key_status, 'valid');
    const [upload] = keyRequests(phoneNumberId, 'POST');
    assert.match(String(upload!.headers['content-type']), /^multipart\/form-data/);
    const registered = (upload!.body as { fields: Record<string, string> }).fields.business_public_key!;
    // Multipart form data carries a value's line breaks as CRLF.
    assert.equal(registered.replaceAll('\r\n', '\n'), first.public_key, 'the key Meta took is the one shown');
    assert.equal(createPublicKey(registered).asymmetricKeyDetails?.modulusLength, 2048);
    const row = await server.app.services.deps.db
      .selectFrom('flows_endpoints')
      .select('private_key')
      .where('channel_id', '=', channelId)
      .executeTakeFirstOrThrow();
    assert.doesNotMatch(row.private_key!, /PRIVATE KEY|MII/, 'sealed at rest, never the PEM');

    graph.setBusinessKeyStatus(phoneNumberId, 'MISMATCH');
    const mismatch = await api.action<FlowsEndpoint>('get-flows-endpoint', { channel_id: channelId });
    assert.equal(mismatch.body.key_status, 'mismatch');
    const second = await setUp(api, channelId);
    assert.equal(second.key_status, 'valid');
    assert.notEqual(second.public_key, first.public_key, 'a new pair replaces the old one');

    const member = await joinedTeammate(server, owner, 'member');
    for (const action of ['set-up-flows-encryption', 'get-flows-endpoint', 'set-flows-business-endpoint']) {
      const refused = await member.send<Problem>('POST', `/api/v1/actions/${action}`, {
        channel_id: channelId,
        url: null,
      });
      assert.equal(refused.status, 403, `${action}: ${refused.text}`);
      assert.equal(refused.body.code, 'permission_denied');
    }
    const other = await numberOfOwn();
    const notTheirs = await other.api.action<Problem>('set-up-flows-encryption', { channel_id: channelId });
    assert.equal(notTheirs.status, 404, notTheirs.text);
    assert.deepEqual(
      notTheirs.body.errors?.map((e) => e.field),
      ['channel_id'],
    );
  });

  test('set-up-flows-encryption › when Meta refuses the key, the answer is 409 in Meta’s words and the key in use keeps working', async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    graph.failNext({
      status: 400,
      body: { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: 'A1' } },
    });
    const refused = await api.action<Problem>('set-up-flows-encryption', { channel_id: channelId });
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.text, /Invalid parameter/);
    const still = await api.action<FlowsEndpoint>('get-flows-endpoint', { channel_id: channelId });
    assert.equal(still.body.public_key, endpoint.public_key);
    const { response, answer } = await metaSends(endpoint, HEALTH_CHECK_REQUEST);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(answer(), HEALTH_CHECK_RESPONSE);
  });

  test("endpoint › Meta's documented health check is answered active, encrypted under the flipped IV, as plain text", async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    const { response, answer } = await metaSends(endpoint, HEALTH_CHECK_REQUEST);
    assert.equal(response.status, 200, response.text);
    assert.match(String(response.headers['content-type']), /^text\/plain/);
    assert.match(response.text, /^[A-Za-z0-9+/]+=*$/, 'base64');
    assert.deepEqual(answer(), HEALTH_CHECK_RESPONSE);
  });

  test('endpoint › INIT, data_exchange and BACK are relayed signed to the business endpoint and its answers come back encrypted; error notifications are acknowledged', async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    // Meta's "Next Screen Response Payload" and "Final Response Payload", as a business endpoint answers them.
    await relayTo(api, channelId, `/florist-${channelId}`, (request) =>
      request.action === 'data_exchange'
        ? {
            status: 200,
            body: {
              screen: 'SUCCESS',
              data: { extension_message_response: { params: { flow_token: request.flow_token, order: 'A-17' } } },
            },
          }
        : { status: 200, body: { screen: 'PICK_FLOWERS', data: { bouquets: ['Roses', 'Tulips'] } } },
    );
    const flowToken = `token-${channelId}`;

    const init = await metaSends(endpoint, dataExchangeRequest({ action: 'INIT', flowToken }));
    assert.equal(init.response.status, 200, init.response.text);
    assert.deepEqual(init.answer(), { screen: 'PICK_FLOWERS', data: { bouquets: ['Roses', 'Tulips'] } });
    const submitted = dataExchangeRequest({
      action: 'data_exchange',
      flowToken,
      screen: 'PICK_FLOWERS',
      data: { bouquet: 'Roses', quantity: 2 },
    });
    const exchange = await metaSends(endpoint, submitted);
    assert.deepEqual(exchange.answer(), {
      screen: 'SUCCESS',
      data: { extension_message_response: { params: { flow_token: flowToken, order: 'A-17' } } },
    });
    const back = await metaSends(endpoint, dataExchangeRequest({ action: 'BACK', flowToken, screen: 'CONFIRM' }));
    assert.deepEqual(back.answer(), { screen: 'PICK_FLOWERS', data: { bouquets: ['Roses', 'Tulips'] } });

    const mine = relayed.filter((r) => r.path === `/florist-${channelId}`);
    assert.deepEqual(
      mine.map((r) => r.body),
      [
        dataExchangeRequest({ action: 'INIT', flowToken }),
        submitted,
        dataExchangeRequest({ action: 'BACK', flowToken, screen: 'CONFIRM' }),
      ],
      'Meta’s decrypted JSON, as Meta sent it',
    );
    assert.ok(
      mine.every((r) => r.signed),
      'every relayed request is signed with the secret shown once',
    );

    const error = await metaSends(endpoint, errorNotificationRequest(flowToken, 'PICK_FLOWERS'));
    assert.deepEqual(error.answer(), ERROR_NOTIFICATION_RESPONSE);
    const ping = await metaSends(endpoint, HEALTH_CHECK_REQUEST);
    assert.deepEqual(ping.answer(), HEALTH_CHECK_RESPONSE);
    assert.equal(relayed.filter((r) => r.path === `/florist-${channelId}`).length, 3, 'neither was relayed');
  });

  test('endpoint › a request Parley cannot decrypt is 421 (so Meta fetches the key again); a bad signature is 432', async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    const stranger = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }).publicKey;
    const otherKey = await metaSends(endpoint, HEALTH_CHECK_REQUEST, { publicKey: stranger });
    assert.equal(otherKey.response.status, 421, otherKey.response.text);
    assert.equal((otherKey.response.body as Problem).code, 'flows_request_undecryptable');

    const oldKey = endpoint.public_key!;
    await setUp(api, channelId);
    const rotated = await metaSends(endpoint, HEALTH_CHECK_REQUEST, { publicKey: oldKey });
    assert.equal(rotated.response.status, 421, 'a client still holding the old key refetches it');
    assert.equal((await metaSends(endpoint, HEALTH_CHECK_REQUEST)).response.status, 200, 'then succeeds');

    const unsigned = await metaSends(endpoint, HEALTH_CHECK_REQUEST, { signature: signBody('{}', APP_SECRET) });
    assert.equal(unsigned.response.status, 432, unsigned.response.text);
    assert.equal((unsigned.response.body as Problem).code, 'flows_signature_invalid');

    const { api: otherApi, channelId: notSetUp } = await numberOfOwn();
    const none = await otherApi.action<FlowsEndpoint>('get-flows-endpoint', { channel_id: notSetUp });
    const noKey = await metaSends(none.body, HEALTH_CHECK_REQUEST, { publicKey: stranger });
    assert.equal(noKey.response.status, 421, 'a number without a key pair cannot decrypt either');
  });

  test('endpoint › a business endpoint that hangs: the person gets the same screen with an error within Meta’s 10 s, and other requests are served meanwhile', async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    await relayTo(api, channelId, `/hangs-${channelId}`, () => 'hang');
    const flowToken = `token-${channelId}`;
    const started = performance.now();
    const hanging = metaSends(
      endpoint,
      dataExchangeRequest({ action: 'data_exchange', flowToken, screen: 'PICK_FLOWERS', data: {} }),
    );
    const ping = await metaSends(endpoint, HEALTH_CHECK_REQUEST);
    assert.deepEqual(ping.answer(), HEALTH_CHECK_RESPONSE);
    assert.ok(performance.now() - started < 2_000, 'the ping did not wait for the hanging screen');

    const { response, answer } = await hanging;
    const waited = performance.now() - started;
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(answer(), {
      screen: 'PICK_FLOWERS',
      data: { error_message: 'Something went wrong. Please try again.' },
    });
    assert.ok(waited < 10_000, `answered after ${Math.round(waited)} ms`);

    // INIT names no screen to stay on: Meta's client shows its generic error.
    await relayTo(api, channelId, `/fails-${channelId}`, () => ({ status: 500, body: {} }));
    const init = await metaSends(endpoint, dataExchangeRequest({ action: 'INIT', flowToken }));
    assert.equal(init.response.status, 502, init.response.text);
  });

  test('endpoint › the business endpoint’s 427 closes the Flow with its message, as Meta documents', async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    await relayTo(api, channelId, `/placed-${channelId}`, () => ({
      status: 427,
      body: { error_msg: 'The order has already been placed' },
    }));
    const { response } = await metaSends(
      endpoint,
      dataExchangeRequest({ action: 'data_exchange', flowToken: 'used', screen: 'CONFIRM', data: {} }),
    );
    assert.equal(response.status, 427, response.text);
    assert.deepEqual(response.body, { error_msg: 'The order has already been placed' });
  });

  test('set-flows-business-endpoint › a new signing secret each time it is set, null removes it; private addresses are refused where they are not allowed', async () => {
    const { api, channelId } = await numberOfOwn();
    const first = await relayTo(api, channelId, `/a-${channelId}`, () => ({ status: 200, body: {} }));
    assert.match(first.signing_secret!, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(first.business_endpoint_url, `${businessUrl}/a-${channelId}`);
    const again = await relayTo(api, channelId, `/a-${channelId}`, () => ({ status: 200, body: {} }));
    assert.notEqual(again.signing_secret, first.signing_secret);
    const shown = await api.action<FlowsEndpoint>('get-flows-endpoint', { channel_id: channelId });
    assert.equal('signing_secret' in shown.body, false, 'the secret is shown only when set');
    const removed = await api.action<Endpoint>('set-flows-business-endpoint', { channel_id: channelId, url: null });
    assert.deepEqual([removed.body.business_endpoint_url, removed.body.signing_secret], [null, null]);

    // A server as deployed: the rules of outgoing webhooks' URLs.
    const strict = await startServer();
    const owner = await ownerSession(strict);
    const strictApi = await ownerApi(strict, owner);
    const simulated = await strictApi.action<{ id: string }>('add-channel', {
      provider: 'simulator',
      phone_number_id: '4242',
    });
    for (const [url, code] of [
      ['http://127.0.0.1:8080/flows', 'webhooks_out.https_required'],
      ['https://127.0.0.1/flows', 'webhooks_out.private_target'],
      ['https://localhost/flows', 'webhooks_out.private_target'],
      ['https://192.168.1.20/flows', 'webhooks_out.private_target'],
    ]) {
      const refused = await strictApi.action<Problem>('set-flows-business-endpoint', {
        channel_id: simulated.body.id,
        url,
      });
      assert.equal(refused.status, 400, `${url}: ${refused.text}`);
      assert.deepEqual(
        refused.body.errors?.map((e) => [e.field, e.code]),
        [['url', code]],
      );
    }
  });

  test('error notifications › the latest five Meta sent are kept per number, newest first, for the person to read', async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    for (const screen of ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX']) {
      const { answer } = await metaSends(endpoint, errorNotificationRequest(`token-${screen}`, screen));
      assert.deepEqual(answer(), ERROR_NOTIFICATION_RESPONSE);
    }
    const shown = await api.action<FlowsEndpoint>('get-flows-endpoint', { channel_id: channelId });
    assert.deepEqual(
      shown.body.error_notifications.map((n) => [n.screen, n.flow_token, n.error]),
      ['SIX', 'FIVE', 'FOUR', 'THREE', 'TWO'].map((screen) => [screen, `token-${screen}`, 'payload-schema-error']),
    );
    assert.equal(
      shown.body.error_notifications[0]!.error_message,
      'The client received the screen data which are not conforming to screen data schema',
    );
  });

  test('flow_token_signature › a token signed with the app secret is served; one signed otherwise, or for another token, gets Meta’s 427', async () => {
    const { api, channelId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    await relayTo(api, channelId, `/signed-${channelId}`, () => ({
      status: 200,
      body: { screen: 'PICK_FLOWERS', data: {} },
    }));
    const flowToken = `token-${channelId}`;
    const signed = await metaSends(
      endpoint,
      dataExchangeRequest({ action: 'INIT', flowToken, signature: flowTokenSignature(flowToken, APP_SECRET) }),
    );
    assert.equal(signed.response.status, 200, signed.response.text);
    assert.deepEqual(signed.answer(), { screen: 'PICK_FLOWERS', data: {} });

    for (const signature of [
      flowTokenSignature(flowToken, 'not-the-app-secret'),
      flowTokenSignature('another-token', APP_SECRET),
      'not-a-jwt',
    ]) {
      const { response } = await metaSends(endpoint, dataExchangeRequest({ action: 'INIT', flowToken, signature }));
      assert.equal(response.status, 427, response.text);
      assert.deepEqual(response.body, { error_msg: 'This form can no longer be used. Please ask for a new one.' });
    }
    assert.equal(relayed.filter((r) => r.path === `/signed-${channelId}`).length, 1, 'refused ones were not relayed');
  });

  test('set-flows-screen-answers › Parley answers the Flow from its screen table: the contact the token names, what they entered, and Meta’s SUCCESS at the end', async () => {
    const { api, channelId, phoneNumberId } = await numberOfOwn();
    const endpoint = await setUp(api, channelId);
    const phone = `+1415555${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`;
    const created = await api.action('create-contact', { phone, name: 'Rosa Díaz', metadata: { city: 'Lisbon' } });
    assert.equal(created.status, 201, created.text);
    const wrote = inboundTextWebhook({ phoneNumberId, from: phone, text: 'Flowers?', timestamp: server.clock.now() });
    assert.equal((await postWebhook(wrote)).status, 200);
    const flow = (await api.action<{ id: string }>('create-whatsapp-flow', { name: 'Order', categories: ['OTHER'] }))
      .body;
    await api.action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: bookingFlowJson() });
    await api.action('publish-whatsapp-flow', { whatsapp_flow_id: flow.id });
    const sent = await api.action<{ content: { interactive: { action: { parameters: { flow_token: string } } } } }>(
      'send-whatsapp-flow',
      { phone, whatsapp_flow_id: flow.id, body: 'Order flowers', cta: 'Order', flow_action: 'data_exchange' },
    );
    assert.equal(sent.status, 200, sent.text);
    const flowToken = sent.body.content.interactive.action.parameters.flow_token;

    const screens = [
      {
        screen: null,
        next_screen: 'PICK',
        data: { greeting: 'Hi {{contact.first_name}}, flowers for {{attributes.city}}?' },
      },
      { screen: 'PICK', next_screen: 'CONFIRM', data: { summary: '{{context.quantity}} × {{context.bouquet}}' } },
      { screen: 'CONFIRM', next_screen: 'SUCCESS', data: { order: '{{context.bouquet}} for {{contact.phone}}' } },
    ];
    const set = await api.action<FlowsEndpoint>('set-flows-screen-answers', {
      channel_id: channelId,
      answered_by: 'parley',
      screen_answers: screens,
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual([set.body.answered_by, set.body.screen_answers], ['parley', screens]);

    const init = await metaSends(endpoint, dataExchangeRequest({ action: 'INIT', flowToken }));
    assert.equal(init.response.status, 200, init.response.text);
    assert.deepEqual(init.answer(), { screen: 'PICK', data: { greeting: 'Hi Rosa, flowers for Lisbon?' } });
    const pick = await metaSends(
      endpoint,
      dataExchangeRequest({
        action: 'data_exchange',
        flowToken,
        screen: 'PICK',
        data: { bouquet: 'Roses', quantity: 2 },
      }),
    );
    assert.deepEqual(pick.answer(), { screen: 'CONFIRM', data: { summary: '2 × Roses' } });
    const back = await metaSends(endpoint, dataExchangeRequest({ action: 'BACK', flowToken, screen: 'PICK' }));
    assert.deepEqual(back.answer(), { screen: 'PICK', data: { greeting: 'Hi Rosa, flowers for Lisbon?' } });
    // Meta's "Final Response Payload": the params come back in the customer's nfm_reply with the token.
    const confirm = await metaSends(
      endpoint,
      dataExchangeRequest({ action: 'data_exchange', flowToken, screen: 'CONFIRM', data: { note: '' } }),
    );
    assert.deepEqual(confirm.answer(), {
      screen: 'SUCCESS',
      data: { extension_message_response: { params: { order: `Roses for ${phone}`, flow_token: flowToken } } },
    });

    // A screen the table does not name: Meta's graceful answer, the same screen with an error message.
    const unknown = await metaSends(
      endpoint,
      dataExchangeRequest({ action: 'data_exchange', flowToken, screen: 'PAYMENT', data: {} }),
    );
    assert.deepEqual(unknown.answer(), {
      screen: 'PAYMENT',
      data: { error_message: 'Something went wrong. Please try again.' },
    });
    // A token Parley never sent (WhatsApp Manager's preview): the contact's placeholders read empty.
    const preview = await metaSends(endpoint, dataExchangeRequest({ action: 'INIT', flowToken: 'flows-builder-1' }));
    assert.deepEqual(preview.answer(), { screen: 'PICK', data: { greeting: 'Hi, flowers for?' } });

    // Back to the business's own endpoint: the table is kept.
    const relaying = await api.action<FlowsEndpoint>('set-flows-screen-answers', {
      channel_id: channelId,
      answered_by: 'business_endpoint',
      screen_answers: screens,
    });
    assert.deepEqual([relaying.body.answered_by, relaying.body.screen_answers.length], ['business_endpoint', 3]);
    const noEndpoint = await metaSends(endpoint, dataExchangeRequest({ action: 'INIT', flowToken }));
    assert.equal(noEndpoint.response.status, 502, 'no business endpoint set: nobody answers');
  });

  test('set-flows-screen-answers › a screen answered twice is refused naming the row; members may not set it', async () => {
    const { owner, api, channelId } = await numberOfOwn();
    const refused = await api.action<Problem>('set-flows-screen-answers', {
      channel_id: channelId,
      answered_by: 'parley',
      screen_answers: [
        { screen: null, next_screen: 'A', data: {} },
        { screen: 'A', next_screen: 'SUCCESS', data: {} },
        { screen: 'A', next_screen: 'B', data: {} },
        { screen: null, next_screen: 'B', data: {} },
      ],
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(
      refused.body.errors?.map((e) => [e.field, e.code]),
      [
        ['screen_answers[2].screen', 'flows_endpoint.screen_repeated'],
        ['screen_answers[3].screen', 'flows_endpoint.opening_repeated'],
      ],
    );
    const badId = await api.action<Problem>('set-flows-screen-answers', {
      channel_id: channelId,
      answered_by: 'parley',
      screen_answers: [{ screen: 'has space', next_screen: 'A', data: {} }],
    });
    assert.equal(badId.status, 400, badId.text);
    const member = await joinedTeammate(server, owner, 'member');
    const denied = await member.send<Problem>('POST', '/api/v1/actions/set-flows-screen-answers', {
      channel_id: channelId,
      answered_by: 'parley',
      screen_answers: [],
    });
    assert.equal(denied.status, 403, denied.text);
  });
});
