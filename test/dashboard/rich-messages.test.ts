import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { createOwner, logIn, newPage, screenshot } from '../browser.js';
import { asClient } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const { server, graph, postWebhook, connect } = await startWhatsappServer({ outbox: true });

/** Polls a condition the browser's actions bring about (a request reaching the stand-in). */
async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(condition(), 'the condition came true');
}

/** A 1×1 PNG: small enough to upload, real enough for the browser to draw. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe(`dashboard: rich messages in the thread (${ENGINE})`, () => {
  test('media, buttons, a list, a link button, a location, contact cards, a reaction and a quote, as the customer sees them; the typing indicator setting', async () => {
    const owner = await createOwner(server, 'Lucky Shrub');
    const { phoneNumberId } = await connect(owner.workspaceId);
    const issued = await server.app.services.tokens.create({
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      name: 'integration',
      scope: 'full',
    });
    const api = asClient(server.http, { ...owner, token: issued.token, tokenId: issued.id });
    const phone = '+16505551234';
    const webhook = inboundTextWebhook({
      phoneNumberId,
      from: phone.slice(1),
      name: 'Pablo',
      wamid: 'wamid.HBgLMTY1MDUwNzY1MjAVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA',
      text: 'Do you have aloe in stock?',
      timestamp: server.clock.now(),
    });
    assert.equal((await postWebhook(webhook)).status, 200);
    const [inbound] = (await api.action<{ id: string; contact_id: string }[]>('list-messages', { phone })).body;

    const send = async (action: string, body: object) => {
      const response = await api.action(action, { phone, ...body });
      assert.equal(response.status, 200, `${action}: ${response.text}`);
    };
    const upload = await api.action<{ media_id: string }>('upload-media', { data: PNG, mime_type: 'image/png' });
    assert.equal(upload.status, 200, upload.text);
    await send('send-media-message', { type: 'image', media_id: upload.body.media_id, caption: 'Our aloe' });
    await send('send-text-message', { message: 'Yes, plenty!', reply_to_message_id: inbound!.id });
    await send('send-interactive-message', {
      type: 'button',
      header: 'Lucky Shrub',
      body: 'Pick up or delivery?',
      buttons: [
        { id: 'pickup', title: 'Pick up' },
        { id: 'delivery', title: 'Delivery' },
      ],
    });
    await send('send-interactive-message', {
      type: 'list',
      body: 'Which shipping option do you prefer?',
      button: 'Shipping Options',
      sections: [{ title: 'Fast', rows: [{ id: 'express', title: 'Express', description: 'Next day' }] }],
    });
    await send('send-interactive-message', {
      type: 'cta_url',
      body: 'Tap the button below to see available dates.',
      display_text: 'See Dates',
      url: 'https://www.luckyshrub.com/dates',
    });
    await send('send-location', { latitude: 37.44216, longitude: -122.16153, name: 'Philz Coffee' });
    await send('send-contacts', {
      contacts: [
        { name: { formatted_name: 'Barbara J. Johnson', first_name: 'Barbara' }, phones: [{ phone: '+16505559999' }] },
      ],
    });
    await send('send-reaction', { message_id: inbound!.id, emoji: '🌵' });
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();

    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/inbox/${inbound!.contact_id}`);
    const thread = page.getByRole('list', { name: 'Messages' });
    await thread.getByText('Do you have aloe in stock?').first().waitFor();

    // The uploaded image is drawn from Parley's own copy.
    const image = thread.getByRole('img', { name: 'Our aloe' });
    await image.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.bubble.outbound img');
      return img?.complete && img.naturalWidth === 1;
    });
    // The reply quotes the customer's message.
    const reply = page.locator('.bubble.outbound', { hasText: 'Yes, plenty!' });
    await reply.locator('blockquote').getByText('Do you have aloe in stock?').waitFor();
    // Buttons and a list, as WhatsApp lays them out under the text.
    const buttons = thread.getByRole('list', { name: 'Reply buttons' });
    assert.deepEqual(await buttons.getByRole('listitem').allTextContents(), ['Pick up', 'Delivery']);
    await thread.getByText('Lucky Shrub').waitFor();
    await thread.locator('summary', { hasText: 'Shipping Options' }).click();
    await thread.getByText('Express').waitFor();
    const cta = thread.getByRole('link', { name: /See Dates/ });
    assert.equal(await cta.getAttribute('href'), 'https://www.luckyshrub.com/dates');
    await thread.getByText('Philz Coffee').waitFor();
    await thread.getByRole('list', { name: 'Contact cards' }).getByText('Barbara J. Johnson').waitFor();
    await thread.getByText('Reacted 🌵').waitFor();
    await screenshot(page, 'inbox-rich-messages');

    // The workspace's typing indicator, switched on in Settings → Workspace, goes with the next read receipt.
    await page.goto('/settings/workspace');
    const typing = page.getByLabel('Show customers a typing indicator when a conversation is opened');
    assert.equal(await typing.isChecked(), false);
    await typing.check();
    await page.getByRole('status').getByText('Typing indicator setting saved.').waitFor();
    await page.waitForFunction(async () => {
      const response = await fetch('/api/dashboard/inbox/settings');
      return ((await response.json()) as { typing_indicator: boolean }).typing_indicator;
    });
    server.clock.advance(1000); // news since the conversation was last read: a receipt is due
    const next = inboundTextWebhook({
      phoneNumberId,
      from: phone.slice(1),
      wamid: 'wamid.HBgLMTY1MDUwNzY1MjAVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTgA',
      text: 'And cacti?',
      timestamp: server.clock.now(),
    });
    assert.equal((await postWebhook(next)).status, 200);
    await page.goto('/inbox');
    await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /Pablo/ }).click();
    await thread.getByText('And cacti?').waitFor();
    await waitUntil(() =>
      graph.requests.some(
        (r) =>
          (r.body as { message_id?: string; typing_indicator?: unknown } | null)?.message_id ===
            'wamid.HBgLMTY1MDUwNzY1MjAVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTgA' &&
          JSON.stringify((r.body as { typing_indicator?: unknown }).typing_indicator) === '{"type":"text"}',
      ),
    );
  });
});
