import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { metaError, startGraphStandIn, type ScriptedResponse } from '../../test/graph-stand-in.js';
import { ManualClock } from '../shared/clock.js';
import type { ChannelTemplate } from '../channels/provider.js';
import { createGraphClient, GraphError, type GraphClient } from './graph-client.js';
import { templatePayload, textPayload } from './payloads.js';

const API_VERSION = 'v23.0';
const PHONE_NUMBER_ID = '106540352242922';
const TOKEN = 'EAAG-test-token';
const TO = '+14155550100';

const standIn = await startGraphStandIn({ apiVersion: API_VERSION, accessToken: TOKEN });
const client = createGraphClient({ graphUrl: standIn.url, apiVersion: API_VERSION });
after(() => client.close());

function lastRequest() {
  const request = standIn.requests.at(-1);
  assert.ok(request, 'the stand-in received no request');
  return request;
}

async function rejection(promise: Promise<unknown>): Promise<GraphError> {
  const error = await promise.then(
    () => assert.fail('expected a GraphError'),
    (error: unknown) => error,
  );
  assert.ok(error instanceof GraphError, `expected a GraphError, got ${String(error)}`);
  return error;
}

/** Sends a text message that the stand-in answers with `response`. */
function failedSend(response: ScriptedResponse, graph: GraphClient = client): Promise<GraphError> {
  standIn.failNext(response);
  return rejection(graph.sendMessage(PHONE_NUMBER_ID, TOKEN, textPayload(TO, 'hi', false)));
}

function metaTemplate(name: string): ChannelTemplate {
  const components = [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['Ada']] } }];
  return { id: `${name}-id`, name, language: 'en_US', status: 'APPROVED', category: 'UTILITY', components };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('whatsapp cloud › sendMessage', () => {
  test('posts a text message to /{version}/{phone-number-id}/messages with the Bearer token', async () => {
    const { wamid } = await client.sendMessage(
      PHONE_NUMBER_ID,
      TOKEN,
      textPayload(TO, 'Hi *Ada* https://a.test', true),
    );

    assert.match(wamid, /^wamid\./);
    const request = lastRequest();
    assert.equal(request.method, 'POST');
    assert.equal(request.path, `/${API_VERSION}/${PHONE_NUMBER_ID}/messages`);
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(request.body, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: TO,
      type: 'text',
      text: { preview_url: true, body: 'Hi *Ada* https://a.test' },
    });
  });

  test('sends a template with an image header, body parameters and a URL button as Meta documents', async () => {
    const payload = templatePayload(TO, {
      name: 'order_shipped',
      language: 'en_US',
      header: { type: 'image', link: 'https://cdn.example.com/parcel.png' },
      bodyParams: [{ text: 'Ada' }, { text: 'ORD-1' }],
      buttonParams: [{ index: 0, subType: 'url', param: 'ORD-1' }],
    });
    await client.sendMessage(PHONE_NUMBER_ID, TOKEN, payload);

    assert.deepEqual(lastRequest().body, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: TO,
      type: 'template',
      template: {
        name: 'order_shipped',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/parcel.png' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'ORD-1' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ORD-1' }] },
        ],
      },
    });
  });

  test("returns messages[0].id of Meta's success body as the wamid", async () => {
    const wamid = 'wamid.HBgLMTQxNTU1NTAxMDAVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';
    const body = {
      messaging_product: 'whatsapp',
      contacts: [{ input: TO, wa_id: '14155550100' }],
      messages: [{ id: wamid }],
    };
    standIn.failNext({ status: 200, body });
    assert.deepEqual(await client.sendMessage(PHONE_NUMBER_ID, TOKEN, textPayload(TO, 'hi', false)), { wamid });
  });

  test('a 2xx without a message id is not retryable, its outcome unknown: the message may have been accepted', async () => {
    const error = await failedSend({ status: 200, body: { messaging_product: 'whatsapp', messages: [] } });
    assert.equal(error.title, 'Unexpected Graph API response');
    assert.equal(error.retryable, false);
    assert.equal(error.outcomeUnknown, true);
  });
});

describe('whatsapp cloud › errors', () => {
  test('429 with code 130429 is retryable and carries Retry-After in milliseconds', async () => {
    const error = await failedSend({
      status: 429,
      body: metaError(130429, 'Rate limit hit', 'Cloud API message throughput has been reached.'),
      headers: { 'retry-after': '30' },
    });
    assert.equal(error.httpStatus, 429);
    assert.equal(error.code, 130429);
    assert.equal(error.title, 'Rate limit hit');
    assert.equal(error.details, 'Cloud API message throughput has been reached.');
    assert.equal(error.retryable, true);
    assert.equal(error.retryAfterMs, 30_000);
    assert.match(error.fbtraceId ?? '', /\S/);
  });

  test('reads a Retry-After HTTP date against the injected clock', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const graph = createGraphClient({ graphUrl: standIn.url, apiVersion: API_VERSION, clock });
    after(() => graph.close());
    const headers = { 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' };
    const error = await failedSend(
      { status: 429, body: metaError(4, 'Application request limit reached'), headers },
      graph,
    );
    assert.equal(error.retryAfterMs, 60_000);
  });

  test('a 5xx is retryable, with an unknown Meta code or with no Meta body at all', async () => {
    const unknownCode = await failedSend({ status: 500, body: metaError(131000, 'Something went wrong') });
    assert.deepEqual([unknownCode.httpStatus, unknownCode.code, unknownCode.retryable], [500, 131000, true]);

    const proxyPage = await failedSend({ status: 503, body: '<html>Service Unavailable</html>' });
    assert.deepEqual([proxyPage.httpStatus, proxyPage.code, proxyPage.retryable], [503, null, true]);
    assert.equal(proxyPage.title, 'HTTP 503');
  });

  test('131047 (outside the 24-hour window) is permanent, with its code and title recorded', async () => {
    const details = 'Message failed to send because more than 24 hours have passed since the customer last replied.';
    const error = await failedSend({ status: 400, body: metaError(131047, 'Re-engagement message', details) });
    assert.equal(error.httpStatus, 400);
    assert.equal(error.code, 131047);
    assert.equal(error.title, 'Re-engagement message');
    assert.equal(error.details, details);
    assert.equal(error.retryable, false);
    assert.equal(error.message, `(#131047) Re-engagement message: ${details}`);
  });

  test('132000 (template parameter count mismatch) is permanent, with its code and title recorded', async () => {
    const title = 'Number of parameters does not match the expected number of params';
    const error = await failedSend({ status: 400, body: metaError(132000, title, 'body: number of params 1 != 2') });
    assert.equal(error.code, 132000);
    assert.equal(error.title, title);
    assert.equal(error.retryable, false);
  });

  test("Meta's code decides over the HTTP status; an unknown code falls back to the status", async () => {
    const retryable = [1, 2, 4, 80007, 130429, 131016, 131056, 133004];
    const permanent = [3, 100, 190, 131008, 131009, 131026, 131047, 131051, 132000, 132001, 132012];
    for (const code of retryable) {
      const error = await failedSend({ status: 400, body: metaError(code, 'title') });
      assert.equal(error.retryable, true, `code ${code} should be retryable`);
    }
    for (const code of permanent) {
      const error = await failedSend({ status: 500, body: metaError(code, 'title') });
      assert.equal(error.retryable, false, `code ${code} should be permanent`);
    }
    assert.equal((await failedSend({ status: 400, body: metaError(999999, 'New error') })).retryable, false);
    assert.equal((await failedSend({ status: 429, body: metaError(999999, 'New limit') })).retryable, true);
  });

  test('a missing access token gets 401 with code 190, which is permanent', async () => {
    const error = await rejection(client.sendMessage(PHONE_NUMBER_ID, '', textPayload(TO, 'hi', false)));
    assert.equal(error.httpStatus, 401);
    assert.equal(error.code, 190);
    assert.equal(error.retryable, false);
  });

  test('an unreachable Graph API is a retryable error without an HTTP status', async () => {
    const graph = createGraphClient({ graphUrl: 'http://127.0.0.1:1', apiVersion: API_VERSION, timeoutMs: 2_000 });
    after(() => graph.close());
    const error = await rejection(graph.sendMessage(PHONE_NUMBER_ID, TOKEN, textPayload(TO, 'hi', false)));
    assert.equal(error.httpStatus, null);
    assert.equal(error.code, null);
    assert.equal(error.retryable, true);
  });
});

describe('whatsapp cloud › listTemplates', () => {
  test('follows paging.next across pages until it is absent', async () => {
    standIn.setTemplates('waba-1', ['welcome', 'order_shipped', 'receipt'].map(metaTemplate));
    const before = standIn.requests.length;

    const templates = await collect(client.listTemplates('waba-1', TOKEN));

    assert.deepEqual(
      templates.map((t) => t.name),
      ['welcome', 'order_shipped', 'receipt'],
    );
    const requests = standIn.requests.slice(before);
    assert.equal(requests.length, 2);
    assert.equal(requests[0]!.path, `/${API_VERSION}/waba-1/message_templates?limit=100`);
    assert.match(requests[1]!.path, new RegExp(`^/${API_VERSION}/waba-1/message_templates\\?limit=100&after=`));
    for (const request of requests) assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
  });

  test('refuses to follow a paging.next to another origin, so the token goes nowhere else', async () => {
    const next = 'https://elsewhere.example/v23.0/waba-1/message_templates?after=x';
    standIn.failNext({ status: 200, body: { data: [metaTemplate('welcome')], paging: { next } } });
    const before = standIn.requests.length;

    const error = await rejection(collect(client.listTemplates('waba-1', TOKEN)));

    assert.equal(error.retryable, false);
    assert.equal(standIn.requests.length, before + 1);
  });
});

describe('whatsapp cloud › describeNumber', () => {
  test('reads the number with the token, then finds it among the WABA’s numbers across pages', async () => {
    const { wabaId } = standIn.addPhoneNumber();
    for (let i = 0; i < 3; i++) standIn.addPhoneNumber({ wabaId });
    const number = standIn.addPhoneNumber({ wabaId, verifiedName: 'Acme Support' }); // on the third page
    const before = standIn.requests.length;

    const described = await client.describeNumber(number.phoneNumberId, number.wabaId, TOKEN);

    assert.deepEqual(described, {
      connectable: true,
      number: {
        id: number.phoneNumberId,
        display_phone_number: number.displayPhoneNumber,
        verified_name: 'Acme Support',
        quality_rating: 'GREEN',
      },
    });
    const [first, ...listing] = standIn.requests.slice(before);
    assert.equal(
      first!.path,
      `/${API_VERSION}/${number.phoneNumberId}?fields=display_phone_number,verified_name,quality_rating`,
    );
    assert.equal(listing[0]!.path, `/${API_VERSION}/${number.wabaId}/phone_numbers`);
    assert.equal(listing.length, 3, 'the listing is read page by page until the number shows');
    for (const request of [first!, ...listing]) assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
  });

  test('refuses what Meta does not confirm: the token, the number, the WABA, or the pair', async () => {
    const number = standIn.addPhoneNumber();
    const otherBusiness = standIn.addPhoneNumber({ accessToken: 'EAAG-other-business' });
    const refusal = async (phoneNumberId: string, wabaId: string, token: string) => {
      const described = await client.describeNumber(phoneNumberId, wabaId, token);
      assert.equal(described.connectable, false);
      return described.connectable ? null : described.refused;
    };

    assert.equal(await refusal(number.phoneNumberId, number.wabaId, 'EAAG-made-up'), 'access_token');
    assert.equal(await refusal(otherBusiness.phoneNumberId, number.wabaId, TOKEN), 'phone_number');
    assert.equal(await refusal(number.phoneNumberId, otherBusiness.wabaId, TOKEN), 'waba');
    const sameBusiness = standIn.addPhoneNumber();
    assert.equal(await refusal(number.phoneNumberId, sameBusiness.wabaId, TOKEN), 'not_in_waba');
  });

  test('passes on Meta’s own words, and throws when Meta could not be asked', async () => {
    const number = standIn.addPhoneNumber();
    const described = await client.describeNumber(number.phoneNumberId, number.wabaId, 'EAAG-made-up');
    assert.deepEqual(described, {
      connectable: false,
      refused: 'access_token',
      metaMessage: 'Invalid OAuth access token - Cannot parse access token',
    });

    standIn.failNext({ status: 503, body: metaError(2, 'Service temporarily unavailable') });
    const error = await rejection(client.describeNumber(number.phoneNumberId, number.wabaId, TOKEN));
    assert.equal(error.retryable, true);
  });
});

describe('whatsapp cloud › templatePayload', () => {
  test('leaves out components without parameters, and components altogether when none has any', () => {
    const payload = templatePayload(TO, {
      name: 'hello_world',
      language: 'en_US',
      header: { type: 'text', params: [] },
      bodyParams: [],
      buttonParams: [],
    });
    assert.deepEqual(payload.template, { name: 'hello_world', language: { code: 'en_US' } });
  });

  test('a text header takes text parameters and a quick-reply button a payload parameter', () => {
    const payload = templatePayload(TO, {
      name: 'survey',
      language: 'fr',
      header: { type: 'text', params: [{ text: 'Ada' }] },
      bodyParams: [],
      buttonParams: [{ index: 1, subType: 'quick_reply', param: 'survey-yes' }],
    });
    assert.deepEqual(payload.template.components, [
      { type: 'header', parameters: [{ type: 'text', text: 'Ada' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'survey-yes' }] },
    ]);
  });

  test('a document header carries its link under the document key', () => {
    const header = { type: 'document' as const, link: 'https://cdn.example.com/invoice.pdf' };
    const payload = templatePayload(TO, { name: 'invoice', language: 'en', header, bodyParams: [], buttonParams: [] });
    assert.deepEqual(payload.template.components, [
      { type: 'header', parameters: [{ type: 'document', document: { link: 'https://cdn.example.com/invoice.pdf' } }] },
    ]);
  });
});
