import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createTemplate, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { metaError, type UploadForm } from '../../test/graph-stand-in.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Message } from './message.schema.js';

/**
 * The rich send actions through HTTPS against a running Parley whose channel is the Graph API
 * stand-in: each request Meta receives is compared with Meta's documented JSON for that kind of
 * message (WhatsApp Cloud API "Messages" guides), written out here, never taken from Parley's code.
 */

const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer({ outbox: true });

let nextPhone = 0;
/** A fresh customer number per test, so tests never share a contact. */
const newPhone = () => `+1415555${String(1000 + randomInt(8000) + nextPhone++).padStart(4, '0')}`;

interface Chat {
  cloud: CloudWorkspace;
  phone: string;
  /** The wamid and Parley id of the customer's message that opened the window. */
  inbound: { wamid: string; id: string };
}

/** A customer writes in through a signed webhook: the 24-hour window is open. */
async function openChat(cloud?: CloudWorkspace): Promise<Chat> {
  const workspace = cloud ?? (await cloudWorkspace());
  const phone = newPhone();
  const wamid = `wamid.IN${randomInt(1e9)}`;
  const body = inboundTextWebhook({
    phoneNumberId: workspace.phoneNumberId,
    from: phone.replace('+', ''),
    name: 'Ada',
    wamid,
    text: 'Do you have it in green?',
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(body)).status, 200);
  const [received] = await history(workspace.ws, phone);
  assert.equal(received?.provider_message_id, wamid);
  return { cloud: workspace, phone, inbound: { wamid, id: received.id } };
}

async function history(ws: TestWorkspace, phone: string): Promise<Message[]> {
  const response = await ws.action<Message[]>('list-messages', { phone });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Sends through the API, lets the outbox deliver, and returns the message and the JSON Meta received. */
async function sent(chat: Chat, action: string, body: object) {
  const queued = await chat.cloud.ws.action<Message>(action, { phone: chat.phone, ...body });
  assert.equal(queued.status, 200, queued.text);
  assert.equal(queued.body.status, 'queued');
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
  const request = sendsOf(chat.cloud).at(-1);
  assert.ok(request, 'Meta received the message');
  const { biz_opaque_callback_data: callback, ...meta } = request.body as Record<string, unknown>;
  assert.equal(callback, queued.body.id, "Parley's id rides along for Meta's status webhooks");
  const message = await chat.cloud.ws.action<Message>('get-message', { message_id: queued.body.id });
  assert.equal(message.body.status, 'sent', message.text);
  return { message: message.body, meta };
}

const sendsOf = (cloud: CloudWorkspace) =>
  graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`);

/** A refused request: its status and code, and that nothing was queued or sent. */
async function refused(chat: Chat, action: string, body: object, status: number, code: string) {
  const before = (await history(chat.cloud.ws, chat.phone)).length;
  const sends = sendsOf(chat.cloud).length;
  const response = await chat.cloud.ws.action<{ code: string; detail: string }>(action, { phone: chat.phone, ...body });
  assert.equal(response.status, status, `${action} ${JSON.stringify(body)}: ${response.text}`);
  assert.equal(response.body.code, code, response.text);
  assert.equal((await history(chat.cloud.ws, chat.phone)).length, before, 'nothing was queued');
  assert.equal(sendsOf(chat.cloud).length, sends, 'nothing reached Meta');
  return response.body;
}

const envelope = (phone: string) => ({ messaging_product: 'whatsapp', recipient_type: 'individual', to: phone });

describe(`rich messages (${ENGINE})`, () => {
  test('send-media-message › a link, with its caption, quoting the customer’s message', async () => {
    const chat = await openChat();
    const { message, meta } = await sent(chat, 'send-media-message', {
      type: 'image',
      media_url: 'https://www.luckyshrub.com/assets/succulents/aloe.png',
      caption: 'The best succulent ever?',
      reply_to_message_id: chat.inbound.id,
    });
    // Meta's "Image messages" example, with a contextual reply's `context`.
    assert.deepEqual(meta, {
      ...envelope(chat.phone),
      context: { message_id: chat.inbound.wamid },
      type: 'image',
      image: { link: 'https://www.luckyshrub.com/assets/succulents/aloe.png', caption: 'The best succulent ever?' },
    });
    assert.equal(message.type, 'image');
    assert.equal(message.reply_to_message_id, chat.inbound.id);
  });

  test('send-media-message › a document by link with its file name; audio without a caption', async () => {
    const chat = await openChat();
    const document = await sent(chat, 'send-media-message', {
      type: 'document',
      media_url: 'https://www.luckyshrub.com/invoices/FmOzfD9cKf/lucky-shrub-invoice.pdf',
      caption: 'Lucky Shrub Invoice',
      filename: 'lucky-shrub-invoice.pdf',
    });
    assert.deepEqual(document.meta, {
      ...envelope(chat.phone),
      type: 'document',
      document: {
        link: 'https://www.luckyshrub.com/invoices/FmOzfD9cKf/lucky-shrub-invoice.pdf',
        caption: 'Lucky Shrub Invoice',
        filename: 'lucky-shrub-invoice.pdf',
      },
    });
    const audio = await sent(chat, 'send-media-message', {
      type: 'audio',
      media_url: 'https://www.luckyshrub.com/media/ringtones/scheduling-confirmation-tone.ogg',
    });
    assert.deepEqual(audio.meta, {
      ...envelope(chat.phone),
      type: 'audio',
      audio: { link: 'https://www.luckyshrub.com/media/ringtones/scheduling-confirmation-tone.ogg' },
    });
  });

  test('send-media-message › refused before anything is queued: fields Meta would not show, unsafe or unknown files', async () => {
    const chat = await openChat();
    const link = 'https://www.luckyshrub.com/a.png';
    for (const body of [
      { type: 'image' },
      { type: 'image', media_url: link, media_id: '123' },
      { type: 'audio', media_url: link, caption: 'x' },
      { type: 'image', media_url: link, filename: 'a.png' },
      { type: 'gif', media_url: link },
    ]) {
      await refused(chat, 'send-media-message', body, 400, 'validation_failed');
    }
    for (const url of [
      'http://www.luckyshrub.com/a.png',
      'https://127.0.0.1/a.png',
      'https://10.1.2.3/a.png',
      'https://[::1]/a.png',
      'https://localhost/a.png',
    ]) {
      const problem = await refused(
        chat,
        'send-media-message',
        { type: 'image', media_url: url },
        400,
        'validation_failed',
      );
      assert.match(problem.detail, /media_url/);
    }
    await refused(chat, 'send-media-message', { type: 'image', media_id: '1479537139650973' }, 404, 'not_found');
  });

  test('send-interactive-message › reply buttons, a list and a CTA URL button in Meta’s format', async () => {
    const chat = await openChat();
    const buttons = await sent(chat, 'send-interactive-message', {
      type: 'button',
      header: 'Lucky Shrub',
      body: 'Your workshop is at 9am tomorrow. Need to reschedule?',
      footer: 'Reply any time',
      buttons: [
        { id: 'change-button', title: 'Change' },
        { id: 'cancel-button', title: 'Cancel' },
      ],
    });
    // Meta's "Interactive reply buttons messages" request.
    assert.deepEqual(buttons.meta, {
      ...envelope(chat.phone),
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'text', text: 'Lucky Shrub' },
        body: { text: 'Your workshop is at 9am tomorrow. Need to reschedule?' },
        footer: { text: 'Reply any time' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'change-button', title: 'Change' } },
            { type: 'reply', reply: { id: 'cancel-button', title: 'Cancel' } },
          ],
        },
      },
    });

    const list = await sent(chat, 'send-interactive-message', {
      type: 'list',
      body: 'Which shipping option do you prefer?',
      button: 'Shipping Options',
      sections: [
        {
          title: 'I want it ASAP!',
          rows: [{ id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' }],
        },
        { title: 'I can wait a bit', rows: [{ id: 'usps_ground_advantage', title: 'USPS Ground Advantage' }] },
      ],
    });
    // Meta's "Interactive list messages" request.
    assert.deepEqual(list.meta, {
      ...envelope(chat.phone),
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Which shipping option do you prefer?' },
        action: {
          button: 'Shipping Options',
          sections: [
            {
              title: 'I want it ASAP!',
              rows: [{ id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' }],
            },
            { title: 'I can wait a bit', rows: [{ id: 'usps_ground_advantage', title: 'USPS Ground Advantage' }] },
          ],
        },
      },
    });

    const cta = await sent(chat, 'send-interactive-message', {
      type: 'cta_url',
      body: 'Tap the button below to see available dates.',
      display_text: 'See Dates',
      url: 'https://www.luckyshrub.com?clickID=kqDGWd24Q5TRwoEQTICY7W1JKoXvaZOXWAS7h1P76s0R7Paec4',
    });
    // Meta's "Interactive CTA URL button messages" request.
    assert.deepEqual(cta.meta, {
      ...envelope(chat.phone),
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        body: { text: 'Tap the button below to see available dates.' },
        action: {
          name: 'cta_url',
          parameters: {
            display_text: 'See Dates',
            url: 'https://www.luckyshrub.com?clickID=kqDGWd24Q5TRwoEQTICY7W1JKoXvaZOXWAS7h1P76s0R7Paec4',
          },
        },
      },
    });
  });

  test('send-interactive-message › Meta’s limits refused with 400, naming the field', async () => {
    const chat = await openChat();
    const button = (n: number) => ({ id: `b${n}`, title: `Option ${n}` });
    const row = (n: number) => ({ id: `r${n}`, title: `Row ${n}` });
    const cases: [object, string][] = [
      [{ type: 'button', body: 'Pick', buttons: [1, 2, 3, 4].map(button) }, 'buttons'],
      [{ type: 'button', body: 'Pick', buttons: [button(1), { id: 'b1', title: 'Again' }] }, 'buttons'],
      [{ type: 'button', body: 'Pick', buttons: [{ id: 'b', title: 'A title over twenty chars' }] }, 'buttons'],
      [{ type: 'button', body: 'Pick' }, 'buttons'],
      [{ type: 'button', body: 'Pick', buttons: [button(1)], url: 'https://a.example' }, 'url'],
      [
        {
          type: 'list',
          body: 'Pick',
          button: 'Open',
          sections: [
            { title: 'A', rows: [1, 2, 3, 4, 5, 6].map(row) },
            { title: 'B', rows: [7, 8, 9, 10, 11].map(row) },
          ],
        },
        'sections',
      ],
      [{ type: 'list', body: 'Pick', sections: [{ title: 'A', rows: [row(1)] }] }, 'button'],
      [{ type: 'cta_url', body: 'Go', display_text: 'Open', url: 'http://www.luckyshrub.com' }, 'url'],
      [{ type: 'cta_url', body: 'Go', display_text: 'Open', url: 'https://192.168.1.1/admin' }, 'url'],
      [{ type: 'carousel', body: 'Go' }, 'type'],
    ];
    for (const [body, field] of cases) {
      const problem = await refused(chat, 'send-interactive-message', body, 400, 'validation_failed');
      assert.match(problem.detail, new RegExp(field), JSON.stringify(body));
    }
  });

  test('send-location and send-contacts › Meta’s location and contact card objects', async () => {
    const chat = await openChat();
    const location = await sent(chat, 'send-location', {
      latitude: 37.44216251868683,
      longitude: -122.16153582049394,
      name: 'Philz Coffee',
      address: '101 Forest Ave, Palo Alto, CA 94301',
    });
    // Meta's "Location messages" example request: coordinates as strings of decimal degrees.
    assert.deepEqual(location.meta, {
      ...envelope(chat.phone),
      type: 'location',
      location: {
        latitude: '37.44216251868683',
        longitude: '-122.16153582049394',
        name: 'Philz Coffee',
        address: '101 Forest Ave, Palo Alto, CA 94301',
      },
    });
    assert.deepEqual(location.message.content, {
      latitude: 37.44216251868683,
      longitude: -122.16153582049394,
      name: 'Philz Coffee',
      address: '101 Forest Ave, Palo Alto, CA 94301',
    });

    const card = {
      name: { formatted_name: 'Barbara J. Johnson', first_name: 'Barbara', last_name: 'Johnson' },
      phones: [{ phone: '+16505559999', type: 'Landline', wa_id: '16505559999' }],
      emails: [{ email: 'bjohnson@luckyshrub.com', type: 'Work' }],
      org: { company: 'Lucky Shrub', department: 'Legal', title: 'Lead Counsel' },
      birthday: '1999-01-23',
    };
    const contacts = await sent(chat, 'send-contacts', { contacts: [card] });
    // Meta's "Contacts messages" example request (one card, part of its fields).
    assert.deepEqual(contacts.meta, {
      ...envelope(chat.phone),
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Barbara J. Johnson', first_name: 'Barbara', last_name: 'Johnson' },
          phones: [{ phone: '+16505559999', type: 'Landline', wa_id: '16505559999' }],
          emails: [{ email: 'bjohnson@luckyshrub.com', type: 'Work' }],
          org: { company: 'Lucky Shrub', department: 'Legal', title: 'Lead Counsel' },
          birthday: '1999-01-23',
        },
      ],
    });
    await refused(chat, 'send-location', { latitude: 91, longitude: 0 }, 400, 'validation_failed');
    await refused(chat, 'send-contacts', { contacts: [{ name: { first_name: 'Ann' } }] }, 400, 'validation_failed');
    await refused(chat, 'send-contacts', { contacts: [] }, 400, 'validation_failed');
  });

  test('send-reaction › an emoji on the customer’s message by its wamid; only messages WhatsApp knows', async () => {
    const chat = await openChat();
    const { message, meta } = await sent(chat, 'send-reaction', { message_id: chat.inbound.id, emoji: '😀' });
    // Meta's "Reaction messages" request.
    assert.deepEqual(meta, {
      ...envelope(chat.phone),
      type: 'reaction',
      reaction: { message_id: chat.inbound.wamid, emoji: '😀' },
    });
    assert.equal(message.reply_to_message_id, chat.inbound.id);
    const removed = await sent(chat, 'send-reaction', { message_id: chat.inbound.id, emoji: '' });
    assert.deepEqual(removed.meta, {
      ...envelope(chat.phone),
      type: 'reaction',
      reaction: { message_id: chat.inbound.wamid, emoji: '' },
    });

    // Without naming the contact, the reaction goes to the message's contact.
    const bare = await chat.cloud.ws.action<Message>('send-reaction', { message_id: chat.inbound.id, emoji: '👍' });
    assert.equal(bare.status, 200, bare.text);
    assert.equal(bare.body.contact_id, message.contact_id);
    // Sent before the refusals below count what reached Meta, so it cannot land in the middle of them.
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();

    const other = await openChat(chat.cloud);
    await refused(other, 'send-reaction', { message_id: chat.inbound.id, emoji: '👍' }, 404, 'not_found');
    const stranger = await openChat();
    await refused(stranger, 'send-reaction', { message_id: chat.inbound.id, emoji: '👍' }, 404, 'not_found');
  });

  test('reply_to_message_id › quotes on send-text and send-template; a message not yet on WhatsApp is refused', async () => {
    const chat = await openChat();
    const text = await sent(chat, 'send-text-message', {
      message: 'Yes, in green',
      reply_to_message_id: chat.inbound.id,
    });
    assert.deepEqual(text.meta, {
      ...envelope(chat.phone),
      context: { message_id: chat.inbound.wamid },
      type: 'text',
      text: { preview_url: false, body: 'Yes, in green' },
    });
    const template = await createTemplate(server.app.services, chat.cloud.ws.workspaceId, {
      name: 'restock',
      translations: [{ language: 'en_US', status: 'APPROVED', body: 'Back in stock!' }],
    });
    const ourText = text.message.provider_message_id!;
    const quoted = await sent(chat, 'send-template-message', {
      template_id: template.id,
      reply_to_message_id: text.message.id,
    });
    assert.deepEqual(quoted.meta, {
      ...envelope(chat.phone),
      context: { message_id: ourText },
      type: 'template',
      template: { name: 'restock', language: { code: 'en_US' } },
    });

    // A message Meta refused has no wamid: WhatsApp could not show the quote.
    graph.failNext({ status: 400, body: metaError(131026, 'Message undeliverable') });
    const pending = await chat.cloud.ws.action<Message>('send-text-message', { phone: chat.phone, message: 'lost' });
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();
    const failed = await chat.cloud.ws.action<Message>('get-message', { message_id: pending.body.id });
    assert.equal(failed.body.status, 'failed');
    const problem = await refused(
      chat,
      'send-text-message',
      { message: 'see above', reply_to_message_id: pending.body.id },
      422,
      'message_not_on_whatsapp',
    );
    assert.match(problem.detail, /reply_to_message_id/);

    const stranger = await openChat();
    await refused(
      stranger,
      'send-text-message',
      { message: 'hi', reply_to_message_id: chat.inbound.id },
      404,
      'not_found',
    );
  });

  test('the 24-hour window holds for every rich kind: refused with 422 once it closed', async () => {
    const chat = await openChat();
    server.clock.advance(24 * 3_600_000 + 1_000);
    const closed = 'customer_service_window_closed';
    await refused(
      chat,
      'send-media-message',
      { type: 'image', media_url: 'https://www.luckyshrub.com/a.png' },
      422,
      closed,
    );
    await refused(
      chat,
      'send-interactive-message',
      { type: 'cta_url', body: 'Go', display_text: 'Open', url: 'https://www.luckyshrub.com' },
      422,
      closed,
    );
    await refused(chat, 'send-location', { latitude: 1, longitude: 2 }, 422, closed);
    await refused(
      chat,
      'send-contacts',
      { contacts: [{ name: { formatted_name: 'Ann', first_name: 'Ann' } }] },
      422,
      closed,
    );
    await refused(chat, 'send-reaction', { message_id: chat.inbound.id, emoji: '👍' }, 422, closed);
  });

  test('upload-media › Meta’s multipart upload, its media id kept; send-media-message names it; the file stays for the inbox', async () => {
    const chat = await openChat();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const uploaded = await chat.cloud.ws.action<{ media_id: string; type: string; size: number; sha256: string }>(
      'upload-media',
      { data: png.toString('base64'), mime_type: 'image/png', filename: 'dot.png' },
    );
    assert.equal(uploaded.status, 200, uploaded.text);
    assert.equal(uploaded.body.type, 'image');
    assert.equal(uploaded.body.size, png.length);
    // Meta's "Upload media": POST /{phone-number-id}/media, multipart with messaging_product, type and file.
    const request = graph.requests.at(-1)!;
    assert.equal(request.path, `/${API_VERSION}/${chat.cloud.phoneNumberId}/media`);
    assert.equal(request.headers.authorization, `Bearer ${chat.cloud.accessToken}`);
    const form = request.body as UploadForm;
    assert.deepEqual(form.fields, { messaging_product: 'whatsapp', type: 'image/png' });
    assert.equal(form.file?.name, 'dot.png');
    assert.equal(form.file?.type, 'image/png');
    assert.ok(form.file?.bytes.equals(png), 'Meta received the very bytes');
    assert.match(uploaded.body.media_id, /^\d+$/, "Meta's media id");

    const { message, meta } = await sent(chat, 'send-media-message', {
      type: 'image',
      media_id: uploaded.body.media_id,
      caption: 'A dot',
    });
    assert.deepEqual(meta, {
      ...envelope(chat.phone),
      type: 'image',
      image: { id: uploaded.body.media_id, caption: 'A dot' },
    });
    // The uploaded file is kept: download-media answers from it without asking Meta.
    const requests = graph.requests.length;
    const kept = await chat.cloud.ws.action<{ sha256: string; size: number }>('download-media', {
      message_id: message.id,
    });
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.sha256, uploaded.body.sha256);
    assert.equal(graph.requests.length, requests);

    // A file of the wrong kind for the message is refused before anything is queued.
    const pdf = await chat.cloud.ws.action<{ media_id: string }>('upload-media', {
      data: Buffer.from('%PDF-1.4 invoice').toString('base64'),
      mime_type: 'application/pdf',
    });
    assert.equal(pdf.status, 200, pdf.text);
    await refused(
      chat,
      'send-media-message',
      { type: 'image', media_id: pdf.body.media_id },
      422,
      'media_not_accepted',
    );
    // Another workspace cannot name this workspace's upload.
    const stranger = await openChat();
    await refused(
      stranger,
      'send-media-message',
      { type: 'image', media_id: uploaded.body.media_id },
      404,
      'not_found',
    );
  });

  test('upload-media › Meta’s type and size limits checked before anything is uploaded', async () => {
    const cloud = await cloudWorkspace();
    const uploads = () =>
      graph.requests.filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/media`).length;
    const upload = (body: object) =>
      cloud.ws.action<{ code: string; detail: string; errors: { code?: string; params?: object }[] }>(
        'upload-media',
        body,
      );
    const b64 = (size: number, head = '') =>
      Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(size - head.length)]).toString('base64');
    const staticWebp = 'RIFF\0\0\0\0WEBPVP8 ';
    const animatedWebp = 'RIFF\0\0\0\0WEBPVP8X\x0a\0\0\0\x02';
    // Each with the field problem's code and values (none for the request schema's own problems).
    const cases: [object, number, string, { code?: string; params?: object }][] = [
      [
        { data: b64(10), mime_type: 'image/gif' },
        422,
        'media_not_accepted',
        { code: 'messages.no_media_of_type', params: { mime_type: 'image/gif' } },
      ],
      [
        { data: b64(10), mime_type: 'application/pdf', type: 'image' },
        422,
        'media_not_accepted',
        {
          code: 'messages.type_not_accepted',
          params: { accepted: 'image/jpeg, image/png', media_type: 'image', mime_type: 'application/pdf' },
        },
      ],
      [
        { data: b64(5 * 1024 * 1024 + 1), mime_type: 'image/jpeg' },
        422,
        'media_not_accepted',
        {
          code: 'messages.file_too_large',
          params: { media_type: 'image', max_bytes: 5 * 1024 * 1024, size: 5 * 1024 * 1024 + 1 },
        },
      ],
      [
        { data: b64(100 * 1024 + 1, staticWebp), mime_type: 'image/webp' },
        422,
        'media_not_accepted',
        {
          code: 'messages.file_too_large',
          params: { media_type: 'sticker', max_bytes: 100 * 1024, size: 100 * 1024 + 1 },
        },
      ],
      [{ data: 'not base64!', mime_type: 'image/png' }, 400, 'validation_failed', { code: 'messages.not_base64' }],
      [{ data: b64(10), mime_type: 'image/png', type: 'gif' }, 400, 'validation_failed', {}],
    ];
    for (const [body, status, code, problem] of cases) {
      const response = await upload(body);
      assert.equal(response.status, status, response.text);
      assert.equal(response.body.code, code, response.text);
      const error = response.body.errors[0];
      assert.deepEqual([error?.code, error?.params], [problem.code, problem.params], response.text);
    }
    assert.equal(uploads(), 0, 'nothing reached Meta');
    const animated = await upload({ data: b64(300 * 1024, animatedWebp), mime_type: 'image/webp' });
    assert.equal(animated.status, 200, 'an animated sticker may be up to 500 KB');
    assert.equal(uploads(), 1);
  });

  test('upload-media › on the simulator: its own media id, nothing leaves Parley', async () => {
    const ws = await createWorkspace(server);
    const before = graph.requests.length;
    const uploaded = await ws.action<{ media_id: string; type: string }>('upload-media', {
      data: Buffer.from('hello').toString('base64'),
      mime_type: 'text/plain',
      filename: 'hello.txt',
    });
    assert.equal(uploaded.status, 200, uploaded.text);
    assert.equal(uploaded.body.type, 'document');
    assert.match(uploaded.body.media_id, /^simulated-/);
    assert.equal(graph.requests.length, before);
  });

  test('mark-as-read › Meta’s read receipt for a received message, with the typing indicator when asked', async () => {
    const chat = await openChat();
    const read = await chat.cloud.ws.action<{ provider_message_id: string }>('mark-as-read', {
      message_id: chat.inbound.id,
    });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.provider_message_id, chat.inbound.wamid);
    // Meta's "Mark messages as read" request.
    assert.deepEqual(sendsOf(chat.cloud).at(-1)?.body, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: chat.inbound.wamid,
    });
    const typing = await chat.cloud.ws.action('mark-as-read', { message_id: chat.inbound.id, typing_indicator: true });
    assert.equal(typing.status, 200, typing.text);
    // Meta's "Typing indicators" request.
    assert.deepEqual(sendsOf(chat.cloud).at(-1)?.body, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: chat.inbound.wamid,
      typing_indicator: { type: 'text' },
    });

    const ours = await sent(chat, 'send-text-message', { message: 'On it' });
    const receipts = sendsOf(chat.cloud).length;
    const outbound = await chat.cloud.ws.action<{ code: string }>('mark-as-read', { message_id: ours.message.id });
    assert.equal(outbound.status, 400, 'a message Parley sent is not the customer’s to read');
    const stranger = await cloudWorkspace();
    const foreign = await stranger.ws.action<{ code: string }>('mark-as-read', { message_id: chat.inbound.id });
    assert.equal(foreign.status, 404);
    assert.equal(sendsOf(chat.cloud).length, receipts, 'refusals never reach Meta');

    graph.failNext({ status: 400, body: metaError(100, 'Invalid parameter') });
    const refusedByMeta = await chat.cloud.ws.action<{ code: string }>('mark-as-read', { message_id: chat.inbound.id });
    assert.equal(refusedByMeta.status, 409, refusedByMeta.text);
  });
});
