import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ENGINE } from '../../test/server.js';
import { APP_SECRET, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { createApp } from '../app.js';
import type { Message } from '../messages/message.schema.js';
import { inboundTextWebhook, signBody } from './webhook.fixtures.js';

const { server, cloudWorkspace, postWebhook } = await startWhatsappServer();

/** The contact's latest message and name, read back through the API; undefined when nothing came from them. */
async function received(cloud: CloudWorkspace, phone: string) {
  const messages = await cloud.ws.action<Message[]>('list-messages', { phone, limit: 1 });
  if (messages.status === 404) return { text: undefined, name: undefined };
  assert.equal(messages.status, 200, messages.text);
  const contact = await cloud.ws.action<{ name: string | null }>('get-contact', { phone });
  return { text: (messages.body[0]?.content as { body?: string } | undefined)?.body, name: contact.body.name };
}

/** Posts raw bytes to the webhook with the given headers (a signature of those exact bytes unless given). */
function postRaw(raw: string, headers: Record<string, string> = {}) {
  return server.http.send('POST', '/webhooks/whatsapp', {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET), ...headers },
  });
}

describe(`WhatsApp webhook (${ENGINE})`, () => {
  test('webhook › lone UTF-16 surrogates and U+0000 in a text and a profile name are stored as U+FFFD, answered 200', async () => {
    const cloud = await cloudWorkspace();
    const body = inboundTextWebhook({
      phoneNumberId: cloud.phoneNumberId,
      from: '14155550190',
      name: 'Ada \ud800',
      text: 'broken \ud800 emoji \udc00 here 😀 \u0000',
    });
    const response = await postWebhook(body);
    assert.equal(response.status, 200, response.text);
    assert.equal((response.body as { messages: number }).messages, 1);
    assert.deepEqual(await received(cloud, '+14155550190'), {
      text: 'broken \ufffd emoji \ufffd here 😀 \ufffd',
      name: 'Ada \ufffd',
    });
  });

  test('webhook › a good and a bad delivery arriving together: the good one is stored, the bad one too, repaired', async () => {
    const cloud = await cloudWorkspace();
    const good = Array.from({ length: 4 }, (_, i) =>
      inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: `1415555020${i}`, text: `good ${i}` }),
    );
    const bad = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: '14155550209', text: 'bad \ud800' });
    const responses = await Promise.all([bad, ...good].map((body) => postWebhook(body)));
    for (const response of responses) assert.equal(response.status, 200, response.text);
    for (let i = 0; i < good.length; i++) {
      assert.equal((await received(cloud, `+1415555020${i}`)).text, `good ${i}`);
    }
    assert.equal((await received(cloud, '+14155550209')).text, 'bad \ufffd');
  });

  test('webhook › an unsigned body is refused with 401 whatever it holds, and a signed non-JSON one with 400', async () => {
    const forged = signBody('{}', 'not-the-secret');
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    for (const raw of ['{', deep, '', JSON.stringify({ object: 'whatsapp_business_account', entry: [] })]) {
      const response = await postRaw(raw, { 'x-hub-signature-256': forged });
      assert.equal(response.status, 401, `${raw.slice(0, 20)}: ${response.text}`);
      assert.equal((response.body as { code: string }).code, 'webhook_signature_invalid');
    }
    const notJson = await postRaw('{');
    assert.equal(notJson.status, 400, notJson.text);
  });

  test('webhook › a body over 1 MiB is 413 before anything is stored; one just under is read', async () => {
    const cloud = await cloudWorkspace();
    const delivery = (padding: number) => {
      const body = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: '14155550210', text: 'big' });
      const raw = JSON.stringify({ ...body, padding: '' });
      return JSON.stringify({ ...body, padding: 'x'.repeat(padding - Buffer.byteLength(raw)) });
    };
    const over = await postRaw(delivery(1024 * 1024 + 1));
    assert.equal(over.status, 413, over.text);
    assert.equal((over.body as { code: string }).code, 'payload_too_large');
    assert.equal((await received(cloud, '+14155550210')).text, undefined);
    const under = await postRaw(delivery(1024 * 1024));
    assert.equal(under.status, 200, under.text);
    assert.equal((await received(cloud, '+14155550210')).text, 'big');
  });

  test('webhook › past 30 refused deliveries a minute an address is answered 429 with Retry-After, signed ones too', async () => {
    server.clock.advance(60_000); // a window of its own, whatever earlier tests refused
    const cloud = await cloudWorkspace();
    const body = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: '14155550211', text: 'later' });
    for (let i = 0; i < 30; i++) {
      assert.equal((await postWebhook(body, signBody('{}', 'not-the-secret'))).status, 401, `refusal ${i + 1}`);
    }
    const limited = await postWebhook<{ code: string; retry_after: number }>(body);
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.code, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal((await received(cloud, '+14155550211')).text, undefined, 'nothing stored');

    // Another Parley process on the same database counts with this one.
    const other = await createApp(server.config, { clock: server.clock, logger: false });
    try {
      const refused = await other.server.inject({
        method: 'POST',
        url: '/webhooks/whatsapp',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody('{}', APP_SECRET) },
        payload: '{}',
        remoteAddress: '127.0.0.1',
      });
      assert.equal(refused.statusCode, 429, refused.body);
    } finally {
      await other.close();
    }

    server.clock.advance(retryAfter * 1000);
    assert.equal((await postWebhook(body)).status, 200, 'Meta’s retry after the window is stored');
    assert.equal((await received(cloud, '+14155550211')).text, 'later');
  });
});
