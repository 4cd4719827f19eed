import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { metaError, startGraphStandIn } from '../../test/graph-stand-in.js';
import type { OutboundContent } from '../messages/outbound/content.js';
import type { TemplateContent } from '../messages/outbound/template.js';
import { createGraphClient } from './whatsapp-cloud.js';
import { whatsappCloudProvider, type CloudChannel } from './whatsapp-cloud.provider.js';

/**
 * The WhatsApp Cloud provider against the Graph API stand-in: for every kind of message Parley sends,
 * the exact request Meta documents ("Messages" reference of the Cloud API: POST
 * /{Version}/{Phone-Number-ID}/messages), and Meta's send errors classified as the outbox relies on.
 */

const API_VERSION = 'v23.0';
const TO = '+14155550100';
const MESSAGE_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

const standIn = await startGraphStandIn({ apiVersion: API_VERSION });
const number = standIn.addPhoneNumber();
const channel: CloudChannel = { ...number, messagesPerSecond: 80 };
const graph = createGraphClient({ graphUrl: standIn.url, apiVersion: API_VERSION, timeoutMs: 2_000 });
after(() => graph.close());
const provider = whatsappCloudProvider(graph, channel);

const send = (message: OutboundContent) => provider.send({ messageId: MESSAGE_ID, to: TO, message });

/** The request Meta received for the last send: its target, token and JSON body. */
function lastSend() {
  const request = standIn.requests.at(-1)!;
  assert.equal(request.method, 'POST');
  assert.equal(request.path, `/${API_VERSION}/${number.phoneNumberId}/messages`);
  assert.equal(request.headers.authorization, `Bearer ${number.accessToken}`);
  assert.equal(request.headers['content-type'], 'application/json');
  return request.body;
}

/** Every send carries Parley's message id, which Meta echoes in the message's status webhooks. */
const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to: TO };
const callback = { biz_opaque_callback_data: MESSAGE_ID };

const template = (fields: Partial<TemplateContent>): TemplateContent => ({
  template_id: '0192f3a4-0000-7000-8000-000000000001',
  template_name: 'order_shipped',
  category: 'UTILITY',
  language: 'en_US',
  body_parameters: [],
  header: null,
  url_button_parameters: [],
  text: 'Your order shipped',
  ...fields,
});

describe('whatsapp cloud provider › the request for each kind of message', () => {
  test('text, with its link preview flag', async () => {
    const sent = await send({ type: 'text', content: { body: 'Hi *Ada* https://a.test', preview_url: true } });
    assert.equal(sent.outcome, 'accepted');
    assert.match(sent.providerMessageId, /^wamid\./);
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'text',
      text: { preview_url: true, body: 'Hi *Ada* https://a.test' },
      ...callback,
    });
  });

  test('a template without parameters: no components at all', async () => {
    await send({ type: 'template', content: template({}) });
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'template',
      template: { name: 'order_shipped', language: { code: 'en_US' } },
      ...callback,
    });
  });

  test('a template with a document header, body parameters and a URL button', async () => {
    const content = template({
      header: { type: 'document', link: 'https://cdn.example.com/invoice.pdf' },
      body_parameters: ['Ada', 'ORD-1'],
      url_button_parameters: [{ index: 1, text: 'ORD-1' }],
    });
    await send({ type: 'template', content });
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'template',
      template: {
        name: 'order_shipped',
        language: { code: 'en_US' },
        components: [
          {
            type: 'header',
            parameters: [{ type: 'document', document: { link: 'https://cdn.example.com/invoice.pdf' } }],
          },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'ORD-1' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'ORD-1' }] },
        ],
      },
      ...callback,
    });
  });

  test('a NAMED template: each header and body parameter carries its parameter_name', async () => {
    const content = template({
      header: { type: 'text', parameters: ['SKBUP2-4CPIG9'], parameter_names: ['order_number'] },
      body_parameters: ['Jessica', 'SKBUP2-4CPIG9'],
      body_parameter_names: ['first_name', 'order_number'],
    });
    await send({ type: 'template', content });
    // Meta's "Named parameters" send example.
    assert.deepEqual((lastSend() as { template: object }).template, {
      name: 'order_shipped',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'text', parameter_name: 'order_number', text: 'SKBUP2-4CPIG9' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', parameter_name: 'first_name', text: 'Jessica' },
            { type: 'text', parameter_name: 'order_number', text: 'SKBUP2-4CPIG9' },
          ],
        },
      ],
    });
  });

  test('a copy-code button takes its coupon code; buttons go in template order', async () => {
    const content = template({
      body_parameters: ['25OFF'],
      url_button_parameters: [{ index: 1, text: 'fall25' }],
      copy_code_parameters: [{ index: 0, coupon_code: '25OFF' }],
    });
    await send({ type: 'template', content });
    // Meta's "Sending limited-time offer templates" example writes the copy-code button this way.
    assert.deepEqual((lastSend() as { template: { components: object[] } }).template.components, [
      { type: 'body', parameters: [{ type: 'text', text: '25OFF' }] },
      { type: 'button', sub_type: 'copy_code', index: 0, parameters: [{ type: 'coupon_code', coupon_code: '25OFF' }] },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'fall25' }] },
    ]);
  });

  test('a one-time password: the code in the body and in the OTP button (a url button to Meta)', async () => {
    const content = template({
      body_parameters: ['J$FpnYnP'],
      url_button_parameters: [{ index: 0, text: 'J$FpnYnP' }],
    });
    await send({ type: 'template', content });
    // Meta's "Copy code authentication templates" send example.
    assert.deepEqual((lastSend() as { template: { components: object[] } }).template.components, [
      { type: 'body', parameters: [{ type: 'text', text: 'J$FpnYnP' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'J$FpnYnP' }] },
    ]);
  });

  test('reply buttons', async () => {
    const interactive = {
      type: 'button' as const,
      body: { text: 'Track your order?' },
      action: {
        buttons: [
          { type: 'reply' as const, reply: { id: 'track', title: 'Track' } },
          { type: 'reply' as const, reply: { id: 'agent', title: 'Talk to us' } },
        ],
      },
    };
    await send({ type: 'interactive', content: { interactive, text: 'Track your order?' } });
    assert.deepEqual(lastSend(), { ...envelope, type: 'interactive', interactive, ...callback });
  });

  test('a list', async () => {
    const interactive = {
      type: 'list' as const,
      body: { text: 'Pick a size' },
      action: {
        button: 'Sizes',
        sections: [{ title: 'Shirts', rows: [{ id: 's', title: 'Small', description: 'Chest 90 cm' }] }],
      },
    };
    await send({ type: 'interactive', content: { interactive, text: 'Pick a size' } });
    assert.deepEqual(lastSend(), { ...envelope, type: 'interactive', interactive, ...callback });
  });

  test('to a user Meta named only by business-scoped user id: `recipient` instead of `to`', async () => {
    const bsuid = 'US.13491208655302741918';
    await provider.send({
      messageId: MESSAGE_ID,
      to: bsuid,
      message: { type: 'text', content: { body: 'hi', preview_url: false } },
    });
    assert.deepEqual(lastSend(), {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      recipient: bsuid,
      type: 'text',
      text: { preview_url: false, body: 'hi' },
      ...callback,
    });
  });

  test('markRead posts Meta’s read receipt for a received message', async () => {
    await provider.markRead('wamid.HBgLMTQxNTU1NTAxMDAVAgASGBQzQUFGMjY4');
    assert.deepEqual(lastSend(), {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: 'wamid.HBgLMTQxNTU1NTAxMDAVAgASGBQzQUFGMjY4',
    });
  });
});

describe('whatsapp cloud provider › send errors, classified once', () => {
  const text: OutboundContent = { type: 'text', content: { body: 'hi', preview_url: false } };
  const answered = async (status: number, code: number, title: string) => {
    standIn.failNext({ status, body: metaError(code, title, 'details from Meta') });
    return send(text);
  };

  test('131047: final, and the contact’s window is closed', async () => {
    assert.deepEqual(await answered(400, 131047, 'Re-engagement message'), {
      outcome: 'failed',
      error: { code: 131047, title: 'Re-engagement message', details: 'details from Meta' },
      windowClosed: true,
    });
  });

  for (const [code, title] of [
    [131026, 'Message undeliverable'],
    [131049, 'This message was not delivered to maintain healthy ecosystem engagement.'],
    [130472, "User's number is part of an experiment"],
    [132001, 'Template name does not exist in the translation'],
  ] as const) {
    test(`${code}: final for the message, never retried`, async () => {
      const outcome = await answered(400, code, title);
      assert.equal(outcome.outcome, 'failed');
      assert.equal(outcome.windowClosed, false);
    });
  }

  for (const code of [130429, 131056]) {
    test(`${code}: throttled, retried later`, async () => {
      standIn.failNext({ status: 400, body: metaError(code, 'Rate limit hit'), headers: { 'retry-after': '7' } });
      assert.deepEqual(await send(text), {
        outcome: 'retry',
        error: { code, title: 'Rate limit hit', details: null },
        afterMs: 7_000,
      });
    });
  }

  test('a 5xx without a Meta code is retried', async () => {
    standIn.failNext({ status: 503, body: 'Service Unavailable' });
    assert.equal((await send(text)).outcome, 'retry');
  });

  test('a 2xx without a message id: the outcome is unknown (Meta may have accepted it)', async () => {
    standIn.failNext({ status: 200, body: { messaging_product: 'whatsapp', messages: [] } });
    assert.equal((await send(text)).outcome, 'unknown');
  });

  test('a refused connection is retried: Meta cannot have seen the request', async () => {
    const closed = createGraphClient({ graphUrl: 'http://127.0.0.1:1', apiVersion: API_VERSION });
    after(() => closed.close());
    const outcome = await whatsappCloudProvider(closed, channel).send({ messageId: MESSAGE_ID, to: TO, message: text });
    assert.equal(outcome.outcome, 'retry');
  });

  test('a request Meta received but never answered: the outcome is unknown', async () => {
    const silent = await startGraphStandIn({ apiVersion: API_VERSION });
    const silentNumber = silent.addPhoneNumber();
    silent.holdMessagesAfter(0);
    const impatient = createGraphClient({ graphUrl: silent.url, apiVersion: API_VERSION, timeoutMs: 300 });
    after(() => impatient.close());
    const outcome = await whatsappCloudProvider(impatient, { ...silentNumber, messagesPerSecond: 80 }).send({
      messageId: MESSAGE_ID,
      to: TO,
      message: text,
    });
    silent.release();
    assert.equal(outcome.outcome, 'unknown');
    assert.equal(silent.held.length, 1, 'Meta received the request');
  });
});
