import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { asClient, createTemplate, insertMessage } from '../factories.js';
import { ENGINE } from '../server.js';
import { API_VERSION, startWhatsappServer } from '../whatsapp.js';
import { inboxWorld } from './inbox-world.js';

const whatsapp = await startWhatsappServer({ outbox: true });
const { server, graph } = whatsapp;

const { cloudOwner, customerWrites } = inboxWorld(whatsapp);

/** Where an element is on screen: its top (px from the viewport's top) and whether it is wholly in view. */
const placeOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { top: box.top, inView: box.top >= 0 && box.bottom <= window.innerHeight };
  });

/** The bubble text of the seeded message `n` (not `n` followed by more digits). */
const numbered = (n: number) => new RegExp(`Message ${n}(?!\\d)`);

/** The messages Parley sent from the number on the Graph API stand-in, oldest first. */
const sendsTo = (phoneNumberId: string) =>
  graph.requests
    .filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${phoneNumberId}/messages`)
    .map((r) => r.body as Record<string, unknown> & { type?: string; context?: { message_id: string } })
    // Read receipts go to the same edge; messages are the requests with a recipient.
    .filter((body) => 'to' in body);

/** An API token of the owner's, named as integrations name theirs, as a REST client. */
async function apiClient(owner: { workspaceId: string; userId: string }, name: string) {
  const issued = await server.app.services.tokens.create({ ...owner, name, scope: 'full' });
  return asClient(server.http, { ...owner, token: issued.token, tokenId: issued.id });
}

/** Saves a screenshot of the viewport for a person to look at (outside the repository). */
const look = (page: Page, name: string) => page.screenshot({ path: `/tmp/thread/${name}.png` });

describe(`dashboard: one conversation (${ENGINE})`, () => {
  for (const width of [1280, 375]) {
    test(`a long conversation opens at its newest message, reply box focused and in view; history loads upward in place (${width} px)`, async () => {
      const owner = await cloudOwner(`Long Bakery ${width}`);
      const contactId = await customerWrites(owner, `49151123410${width}`, 'Message 1');
      for (let n = 2; n <= 120; n++) {
        server.clock.advance(60_000);
        const direction = n % 3 === 0 ? 'outbound' : 'inbound';
        await insertMessage(server, {
          workspaceId: owner.workspaceId,
          contactId,
          direction,
          content: { body: `Message ${n}` },
        });
      }
      const { page } = await newPage(server, { width, height: 800 });
      await logIn(page, owner);
      await page.goto(`/inbox/${contactId}`);
      const newest = page.locator('.bubble', { hasText: numbered(120) });
      await newest.waitFor();
      assert.equal((await placeOf(page, '.bubble:last-child')).inView, true, 'the newest message is in view');
      assert.equal((await placeOf(page, '.reply textarea')).inView, true, 'the reply box is in view');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'reply-text');
      await look(page, `open-${width}`);

      // Reaching the top loads the page before it, and the message that was at the top stays in place.
      const oldestShown = page.locator('.bubble', { hasText: numbered(71) });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('.bubble', { hasText: numbered(70) }).waitFor();
      const top = (await oldestShown.boundingBox())!.y;
      assert.ok(top > 0, `Message 71 stays below the older messages (at ${top} px), not pushed off the top`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('.bubble', { hasText: numbered(1) }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Load earlier messages' }).count(), 0);
      await look(page, `history-${width}`);
    });
  }

  test('each message names its sender: the member, the API token, the flow by name — never "You"', async () => {
    const owner = await cloudOwner('Named Bakery');
    await server.app.services.deps.db
      .updateTable('users')
      .set({ name: 'Ada Baker' })
      .where('id', '=', owner.userId)
      .execute();
    const from = '4915112349001';
    const contactId = await customerWrites(owner, from, 'Hello?');
    const zapier = await apiClient(owner, 'Zapier');
    assert.equal(
      (await zapier.action('send-text-message', { phone: `+${from}`, message: 'Order received (API)' })).status,
      200,
    );
    const flow = await zapier.action<{ id: string }>('save-flow', {
      name: 'Welcome bot',
      definition: { start: 'hi', nodes: [{ id: 'hi', type: 'send_text', text: 'Hi from the bot' }] },
    });
    assert.equal(flow.status, 200, flow.text);
    assert.equal((await zapier.action('trigger-flow', { flow_id: flow.body.id, contact_id: contactId })).status, 200);

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${contactId}`);
    await page.getByLabel('Reply', { exact: true }).fill('Typed by Ada');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const bubble = (text: string) => page.locator('.bubble.outbound', { hasText: text });
    await bubble('Typed by Ada').locator('.bubble-sender', { hasText: 'Ada Baker' }).waitFor();
    await bubble('Order received (API)').locator('.bubble-sender', { hasText: 'API · Zapier' }).waitFor();
    await bubble('Hi from the bot').locator('.bubble-sender', { hasText: 'Flow Welcome bot' }).waitFor();
    assert.equal(await page.getByText(/^You( sent)?:/).count(), 0);
    await page.getByRole('button', { name: 'Emoji' }).click();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await look(page, 'senders-1280');
  });

  test('the composer: a /shortcut quick reply, an emoji, a quoted reply, a file, and a private note never sent', async () => {
    const owner = await cloudOwner('Composer Bakery');
    const from = '4915112349002';
    const contactId = await customerWrites(owner, from, 'Do you have vegan cake?');
    const { page } = await newPage(server);
    await logIn(page, owner);

    // Quick replies are managed under Settings.
    await page.goto('/settings/quick-replies');
    await page.getByLabel('Shortcut').fill('vegan');
    await page.getByLabel('Answer').fill('Yes! Our vegan chocolate cake is 25 EUR.');
    await page.getByRole('button', { name: 'Add quick reply' }).click();
    await page.getByRole('button', { name: 'Delete /vegan' }).waitFor();
    await page.getByLabel('Shortcut').fill('two words');
    await page.getByLabel('Answer').fill('x');
    await page.getByRole('button', { name: 'Add quick reply' }).click();
    await page.getByText('Shortcut may have up to 32 letters').waitFor();
    await look(page, 'quick-replies-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await look(page, 'quick-replies-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // "/ve" offers it; Enter inserts the answer; an emoji goes where the cursor is.
    await page.goto(`/inbox/${contactId}`);
    const reply = page.getByLabel('Reply', { exact: true });
    await reply.fill('/ve');
    await page.getByRole('option', { name: /\/vegan/ }).waitFor();
    await reply.press('Enter');
    assert.equal(await reply.inputValue(), 'Yes! Our vegan chocolate cake is 25 EUR.');
    await page.getByRole('button', { name: 'Emoji' }).click();
    await page.getByRole('button', { name: 'Insert 🎉' }).click();
    assert.equal(await reply.inputValue(), 'Yes! Our vegan chocolate cake is 25 EUR.🎉');

    // Quoting the customer's message: WhatsApp gets it as the reply's context.
    await page
      .locator('.bubble.inbound', { hasText: 'Do you have vegan cake?' })
      .getByRole('button', { name: 'Reply to this message' })
      .click();
    await page.getByText('Replying to their message').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sentReply = page.locator('.bubble.outbound', { hasText: '25 EUR.🎉' });
    await sentReply.locator('.bubble-quote', { hasText: 'Do you have vegan cake?' }).waitFor();
    await sentReply.getByText('Sent', { exact: true }).waitFor();
    const [text] = sendsTo(owner.phoneNumberId);
    assert.equal(text?.type, 'text');
    assert.match(String(text?.context?.message_id), /^wamid\./);

    // A file: uploaded, then sent as a document with its name and the text as its caption.
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'menu.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 menu') });
    await page.getByText('menu.pdf').waitFor();
    await page.getByLabel('Caption').fill('Our menu');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.bubble.outbound', { hasText: 'Our menu' }).getByText('Sent', { exact: true }).waitFor();
    const document = sendsTo(owner.phoneNumberId).at(-1) as {
      type: string;
      document?: { id: string; caption: string; filename: string };
    };
    assert.equal(document.type, 'document');
    assert.deepEqual([document.document?.caption, document.document?.filename], ['Our menu', 'menu.pdf']);

    // A private note: shown to staff, marked as such, never sent, not in the API's message list.
    await page.getByRole('button', { name: 'Private note' }).click();
    await page.getByLabel('Private note').fill('Customer is allergic to nuts');
    await page.getByRole('button', { name: 'Add note' }).click();
    const note = page.locator('.bubble.note', { hasText: 'Customer is allergic to nuts' });
    await note.getByText('Private note · ').waitFor();
    assert.equal(sendsTo(owner.phoneNumberId).length, 2, 'the note never reaches WhatsApp');
    const zapier = await apiClient(owner, 'Zapier');
    const listed = await zapier.action<{ data: { content: unknown }[] }>('list-messages', { contact_id: contactId });
    assert.equal(listed.status, 200, listed.text);
    assert.doesNotMatch(JSON.stringify(listed.body), /allergic/);
    await look(page, 'composer-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('button', { name: 'Reply', exact: true }).click();
    await page.getByRole('button', { name: 'Emoji' }).click();
    await look(page, 'composer-375');
  });

  test('a template message shows its header, body, footer and buttons as the customer sees them', async () => {
    const owner = await cloudOwner('Template Bakery');
    const template = await createTemplate(server.app.services, owner.workspaceId, {
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          header_type: 'TEXT',
          header_content: 'Order {{1}}',
          body: 'Hi {{1}}, your order has shipped.',
          footer: 'Reply STOP to opt out',
          buttons: [
            { type: 'URL', text: 'Track it', url: 'https://bakery.example/track/{{1}}' },
            { type: 'QUICK_REPLY', text: 'Thanks!' },
          ],
        },
      ],
    });
    const zapier = await apiClient(owner, 'Zapier');
    const sent = await zapier.action<{ contact_id: string }>('send-template-message', {
      phone: '+4915112349003',
      template_id: template.id,
      variables: { 1: 'Ada', header_1: 'ORD-7', button_0_1: 'ord-7' },
    });
    assert.equal(sent.status, 200, sent.text);
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/inbox/${sent.body.contact_id}`);
    const bubble = page.locator('.bubble.outbound', { hasText: 'Hi Ada, your order has shipped.' });
    await bubble.locator('.rich-header', { hasText: 'Order ORD-7' }).waitFor();
    await bubble.locator('.rich-footer', { hasText: 'Reply STOP to opt out' }).waitFor();
    const buttons = bubble.getByRole('list', { name: 'Template buttons' });
    assert.deepEqual(await buttons.getByRole('listitem').allTextContents(), ['Track it', 'Thanks!']);
    await look(page, 'template-1280');
  });
});
