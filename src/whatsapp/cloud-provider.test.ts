import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { metaError, startGraphStandIn } from '../../test/graph-stand-in.js';
import type { OutboundContent } from '../content/message-content.js';
import type { TemplateContent } from '../content/template.js';
import { createGraphClient } from './graph-client.js';
import type { CloudChannel } from '../channels/provider.js';
import { whatsappCloudProvider } from './cloud-provider.js';

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

  // Meta's "Media messages" reference: `{ type: '<MEDIA_TYPE>', '<MEDIA_TYPE>': { id | link, caption, filename } }`.
  test('media by the id of an uploaded file, and by link: image, video, audio, document, sticker', async () => {
    const cases: [OutboundContent, object][] = [
      [
        { type: 'image', content: { id: '1479537139650973', caption: 'The best succulent ever?' } },
        { type: 'image', image: { id: '1479537139650973', caption: 'The best succulent ever?' } },
      ],
      [
        { type: 'image', content: { link: 'https://www.luckyshrub.com/assets/succulents/aloe.png' } },
        { type: 'image', image: { link: 'https://www.luckyshrub.com/assets/succulents/aloe.png' } },
      ],
      [
        {
          type: 'video',
          content: { link: 'https://www.luckyshrub.com/assets/videos/repotting.mp4', caption: 'A succulent eclipse!' },
        },
        {
          type: 'video',
          video: { link: 'https://www.luckyshrub.com/assets/videos/repotting.mp4', caption: 'A succulent eclipse!' },
        },
      ],
      [
        { type: 'audio', content: { id: '1013859600285441' } },
        { type: 'audio', audio: { id: '1013859600285441' } },
      ],
      [
        {
          type: 'document',
          content: { id: '1376223850470843', caption: 'Lucky Shrub Invoice', filename: 'order_abc123.pdf' },
        },
        {
          type: 'document',
          document: { id: '1376223850470843', caption: 'Lucky Shrub Invoice', filename: 'order_abc123.pdf' },
        },
      ],
      [
        { type: 'sticker', content: { id: '798882015472548' } },
        { type: 'sticker', sticker: { id: '798882015472548' } },
      ],
    ];
    for (const [message, expected] of cases) {
      await send(message);
      assert.deepEqual(lastSend(), { ...envelope, ...expected, ...callback });
    }
  });

  test('reply buttons with a text header and a footer', async () => {
    // Meta's "Interactive reply buttons messages" example, with its text header and footer.
    const interactive = {
      type: 'button' as const,
      header: { type: 'text' as const, text: 'Lucky Shrub' },
      body: {
        text: 'Hi Pablo! Your gardening workshop is scheduled for 9am tomorrow. Use the buttons if you need to reschedule. Thank you!',
      },
      footer: { text: 'Lucky Shrub: Your gateway to succulents!™' },
      action: {
        buttons: [
          { type: 'reply' as const, reply: { id: 'change-button', title: 'Change' } },
          { type: 'reply' as const, reply: { id: 'cancel-button', title: 'Cancel' } },
        ],
      },
    };
    await send({ type: 'interactive', content: { interactive, text: interactive.body.text } });
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'text', text: 'Lucky Shrub' },
        body: {
          text: 'Hi Pablo! Your gardening workshop is scheduled for 9am tomorrow. Use the buttons if you need to reschedule. Thank you!',
        },
        footer: { text: 'Lucky Shrub: Your gateway to succulents!™' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'change-button', title: 'Change' } },
            { type: 'reply', reply: { id: 'cancel-button', title: 'Cancel' } },
          ],
        },
      },
      ...callback,
    });
  });

  test('a call-to-action URL button', async () => {
    // Meta's "Interactive CTA URL button messages" example request.
    const interactive = {
      type: 'cta_url' as const,
      header: { type: 'text' as const, text: 'Available Dates' },
      body: { text: 'Tap the button below to see available dates.' },
      footer: { text: 'Dates subject to change.' },
      action: {
        name: 'cta_url' as const,
        parameters: {
          display_text: 'See Dates',
          url: 'https://www.luckyshrub.com?clickID=kqDGWd24Q5TRwoEQTICY7W1JKoXvaZOXWAS7h1P76s0R7Paec4',
        },
      },
    };
    await send({ type: 'interactive', content: { interactive, text: interactive.body.text } });
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        header: { type: 'text', text: 'Available Dates' },
        body: { text: 'Tap the button below to see available dates.' },
        footer: { text: 'Dates subject to change.' },
        action: {
          name: 'cta_url',
          parameters: {
            display_text: 'See Dates',
            url: 'https://www.luckyshrub.com?clickID=kqDGWd24Q5TRwoEQTICY7W1JKoXvaZOXWAS7h1P76s0R7Paec4',
          },
        },
      },
      ...callback,
    });
  });

  test('a location: latitude and longitude as the strings Meta documents', async () => {
    await send({
      type: 'location',
      content: {
        latitude: 37.44216251868683,
        longitude: -122.16153582049394,
        name: 'Philz Coffee',
        address: '101 Forest Ave, Palo Alto, CA 94301',
      },
    });
    // Meta's "Location messages" example request.
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'location',
      location: {
        latitude: '37.44216251868683',
        longitude: '-122.16153582049394',
        name: 'Philz Coffee',
        address: '101 Forest Ave, Palo Alto, CA 94301',
      },
      ...callback,
    });
  });

  test('contact cards', async () => {
    // Meta's "Contacts messages" example (one card, trimmed to name, phone, email, org and url).
    const card = {
      name: { formatted_name: 'Barbara J. Johnson', first_name: 'Barbara', last_name: 'Johnson' },
      phones: [{ phone: '+16505559999', type: 'Landline', wa_id: '16505559999' }],
      emails: [{ email: 'bjohnson@luckyshrub.com', type: 'Work' }],
      org: { company: 'Lucky Shrub', department: 'Legal', title: 'Lead Counsel' },
      urls: [{ url: 'https://www.luckyshrub.com', type: 'Company' }],
    };
    await send({ type: 'contacts', content: { contacts: [card] } });
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Barbara J. Johnson', first_name: 'Barbara', last_name: 'Johnson' },
          phones: [{ phone: '+16505559999', type: 'Landline', wa_id: '16505559999' }],
          emails: [{ email: 'bjohnson@luckyshrub.com', type: 'Work' }],
          org: { company: 'Lucky Shrub', department: 'Legal', title: 'Lead Counsel' },
          urls: [{ url: 'https://www.luckyshrub.com', type: 'Company' }],
        },
      ],
      ...callback,
    });
  });

  test('a reaction to a message, and its removal', async () => {
    // Meta's "Reaction messages" example; an empty emoji removes the reaction.
    const wamid = 'wamid.HBgLMTY0NjcwNDM1OTUVAgASGBQzQTdCNTg5RjY1MEMyRjlGMjRGNgA=';
    await send({ type: 'reaction', content: { message_id: wamid, emoji: '\uD83D\uDE00' } });
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'reaction',
      reaction: { message_id: wamid, emoji: '😀' },
      ...callback,
    });
    await send({ type: 'reaction', content: { message_id: wamid, emoji: '' } });
    assert.deepEqual(lastSend(), {
      ...envelope,
      type: 'reaction',
      reaction: { message_id: wamid, emoji: '' },
      ...callback,
    });
  });

  test('a reply quotes its message with Meta’s context.message_id, beside the message object', async () => {
    // Meta's "Contextual replies": `"context": { "message_id": "<WAMID>" }` at the top level of the request.
    const quoted = 'wamid.HBgLMTY0NjcwNDM1OTUVAgASGBQzQUYyOTRDMjA2RkZBNUYzOTBDNwA=';
    await send({
      type: 'text',
      content: { body: 'We ship on Monday', preview_url: false, context: { message_id: quoted } },
    });
    assert.deepEqual(lastSend(), {
      ...envelope,
      context: { message_id: quoted },
      type: 'text',
      text: { preview_url: false, body: 'We ship on Monday' },
      ...callback,
    });
    await send({
      type: 'image',
      content: { link: 'https://www.luckyshrub.com/a.png', context: { message_id: quoted } },
    });
    assert.deepEqual(lastSend(), {
      ...envelope,
      context: { message_id: quoted },
      type: 'image',
      image: { link: 'https://www.luckyshrub.com/a.png' },
      ...callback,
    });
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
        throttled: true,
      });
    });
  }

  test('a 5xx without a Meta code is retried', async () => {
    standIn.failNext({ status: 503, body: 'Service Unavailable' });
    const outcome = await send(text);
    assert.deepEqual([outcome.outcome, outcome.outcome === 'retry' && outcome.throttled], ['retry', false]);
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
