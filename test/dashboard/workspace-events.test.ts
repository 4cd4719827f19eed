import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { ACCOUNT_VIOLATION, accountWebhook, valueErrorsWebhook } from '../../src/whatsapp/webhook.delivery-fixtures.js';
import { DOCUMENTED_FIELDS } from '../../src/whatsapp/webhook.field-fixtures.js';

const { server, connect, postWebhook } = await startWhatsappServer();

describe(`dashboard: WhatsApp events (${ENGINE})`, () => {
  test('Settings → WhatsApp events lists what Meta reported, newest first, with what an error means', async () => {
    const owner = await createOwner(server, 'Events Shop');
    const number = await connect(owner.workspaceId);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/events');
    await page.getByRole('heading', { name: 'WhatsApp events', exact: true }).waitFor();
    await page.getByRole('status').getByText('Meta has reported nothing for this workspace yet.').waitFor();

    const contactBook = DOCUMENTED_FIELDS.find((documented) => documented.field === 'smb_app_state_sync')!;
    const line = { phoneNumberId: number.phoneNumberId, displayPhoneNumber: '15550783881' };
    for (const body of [
      accountWebhook(number.wabaId, 'account_update', ACCOUNT_VIOLATION, server.clock.now()),
      valueErrorsWebhook({ phoneNumberId: number.phoneNumberId }),
      // A field Parley does not model yet is shown too, named in words.
      accountWebhook(number.wabaId, contactBook.field, contactBook.value(line), server.clock.now()),
    ]) {
      assert.equal((await postWebhook(body)).status, 200);
      server.clock.advance(1_000);
    }
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('link', { name: 'WhatsApp events' }).click();
    const table = page.getByRole('table', { name: 'WhatsApp events' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    assert.equal(rows.length, 4, 'a header and three events');
    assert.match(rows[1]!, /WhatsApp Business app contacts\s+smb app state sync\s+—/);
    assert.match(rows[2]!, /Webhook error\s+error 130429: Rate limit hit\s+More messages were sent than/);
    assert.match(rows[3]!, /Account update\s+account update: ACCOUNT_VIOLATION: 15550783881\s+—/);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'settings-whatsapp-events');

    const { page: phone } = await newPage(server, { width: 375, height: 740 });
    await logIn(phone, owner);
    await phone.goto('/settings/events');
    await phone.getByRole('table', { name: 'WhatsApp events' }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page fits a phone (overflow ${overflow}px)`);
  });

  test('another workspace sees none of these events', async () => {
    const first = await createOwner(server, 'First');
    const number = await connect(first.workspaceId);
    assert.equal((await postWebhook(valueErrorsWebhook({ phoneNumberId: number.phoneNumberId }))).status, 200);
    const second = await createOwner(server, 'Second');
    const { page } = await newPage(server);
    await logIn(page, second);
    await page.goto('/settings/events');
    await page.getByRole('status').getByText('Meta has reported nothing for this workspace yet.').waitFor();
  });
});
