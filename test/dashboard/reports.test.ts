import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { inboundTextWebhook } from '../../src/webhooks/whatsapp.fixtures.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp } from '../dashboard-session.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const MINUTE = 60_000;
const { server, connect, postWebhook } = await startWhatsappServer({ outbox: true });
const { db } = server.app.services.deps;

/** An owner whose customer wrote, got an answer 4 minutes later and was marked done after 25. */
async function ownerWithOneConversation() {
  const owner = await createOwner(server, 'Report Bakery');
  const { phoneNumberId } = await connect(owner.workspaceId);
  const session = await logInOverHttp(server, owner);
  const webhook = inboundTextWebhook({
    phoneNumberId,
    from: '4915112348001',
    text: 'Cake?',
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(webhook)).status, 200);
  const { id } = await db
    .selectFrom('contacts')
    .select('id')
    .where('workspace_id', '=', owner.workspaceId)
    .executeTakeFirstOrThrow();
  server.clock.advance(4 * MINUTE);
  const sent = await session.send('POST', '/api/v1/actions/send-text-message', { contact_id: id, message: 'Yes!' });
  assert.equal(sent.status, 200, sent.text);
  server.clock.advance(21 * MINUTE);
  assert.equal((await session.send('POST', `/api/dashboard/conversations/${id}/done`, { done: true })).status, 200);
  return owner;
}

describe(`dashboard: reports (${ENGINE})`, () => {
  test('the Reports page shows the team’s figures for a date range, downloads a table as CSV and keeps rates', async () => {
    const owner = await ownerWithOneConversation();
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

    const times = page.getByRole('table', { name: 'First-response and resolution times' });
    const everyone = times.getByRole('row', { name: /^Everyone/ });
    await everyone.waitFor();
    assert.deepEqual(await everyone.getByRole('cell').allTextContents(), [
      'Everyone',
      '1',
      '1',
      '4 min',
      '4 min',
      '25 min',
      '25 min',
    ]);
    // The owner's name is their email until they change it.
    await times.getByRole('row', { name: new RegExp(`^${owner.email.replace(/[.+]/g, '\\$&')}`) }).waitFor();
    const perDay = page.getByRole('table', { name: 'Conversations opened and closed per day' });
    assert.equal(await perDay.getByRole('row').count(), 31, 'a header and the last 30 days');
    assert.deepEqual(
      await page.getByRole('table', { name: 'Messages by direction and status' }).getByRole('row').count(),
      3,
    );
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'reports');

    // A CSV of one table, for the range shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV of response times' }).click(),
    ]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    assert.match(csv, /^\uFEFFAgent,Conversations closed,Answered first,First response median \(s\),/);
    assert.match(csv, /\nEveryone,1,1,240,240,1500,1500\r?\n/);

    // Rates: a wrong currency is named by its label; saved rates price the report.
    await page.getByLabel('Currency').fill('EU');
    await page.getByLabel('Service rate').fill('0.5');
    await page.getByRole('button', { name: 'Save rates' }).click();
    await page.getByText('Currency must be a currency code of three letters, such as USD or EUR').waitFor();
    await page.getByLabel('Currency').fill('EUR');
    await page.getByRole('button', { name: 'Save rates' }).click();
    await page.getByRole('status').getByText('Rates saved.').waitFor();
    await page.reload();
    assert.equal(await page.getByLabel('Service rate').inputValue(), '0.5');

    // Another range changes the address, so Back returns to the last one.
    await page.getByLabel('From').fill('2026-01-01');
    await page.getByLabel('To').fill('2026-01-07');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('2026-01-01 to 2026-01-07').waitFor();
    assert.equal(await perDay.getByRole('row').count(), 8);
    await page.goBack();
    await page.waitForFunction(() => !location.search.includes('2026-01-01'));
    await perDay.getByRole('row').nth(30).waitFor();
    assert.equal(await perDay.getByRole('row').count(), 31);
  });

  test('at phone width the page fits without scrolling sideways', async () => {
    const owner = await ownerWithOneConversation();
    const { page } = await newPage(server, { width: 375, height: 800 });
    await logIn(page, owner);
    await page.goto('/reports');
    await page.getByRole('table', { name: 'First-response and resolution times' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0);
    await screenshot(page, 'reports-phone');
  });
});
