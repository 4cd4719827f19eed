import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { inboundTextWebhook } from '../../src/webhooks/whatsapp.fixtures.js';
import { createOwner, logIn, newPage } from '../browser.js';
import { insertMessage } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const { server, postWebhook, connect } = await startWhatsappServer({ outbox: true });
const { db } = server.app.services.deps;

/** A workspace on the Graph API stand-in and its owner, who can log in. */
async function cloudOwner(name: string) {
  const owner = await createOwner(server, name);
  const { phoneNumberId } = await connect(owner.workspaceId);
  return { ...owner, phoneNumberId };
}

/** A customer writes in through Meta's webhook, now by the server's clock; returns the contact's id. */
async function customerWrites(owner: { phoneNumberId: string; workspaceId: string }, from: string, text: string) {
  const response = await postWebhook(
    inboundTextWebhook({ phoneNumberId: owner.phoneNumberId, from, name: null, text, timestamp: server.clock.now() }),
  );
  assert.equal(response.status, 200, response.text);
  const contact = await db
    .selectFrom('contacts')
    .select('id')
    .where('workspace_id', '=', owner.workspaceId)
    .where('phone', '=', `+${from}`)
    .executeTakeFirstOrThrow();
  return contact.id;
}

/** Where an element is on screen: its top (px from the viewport's top) and whether it is wholly in view. */
const placeOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { top: box.top, inView: box.top >= 0 && box.bottom <= window.innerHeight };
  });

/** The bubble text of the seeded message `n` (not `n` followed by more digits). */
const numbered = (n: number) => new RegExp(`Message ${n}(?!\\d)`);

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
});
