import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inboundTextWebhook, messagesWebhook, statusWebhook, templateStatusWebhook } from './webhook.fixtures.js';
import { parseWebhook, readWebhookJson } from './webhook.payload.js';
import { type InboundMessageEvent, type StatusEvent, type ChannelEvent } from '../channels/channel-events.js';

// The example values of Meta's webhook reference pages.
const LINE = { phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const SHEENA = { profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' };
const WAMID = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=';
const REPLIED_TO = 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=';
const SENT_AT = new Date(1749416383 * 1000);

/** The one event parsed from a body, checked to be of the expected kind. */
function onlyEvent<K extends ChannelEvent['kind']>(body: unknown, kind: K): Extract<ChannelEvent, { kind: K }> {
  const events = parseWebhook(body) ?? [];
  assert.equal(events.length, 1, 'exactly one event');
  const [event] = events;
  assert.equal(event?.kind, kind);
  return event as Extract<ChannelEvent, { kind: K }>;
}

/** Enough of an event to check order and routing. */
function summary(event: ChannelEvent): (string | null)[] {
  switch (event.kind) {
    case 'message':
      return [event.wamid, event.profileName];
    case 'status':
      return [event.wamid, event.phoneNumberId];
    case 'template_status':
      return [event.templateName, event.status];
    case 'template_quality':
      return [event.templateName, event.quality];
    case 'template_category':
      return [event.templateName, event.category];
    case 'marketing_preference':
      return [event.from, event.value];
    case 'account_event':
      return [event.field, event.summary];
    case 'echo':
      return [event.wamid, event.to];
    case 'history':
      return [event.phoneNumberId, String(event.progress)];
    case 'contact_book':
      return [event.phone, event.action];
    case 'group':
      return [event.groupId, event.type];
    case 'call':
      return [event.callId, event.event];
  }
}

/** The event parsed from Meta's body for one message from Sheena. */
function parseOne(message: Record<string, unknown>): InboundMessageEvent {
  const body = messagesWebhook(LINE, {
    contacts: [SHEENA],
    messages: [{ from: '16505551234', id: WAMID, timestamp: '1749416383', ...message }],
  });
  return onlyEvent(body, 'message');
}

describe('parseWebhook › inbound messages', () => {
  test("reads Meta's documented text message into one normalized event", () => {
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
                contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
                messages: [
                  {
                    from: '16505551234',
                    id: WAMID,
                    timestamp: '1749416383',
                    type: 'text',
                    text: { body: 'Does it come in another color?' },
                  },
                ],
              },
              field: 'messages',
            },
          ],
        },
      ],
    };
    assert.deepEqual(parseWebhook(body), [
      {
        kind: 'message',
        phoneNumberId: '106540352242922',
        displayPhoneNumber: '15550783881',
        from: '16505551234',
        userId: null,
        profileName: 'Sheena Nelson',
        wamid: WAMID,
        timestamp: SENT_AT,
        type: 'text',
        content: { body: 'Does it come in another color?' },
        amends: null,
        groupId: null,
      },
    ]);
  });

  test('media messages keep the media object Meta sends: id, mime_type, sha256, caption, filename', () => {
    const sha256 = '81d3bd8a8db4868c9520ed47186e8b7c5789e61ff79f7f834be6950b808a90d3';
    const media = {
      image: { caption: 'Sunset', mime_type: 'image/jpeg', sha256, id: '1003383421387256' },
      audio: { mime_type: 'audio/ogg; codecs=opus', sha256, id: '1003383421387257', voice: true },
      video: { caption: 'Unboxing', mime_type: 'video/mp4', sha256, id: '1003383421387258' },
      document: { caption: 'Invoice', filename: 'invoice.pdf', mime_type: 'application/pdf', sha256, id: '1003' },
      sticker: { mime_type: 'image/webp', sha256, id: '1003383421387259', animated: false },
    };
    for (const [type, content] of Object.entries(media)) {
      const event = parseOne({ type, [type]: content });
      assert.equal(event.type, type);
      assert.deepEqual(event.content, content, type);
    }
  });

  test('a location keeps its coordinates, name, address and url', () => {
    const location = {
      address: '1 Hacker Way, Menlo Park, CA 94025',
      latitude: 37.483307,
      longitude: -122.148981,
      name: 'Main Street Beach',
      url: 'https://www.facebook.com',
    };
    assert.deepEqual(parseOne({ type: 'location', location }).content, location);
  });

  test('shared contacts, an array in Meta’s payload, become { contacts: [...] }', () => {
    const contacts = [
      {
        name: { first_name: 'Barbara', last_name: 'Johnson', formatted_name: 'Barbara J. Johnson' },
        phones: [{ phone: '+1 (940) 555-1234', wa_id: '19405551234', type: 'HOME' }],
        emails: [{ email: 'bjohnson@example.com', type: 'HOME' }],
      },
    ];
    const event = parseOne({ type: 'contacts', contacts });
    assert.equal(event.type, 'contacts');
    assert.deepEqual(event.content, { contacts });
  });

  test('interactive replies keep the reply under its own key, and the replied-to wamid as context', () => {
    const context = { from: '15550783881', id: REPLIED_TO };
    const buttonReply = parseOne({
      context,
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'cancel-button', title: 'Cancel' } },
    });
    assert.deepEqual(buttonReply.content, { button_reply: { id: 'cancel-button', title: 'Cancel' }, context });

    const listReply = { id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' };
    const list = parseOne({ context, type: 'interactive', interactive: { type: 'list_reply', list_reply: listReply } });
    assert.deepEqual(list.content, { list_reply: listReply, context });
  });

  test('a completed WhatsApp Flow (nfm_reply) keeps its response_json as sent', () => {
    const nfmReply = { name: 'flow', body: 'Sent', response_json: '{"flow_token":"AQAAAAACS5FpgQ_cAAAAAD0QI3s."}' };
    const event = parseOne({ type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: nfmReply } });
    assert.equal(event.type, 'interactive');
    assert.deepEqual(event.content, { nfm_reply: nfmReply });
  });

  test('a template quick-reply button keeps payload and text', () => {
    const event = parseOne({
      context: { from: '15550783881', id: REPLIED_TO },
      type: 'button',
      button: { payload: 'approve_67_schedule', text: 'Approve' },
    });
    assert.deepEqual(event.content, {
      payload: 'approve_67_schedule',
      text: 'Approve',
      context: { from: '15550783881', id: REPLIED_TO },
    });
  });

  test('a reaction keeps the reacted-to wamid and emoji; a removed reaction has no emoji', () => {
    const added = parseOne({ type: 'reaction', reaction: { message_id: REPLIED_TO, emoji: '\u{1F44D}' } });
    assert.deepEqual(added.content, { message_id: REPLIED_TO, emoji: '\u{1F44D}' });
    const removed = parseOne({ type: 'reaction', reaction: { message_id: REPLIED_TO } });
    assert.deepEqual(removed.content, { message_id: REPLIED_TO });
  });

  test('an order keeps its catalog and product items', () => {
    const order = {
      catalog_id: '194836987003835',
      text: 'Love these!',
      product_items: [{ product_retailer_id: 'di9ozbzfi4', quantity: 2, item_price: 7.99, currency: 'USD' }],
    };
    assert.deepEqual(parseOne({ type: 'order', order }).content, order);
  });

  test('a system message (number change) carries no contacts array, so no profile name', () => {
    const system = {
      body: 'User Sheena Nelson changed from 16505551234 to 12195555358',
      wa_id: '12195555358',
      type: 'user_changed_number',
    };
    const body = messagesWebhook(LINE, {
      messages: [{ from: '16505551234', id: WAMID, timestamp: '1739321024', type: 'system', system }],
    });
    const event = onlyEvent(body, 'message');
    assert.equal(event.type, 'system');
    assert.deepEqual(event.content, system);
    assert.equal(event.profileName, null);
  });

  test('an unsupported message keeps what Meta says about it, including its errors', () => {
    const errors = [
      {
        code: 131051,
        title: 'Message type unknown',
        message: 'Message type unknown',
        error_data: { details: 'Message type is currently not supported.' },
      },
    ];
    const event = parseOne({ errors, type: 'unsupported', unsupported: { type: 'poll_update' } });
    assert.equal(event.type, 'unsupported');
    assert.deepEqual(event.content, { type: 'poll_update', errors });
  });

  test('the older "unknown" type is stored as unsupported, with its errors', () => {
    const errors = [
      { code: 131051, details: 'Message type is not currently supported', title: 'Unsupported message type' },
    ];
    const event = parseOne({ type: 'unknown', errors });
    assert.equal(event.type, 'unsupported');
    assert.deepEqual(event.content, { errors });
  });

  test('a type newer than this code is kept as unsupported under its own name, not dropped', () => {
    const event = parseOne({ type: 'poll', poll: { question: 'Lunch?', options: ['Pizza', 'Salad'] } });
    assert.equal(event.type, 'unsupported');
    assert.deepEqual(event.content, { question: 'Lunch?', options: ['Pizza', 'Salad'], type: 'poll' });
  });

  test('what Meta sends beside the type object is kept in the content: context, identity, referral', () => {
    const envelope = {
      context: { forwarded: true },
      identity: { acknowledged: true, created_timestamp: 1602532300000, hash: 'Sjvjlx8G6Z0=' },
      referral: { source_url: 'https://fb.me/x', source_type: 'ad', source_id: '1' },
    };
    const event = parseOne({ ...envelope, type: 'text', text: { body: 'Hi' } });
    assert.deepEqual(event.content, { body: 'Hi', ...envelope });
  });

  test('a sender named only in contacts[].user_id is that user; username, parent user id and country code are kept', () => {
    // Meta's "Business-scoped user IDs" page: a user with a username may come with no phone number at all.
    const sender = {
      profile: { name: 'Sheena Nelson', username: '@sheena.nelson' },
      user_id: 'US.13491208655302741918',
      parent_user_id: 'US.ENT.11815799212886844830',
      country_code: 'US',
    };
    const body = messagesWebhook(LINE, {
      contacts: [sender],
      messages: [{ id: WAMID, timestamp: '1749416383', type: 'text', text: { body: 'Hi' } }],
    });
    const event = onlyEvent(body, 'message');
    assert.deepEqual([event.from, event.userId, event.profileName], [null, 'US.13491208655302741918', 'Sheena Nelson']);
    assert.deepEqual(event.content, {
      body: 'Hi',
      sender: {
        user_id: 'US.13491208655302741918',
        parent_user_id: 'US.ENT.11815799212886844830',
        username: '@sheena.nelson',
        country_code: 'US',
      },
    });
  });
});

describe('parseWebhook › statuses', () => {
  function parseStatuses(statuses: Record<string, unknown>[]): StatusEvent[] {
    return (parseWebhook(messagesWebhook(LINE, { statuses })) ?? []) as StatusEvent[];
  }

  test('sent, delivered and read statuses, with the pricing and conversation fields Meta adds', () => {
    const events = parseStatuses(
      ['sent', 'delivered', 'read'].map((status) => ({
        id: WAMID,
        status,
        timestamp: '1750857384',
        recipient_id: '16505551234',
        conversation: { id: 'a75d17ad06104c51166f948319b03c6a', origin: { type: 'service' } },
        pricing: { billable: true, pricing_model: 'PMP', category: 'service' },
      })),
    );
    assert.deepEqual(
      events.map((event) => event.status),
      ['sent', 'delivered', 'read'],
    );
    assert.deepEqual(events[0], {
      kind: 'status',
      phoneNumberId: '106540352242922',
      wamid: WAMID,
      status: 'sent',
      timestamp: new Date(1750857384 * 1000),
      recipient: '+16505551234',
      errors: [],
      delivery: {
        pricing: { billable: true, pricing_model: 'PMP', category: 'service', type: null },
        conversation: { id: 'a75d17ad06104c51166f948319b03c6a', origin_type: 'service', expires_at: null },
        biz_opaque_callback_data: null,
      },
    });
  });

  test('a failed status carries its errors: code, title, message and details', () => {
    const body = messagesWebhook(LINE, {
      statuses: [
        {
          id: WAMID,
          status: 'failed',
          timestamp: '1683871427',
          recipient_id: '16505551234',
          errors: [
            {
              code: 131047,
              title: 'Re-engagement message',
              message: 'Re-engagement message',
              error_data: { details: 'Message failed to send because more than 24 hours have passed.' },
              href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
            },
            { code: 131026, title: 'Message undeliverable' },
          ],
        },
      ],
    });
    const event = onlyEvent(body, 'status');
    assert.equal(event.status, 'failed');
    assert.deepEqual(event.errors, [
      {
        code: 131047,
        title: 'Re-engagement message',
        message: 'Re-engagement message',
        details: 'Message failed to send because more than 24 hours have passed.',
      },
      { code: 131026, title: 'Message undeliverable' },
    ]);
  });

  test('statuses Parley does not track (played, deleted) keep their pricing with no status; those without a wamid are skipped', () => {
    const base = { id: WAMID, timestamp: '1683871427', recipient_id: '16505551234' };
    const pricing = { pricing_model: 'PMP', category: 'marketing_lite', type: 'regular' };
    const events = parseStatuses([
      { ...base, status: 'deleted' },
      { ...base, status: 'played', pricing },
      { ...base, id: undefined, status: 'read' },
      { ...base, status: 'read' },
    ]);
    assert.deepEqual(
      events.map((event) => event.status),
      [null, null, 'read'],
    );
    assert.deepEqual(events[1]!.delivery.pricing, { ...pricing, billable: null });
  });

  test('a recipient known only by a business-scoped user id has a null recipient', () => {
    const [event] = parseStatuses([
      { id: WAMID, status: 'delivered', timestamp: '1683871427', recipient_user_id: 'US.13491208655302741918' },
    ]);
    assert.equal(event?.recipient, null);
  });
});

describe('parseWebhook › template status updates', () => {
  test('an approval: ids as strings, the event as status, NONE as no reason', () => {
    const body = templateStatusWebhook({
      wabaId: '102290129340398',
      templateId: 806312974732579,
      name: 'order_confirmation',
      language: 'en_US',
      event: 'APPROVED',
    });
    assert.deepEqual(parseWebhook(body), [
      {
        kind: 'template_status',
        wabaId: '102290129340398',
        templateId: '806312974732579',
        templateName: 'order_confirmation',
        language: 'en_US',
        status: 'APPROVED',
        reason: null,
      },
    ]);
  });

  test('a rejection keeps its reason; fields Meta adds are ignored', () => {
    const body = templateStatusWebhook({
      wabaId: '102290129340398',
      templateId: '806312974732579',
      name: 'summer_sale',
      language: 'pt_BR',
      event: 'REJECTED',
      reason: 'INVALID_FORMAT',
    });
    const change = (body.entry as { changes: { value: Record<string, unknown> }[] }[])[0]!.changes[0]!;
    change.value.message_template_category = 'MARKETING';
    const event = onlyEvent(body, 'template_status');
    assert.equal(event.status, 'REJECTED');
    assert.equal(event.reason, 'INVALID_FORMAT');
  });
});

describe('parseWebhook › batches and malformed bodies', () => {
  test('several entries, changes, messages and statuses in one body come out in body order', () => {
    const ada = { profile: { name: 'Ada' }, wa_id: '447700900123' };
    const first = messagesWebhook(LINE, {
      contacts: [SHEENA, ada],
      messages: [
        { from: '447700900123', id: 'wamid.A1', timestamp: '1749416400', type: 'text', text: { body: 'from Ada' } },
        { from: '16505551234', id: 'wamid.S1', timestamp: '1749416401', type: 'text', text: { body: 'from Sheena' } },
      ],
      statuses: [{ id: 'wamid.OUT1', status: 'delivered', timestamp: '1749416402', recipient_id: '447700900123' }],
    });
    const otherLine = statusWebhook({
      phoneNumberId: '200000000000001',
      wamid: 'wamid.OUT2',
      status: 'read',
      recipient: '+16505551234',
    });
    const template = templateStatusWebhook({
      wabaId: '102290129340398',
      templateId: '806312974732579',
      name: 'order_confirmation',
      language: 'en_US',
      event: 'PAUSED',
      reason: 'Low quality',
    });
    const entries = [first, otherLine, template].flatMap((body) => body.entry as unknown[]);
    const events = parseWebhook({ object: 'whatsapp_business_account', entry: entries }) ?? [];
    assert.deepEqual(events.map(summary), [
      ['wamid.A1', 'Ada'],
      ['wamid.S1', 'Sheena Nelson'],
      ['wamid.OUT1', '106540352242922'],
      ['wamid.OUT2', '200000000000001'],
      ['order_confirmation', 'PAUSED'],
    ]);
  });

  test('a message without wamid, sender or timestamp is skipped; the rest of the batch is kept', () => {
    const good = { from: '16505551234', id: WAMID, timestamp: '1749416383', type: 'text', text: { body: 'ok' } };
    const body = messagesWebhook(LINE, {
      contacts: [SHEENA],
      messages: [
        { ...good, id: undefined },
        { ...good, from: undefined },
        { ...good, from: 'not-a-number' },
        { ...good, timestamp: 'yesterday' },
        'not an object',
        good,
      ],
    });
    assert.deepEqual(
      parseWebhook(body)?.map((event) => event.kind === 'message' && event.content),
      [{ body: 'ok' }],
    );
  });

  test('a change without phone_number_id cannot be routed and is skipped', () => {
    const body = messagesWebhook(LINE, { contacts: [SHEENA], messages: [{ from: '1', id: WAMID }] });
    const change = (body.entry as { changes: { value: Record<string, unknown> }[] }[])[0]!.changes[0]!;
    change.value.metadata = { display_phone_number: '15550783881' };
    assert.deepEqual(parseWebhook(body), []);
  });

  test('account updates and fields Parley does not model become account events, routed by the number they name', () => {
    const change = (field: string, value: Record<string, unknown>) => ({
      object: 'whatsapp_business_account',
      entry: [{ id: '1', time: 1739321024, changes: [{ field, value }] }],
    });
    assert.deepEqual(parseWebhook(change('account_update', { event: 'VERIFIED_ACCOUNT' })), [
      {
        kind: 'account_event',
        phoneNumberId: null,
        wabaId: '1',
        field: 'account_update',
        summary: 'account update: VERIFIED_ACCOUNT',
        details: { event: 'VERIFIED_ACCOUNT' },
        occurredAt: new Date(1739321024 * 1000),
      },
    ]);
    const calls = { metadata: { phone_number_id: LINE.phoneNumberId }, calls: [{ id: 'wacid.1', event: 'connect' }] };
    assert.deepEqual(parseWebhook(change('calls', calls)), [
      {
        kind: 'account_event',
        phoneNumberId: LINE.phoneNumberId,
        wabaId: '1',
        field: 'calls',
        summary: 'calls',
        details: calls,
        occurredAt: new Date(1739321024 * 1000),
      },
    ]);
    assert.deepEqual(parseWebhook({ object: 'whatsapp_business_account' }), [], 'no entry at all');
  });

  test('anything but a WhatsApp Business Account webhook is null', () => {
    for (const body of [null, undefined, 'text', 42, [], {}, { object: 'page', entry: [] }]) {
      assert.equal(parseWebhook(body), null, JSON.stringify(body));
    }
  });
});

describe('webhook fixtures', () => {
  test('inboundTextWebhook builds what the parser reads back', () => {
    const timestamp = new Date('2026-01-02T03:04:05Z');
    const body = inboundTextWebhook({
      phoneNumberId: '123',
      from: '+14155550100',
      name: 'Ada',
      wamid: 'wamid.X',
      text: 'Hello',
      timestamp,
    });
    assert.deepEqual(parseWebhook(JSON.parse(JSON.stringify(body))), [
      {
        kind: 'message',
        phoneNumberId: '123',
        displayPhoneNumber: '15550783881',
        from: '14155550100',
        userId: null,
        profileName: 'Ada',
        wamid: 'wamid.X',
        timestamp,
        type: 'text',
        content: { body: 'Hello' },
        amends: null,
        groupId: null,
      },
    ]);
  });

  test('statusWebhook writes errors in Meta’s shape', () => {
    const errors = [{ code: 131047, title: 'Re-engagement message', details: 'More than 24 hours have passed' }];
    const body = statusWebhook({
      phoneNumberId: '123',
      wamid: 'wamid.Y',
      status: 'failed',
      recipient: '+14155550100',
      errors,
    });
    const event = onlyEvent(JSON.parse(JSON.stringify(body)), 'status');
    assert.equal(event.recipient, '+14155550100');
    assert.deepEqual(event.errors, errors);
  });
});

describe('readWebhookJson', () => {
  const read = (json: string) => readWebhookJson(Buffer.from(json));

  test('replaces lone surrogates and U+0000 in every string with U+FFFD, keeping surrogate pairs', () => {
    const json = String.raw`{"a":"x\ud800y","b":["\udc00","\ud83d\ude00"],"c":{"d":"nul\u0000"},"e":"\ud800\ud800\udc00"}`;
    assert.deepEqual(read(json), { a: 'x\ufffdy', b: ['\ufffd', '😀'], c: { d: 'nul\ufffd' }, e: '\ufffd𐀀' });
  });

  test('leaves well-formed text, numbers and the rest as parsed', () => {
    const body = { object: 'whatsapp_business_account', n: 12, ok: true, none: null, text: 'Grüße 👋' };
    assert.deepEqual(read(JSON.stringify(body)), body);
  });

  test('is undefined for bytes that are not JSON', () => {
    assert.equal(read('{'), undefined);
    assert.equal(read(''), undefined);
  });
});
