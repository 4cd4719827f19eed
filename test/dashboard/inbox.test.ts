import assert from 'node:assert/strict';
import { createHash, randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  documented,
  documentedWebhook,
  inboundMessageWebhook,
  statusWebhook,
} from '../../src/whatsapp/webhook.fixtures.js';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { createTemplate } from '../factories.js';
import { ENGINE } from '../server.js';
import { API_VERSION, startWhatsappServer } from '../whatsapp.js';
import { inboxWorld } from './inbox-world.js';

const HOUR = 60 * 60 * 1000;
const whatsapp = await startWhatsappServer({ outbox: true });
const { server, graph, postWebhook } = whatsapp;
const { db } = server.app.services.deps;

const { cloudOwner, customerWrites } = inboxWorld(whatsapp);

const sendsTo = (phoneNumberId: string) =>
  graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${phoneNumberId}/messages`);

const conversation = (page: Page, name: string | RegExp) =>
  page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name });

describe(`dashboard: inbox (${ENGINE})`, () => {
  test('an inbound message appears live; replying in the window reaches WhatsApp and its tick advances', async () => {
    const owner = await cloudOwner('Live Bakery');
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await page.getByText('No open conversations').waitFor();

    // Arrives over Server-Sent Events: no reload.
    const contactId = await customerWrites(owner, '4915112340001', 'Hello, is my cake ready?');
    const row = conversation(page, /\+4915112340001/);
    await row.getByText('Hello, is my cake ready?').waitFor();
    assert.match((await row.locator('.unread-count').textContent()) ?? '', /^1\s*unread$/);
    await screenshot(page, 'inbox');

    await row.click();
    await page.waitForURL(`**/inbox/${contactId}`);
    await page.getByRole('list', { name: 'Messages' }).getByText('Hello, is my cake ready?').waitFor();
    await page.getByText('You can reply freely until').waitFor();
    // Opening the thread read it.
    await page.getByRole('link', { name: '← Inbox' }).click();
    await conversation(page, /\+4915112340001/).waitFor();
    await conversation(page, /\+4915112340001/)
      .locator('.unread-count')
      .waitFor({ state: 'detached' });
    await conversation(page, /\+4915112340001/).click();

    await page.getByLabel('Reply', { exact: true }).fill('Yes, ready at 3 pm!');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const bubble = page.locator('.bubble.outbound', { hasText: 'Yes, ready at 3 pm!' });
    await bubble.getByText('Sent', { exact: true }).waitFor();
    const sent = sendsTo(owner.phoneNumberId).at(-1)?.body as { to: string; text: { body: string } };
    assert.equal(sent.text.body, 'Yes, ready at 3 pm!');
    assert.equal(sent.to, '+4915112340001');

    const { provider_message_id: wamid } = await db
      .selectFrom('messages')
      .select('provider_message_id')
      .where('workspace_id', '=', owner.workspaceId)
      .where('direction', '=', 'outbound')
      .executeTakeFirstOrThrow();
    const status = (value: string) =>
      postWebhook(
        statusWebhook({ phoneNumberId: owner.phoneNumberId, wamid: wamid!, status: value, recipient: '4915112340001' }),
      );
    await status('delivered');
    await bubble.getByText('Delivered', { exact: true }).waitFor();
    await status('read');
    await bubble.locator('.tick-read').getByText('Read', { exact: true }).waitFor();
    await screenshot(page, 'inbox-thread');

    // A reply from the customer arrives live in the open thread.
    await customerWrites(owner, '4915112340001', 'Perfect, thanks');
    await page.getByRole('list', { name: 'Messages' }).getByText('Perfect, thanks').waitFor();
  });

  test('outside the 24-hour window the reply box is disabled with the reason, and a template can be sent', async () => {
    const owner = await cloudOwner('Late Bakery');
    const template = await createTemplate(server.app.services, owner.workspaceId, {
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          header_type: 'TEXT',
          header_content: 'Order {{1}}',
          body: 'Hi {{1}}, your order {{2}} has shipped.',
          buttons: [{ type: 'URL', text: 'Track', url: 'https://bakery.example/track/{{1}}' }],
        },
      ],
    });
    const contactId = await customerWrites(owner, '4915112340002', 'Do you deliver?');
    server.clock.advance(25 * HOUR);

    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/inbox/${contactId}`);
    await page.getByRole('list', { name: 'Messages' }).getByText('Do you deliver?').waitFor();
    const reply = page.getByLabel('Reply', { exact: true });
    assert.equal(await reply.isDisabled(), true);
    await page.getByText('The 24-hour window closed').waitFor();
    assert.match((await reply.getAttribute('aria-describedby')) ?? '', /reply-closed/);
    assert.equal(await page.getByRole('button', { name: 'Send', exact: true }).count(), 0);
    await screenshot(page, 'inbox-thread-window-closed');

    await page.getByRole('button', { name: 'Send a template instead' }).click();
    await page.getByLabel('Template', { exact: true }).selectOption({ label: `${template.name} (en_US)` });
    await page.getByLabel('Variable {{1}}').fill('Ada');
    await page.getByLabel('Variable {{2}}').fill('ORD-7');
    await page.getByLabel('Variable Header {{1}}').fill('ORD-7');
    await page.getByLabel('Variable Button "Track" {{1}}').fill('ord-7');
    await page.getByText('Hi Ada, your order ORD-7 has shipped.').waitFor();
    await screenshot(page, 'inbox-thread-template');
    await page.getByRole('button', { name: 'Send template' }).click();
    const bubble = page.locator('.bubble.outbound', { hasText: 'Hi Ada, your order ORD-7 has shipped.' });
    await bubble.getByText('Sent', { exact: true }).waitFor();
    const sent = sendsTo(owner.phoneNumberId).at(-1)?.body as {
      type: string;
      template: { name: string; components: unknown };
    };
    assert.equal(sent.type, 'template');
    assert.equal(sent.template.name, template.name);
    // Meta's "Send template messages": the header's, the body's and the URL button's parameters.
    assert.deepEqual(sent.template.components, [
      { type: 'header', parameters: [{ type: 'text', text: 'ORD-7' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'ORD-7' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ord-7' }] },
    ]);

    // Per-recipient placeholders are filled for this contact, as campaigns and sequences fill them.
    await server.app.services.contacts.update(owner, { contact_id: contactId, name: 'Carlos Okafor' });
    await page.reload();
    await page.getByRole('button', { name: 'Send a template instead' }).click();
    await page.getByLabel('Template', { exact: true }).selectOption({ label: `${template.name} (en_US)` });
    await page.getByLabel('Variable {{1}}').fill('{{contact.first_name}}');
    await page.getByLabel('Variable {{2}}').fill('ORD-8');
    await page.getByLabel('Variable Header {{1}}').fill('ORD-8');
    await page.getByLabel('Variable Button "Track" {{1}}').fill('ord-8');
    await page.getByRole('button', { name: 'Send template' }).click();
    const named = page.locator('.bubble.outbound', { hasText: 'Hi Carlos, your order ORD-8 has shipped.' });
    await named.getByText('Sent', { exact: true }).waitFor();
    const stored = await db
      .selectFrom('messages')
      .select('content')
      .where('workspace_id', '=', owner.workspaceId)
      .where('direction', '=', 'outbound')
      .execute();
    assert.equal(stored.filter((m) => m.content.includes('Hi Carlos, your order ORD-8 has shipped.')).length, 1);
    assert.equal(stored.filter((m) => m.content.includes('first_name')).length, 0, 'no placeholder is stored');
    const filled = sendsTo(owner.phoneNumberId).at(-1)?.body as { template: { components: { type: string }[] } };
    assert.deepEqual(filled.template.components[1], {
      type: 'body',
      parameters: [
        { type: 'text', text: 'Carlos' },
        { type: 'text', text: 'ORD-8' },
      ],
    });

    // A contact who never wrote: no window at all.
    const created = await server.app.services.contacts.create(
      { workspaceId: owner.workspaceId },
      { phone: '+4915112340003', name: 'Quiet Quentin' },
    );
    await page.goto(`/inbox/${created.contact.id}`);
    await page.getByText('has never written to you').waitFor();
    assert.equal(await page.getByLabel('Reply', { exact: true }).isDisabled(), true);
  });

  test('assigning, a flow hand-off shown as "Needs a person", and marking done', async () => {
    const owner = await cloudOwner('Busy Bakery');
    const contactId = await customerWrites(owner, '4915112340004', 'I want to talk to someone');
    await db
      .updateTable('contacts')
      .set({ handoff_at: server.clock.now().toISOString() })
      .where('id', '=', contactId)
      .execute();

    const { page } = await newPage(server);
    await logIn(page, owner);
    const row = conversation(page, /\+4915112340004/);
    await row.getByText('Needs a person').waitFor();

    await row.click();
    // The choice is saved by a request of its own: leaving the page before it is answered would cancel it.
    const saved = page.waitForResponse((response) => response.url().endsWith('/assignment') && response.ok());
    await page.getByLabel('Assigned to').selectOption({ label: `Me (${await myName(page)})` });
    await saved;
    await page.goto('/inbox?filter=mine');
    await conversation(page, /\+4915112340004/)
      .getByText(/Assigned to/)
      .waitFor();

    await conversation(page, /\+4915112340004/).click();
    await page.getByRole('button', { name: 'Mark done' }).click();
    // With no other conversation open, done leads back to the list.
    await page.waitForURL('**/inbox');
    await page.getByText('No open conversations').waitFor();
    await page.getByRole('link', { name: 'Done', exact: true }).click();
    const done = conversation(page, /\+4915112340004/);
    await done.getByText('Done', { exact: true }).waitFor();
    assert.equal(await done.getByText('Needs a person').count(), 0, 'done settles the hand-off');
    const contact = await db.selectFrom('contacts').select('handoff_at').where('id', '=', contactId).executeTakeFirst();
    assert.equal(contact?.handoff_at, null);

    // The customer writing again reopens it.
    await customerWrites(owner, '4915112340004', 'One more thing');
    await page.goto('/inbox');
    await conversation(page, /\+4915112340004/)
      .getByText('One more thing')
      .waitFor();
  });

  test('a received image shows in the thread, fetched through the media endpoint', async () => {
    const owner = await cloudOwner('Photo Bakery');
    // A 1×1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const mediaId = String(randomInt(1e12, 2e14));
    graph.setMedia(mediaId, { bytes: png, mime_type: 'image/png' });
    await postWebhook(
      inboundMessageWebhook({
        phoneNumberId: owner.phoneNumberId,
        from: '4915112340006',
        type: 'image',
        timestamp: server.clock.now(),
        content: {
          id: mediaId,
          mime_type: 'image/png',
          sha256: createHash('sha256').update(png).digest('base64'),
          caption: 'the broken cake',
        },
      }),
    );
    const { page } = await newPage(server);
    await logIn(page, owner);
    await conversation(page, /\+4915112340006/)
      .getByText('Image: the broken cake')
      .waitFor();
    await conversation(page, /\+4915112340006/).click();
    const image = page.getByRole('img', { name: 'the broken cake' });
    await image.waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('.bubble-media img')?.complete);
    assert.equal(await image.evaluate((img: HTMLImageElement) => img.naturalWidth), 1);
  });

  test('a reply shows the message it quotes, a reaction its emoji, an edit and a deletion their marks', async () => {
    const owner = await cloudOwner('Quote Bakery');
    const from = '4915112340007';
    const line = { phoneNumberId: owner.phoneNumberId };
    const [first, second] = ['wamid.QUOTED1', 'wamid.QUOTED2'];
    await postWebhook(documentedWebhook(line, documented.forwarded(from, first)));
    await postWebhook(documentedWebhook(line, documented.forwarded(from, second)));
    await postWebhook(documentedWebhook(line, documented.reply(from, 'wamid.REPLY1', first, 'Is it still on?')));
    await postWebhook(documentedWebhook(line, documented.reaction(from, 'wamid.REACT1', first, '\u{1F382}')));
    await postWebhook(documentedWebhook(line, documented.edit(from, 'wamid.EDIT1', first, 'Check out this cake!')));
    await postWebhook(documentedWebhook(line, documented.revoke(from, 'wamid.REVOKE1', second)));
    const { page } = await newPage(server);
    await logIn(page, owner);
    await conversation(page, /\+4915112340007/).click();
    const messages = page.getByRole('list', { name: 'Messages' });
    const reply = messages.getByRole('listitem').filter({ hasText: 'Is it still on?' });
    await reply.locator('blockquote').getByText('Check out this cake!').waitFor();
    assert.match((await reply.locator('blockquote').textContent()) ?? '', /In reply to their message/);
    const edited = messages.getByRole('listitem').filter({ hasText: 'Check out this cake!' }).first();
    await edited.getByText('Edited').waitFor();
    await edited.getByTitle('Their reaction').getByText('\u{1F382}').waitFor();
    await messages.getByRole('listitem').filter({ hasText: 'Deleted by the sender' }).waitFor();
  });

  test('the inbox and a thread are accessible and fit a 375 px screen', async () => {
    const owner = await cloudOwner('Small Bakery');
    const contactId = await customerWrites(
      owner,
      '4915112340005',
      'A rather long question about opening hours on holidays',
    );
    const { page } = await newPage(server, { width: 375, height: 740, bypassCSP: true });
    await logIn(page, owner);
    await conversation(page, /\+4915112340005/).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    assert.equal(await fitsWidth(page), true, 'no sideways scrolling at 375 px');
    await screenshot(page, 'inbox-375');

    await page.goto(`/inbox/${contactId}`);
    await page.getByLabel('Reply', { exact: true }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    assert.equal(await fitsWidth(page), true);
    await screenshot(page, 'inbox-thread-375');
  });
});

async function myName(page: Page): Promise<string> {
  const option = await page
    .getByLabel('Assigned to')
    .locator('option', { hasText: /^Me \(/ })
    .textContent();
  return /^Me \((.*)\)$/.exec(option ?? '')![1]!;
}

const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
