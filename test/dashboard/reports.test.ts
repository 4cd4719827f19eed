import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';
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
  test('the Reports page charts the volume beside its tables, filters by team in the address, downloads CSV and keeps rates', async () => {
    const owner = await ownerWithOneConversation();
    const session = await logInOverHttp(server, owner);
    const team = await session.send<{ id: string }>('POST', '/api/v1/actions/create-team', { name: 'Billing' });
    assert.equal(team.status, 200, team.text);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

    const volume = page.getByRole('region', { name: 'Volume' });
    const received = volume.getByRole('definition').first();
    await received.waitFor();
    assert.equal(await received.textContent(), '1');
    // Each chart is one image named by its summary, with the figures in a table beside it.
    await volume.getByRole('img', { name: /1 received and 1 sent in all/ }).waitFor();
    await volume.getByRole('img', { name: /busiest hour is/ }).waitFor();
    const perDay = volume.getByRole('table', { name: /Conversations and messages per day/ });
    assert.equal(await perDay.getByRole('row').count(), 31, 'a header and the last 30 days');
    const hours = volume.getByRole('table', { name: 'Messages received by weekday and hour' });
    assert.equal(await hours.getByRole('row').count(), 8, 'a header and seven weekdays');
    assert.equal(await volume.locator('canvas[role="img"]').count(), 2);
    // Who is behind, as charts above the tables: handled beside open now, and how fast, per agent and per team.
    const figures = page.getByRole('region', { name: 'Agents and teams' });
    await figures
      .getByRole('img', { name: /^Conversations handled and open now, per agent\. .+ handled the most: 1$/ })
      .waitFor();
    await figures
      .getByRole('img', {
        name: /^Median first response and resolution, per agent\. Fastest first response: .+, 4 min$/,
      })
      .waitFor();
    await figures
      .getByRole('img', { name: /^Conversations handled and open now, per team\. No team handled the most: 1$/ })
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'reports');

    // The figures per day as CSV, for the filter shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV of the figures per day' }).click(),
    ]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    assert.match(
      csv,
      /^\uFEFF?period,day,conversations_opened,conversations_closed,messages_received,messages_sent\r?\n/,
    );
    assert.match(csv, /\ncurrent,\d{4}-\d{2}-\d{2},1,1,1,1\r?\n/);

    // A team's filter goes into the address (a link shares it) and narrows the figures; Back undoes it.
    await page.getByRole('combobox', { name: 'Team', exact: true }).selectOption({ label: 'Billing' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForFunction((id) => location.search.includes(`team_id=${id}`), team.body.id);
    await volume.getByRole('img', { name: /0 received and 0 sent in all/ }).waitFor();
    assert.equal(await received.textContent(), '0');
    await page.reload();
    await volume.getByRole('img', { name: /0 received and 0 sent in all/ }).waitFor();
    await page
      .getByRole('combobox', { name: 'Team', exact: true })
      .getByRole('option', { name: 'Billing' })
      .waitFor({ state: 'attached' });
    assert.equal(await page.getByRole('combobox', { name: 'Team', exact: true }).inputValue(), team.body.id);
    await page.goBack();
    await volume.getByRole('img', { name: /1 received and 1 sent in all/ }).waitFor();

    // Dates: another range changes the table's days.
    await page.getByLabel('From', { exact: true }).fill('2026-01-01');
    await page.getByLabel('To', { exact: true }).fill('2026-01-07');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForFunction(() => location.search.includes('from=2026-01-01'));
    await perDay.getByRole('row').nth(7).waitFor();
    await perDay.getByRole('row').nth(8).waitFor({ state: 'detached' }); // a header and 7 days

    // Rates: a wrong currency is named by its label; saved rates stay.
    await page.getByLabel('Currency', { exact: true }).fill('EU');
    await page.getByLabel('Service rate').fill('0.5');
    await page.getByRole('button', { name: 'Save rates' }).click();
    await page.getByText('Currency must be a currency code of three letters, such as USD or EUR').waitFor();
    await page.getByLabel('Currency', { exact: true }).fill('EUR');
    await page.getByRole('button', { name: 'Save rates' }).click();
    await page.getByRole('status').getByText('Rates saved.').waitFor();
    await page.reload();
    assert.equal(await page.getByLabel('Service rate').inputValue(), '0.5');
  });

  test('at phone width the page fits without scrolling sideways', async () => {
    const owner = await ownerWithOneConversation();
    const { page } = await newPage(server, { width: 375, height: 800 });
    await logIn(page, owner);
    await page.goto('/reports');
    await page.getByRole('table', { name: 'Messages received by weekday and hour' }).waitFor();
    await page.getByRole('img', { name: /received and 1 sent/ }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0);
    await screenshot(page, 'reports-phone');
  });
  test('a manager reads the figures per agent and team and the charts in Portuguese; the page is axe-clean in Spanish too, and runs right to left in Arabic', async () => {
    const owner = await ownerWithOneConversation();
    const session = await logInOverHttp(server, owner);
    assert.equal((await session.send('PUT', '/api/dashboard/account', { language: 'pt-BR' })).status, 200);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/reports');
    await page.getByRole('heading', { name: 'Relatórios', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Números por agente' }).waitFor();
    await page.getByRole('table', { name: 'Números por equipe' }).waitFor();
    const volume = page.getByRole('region', { name: 'Volume' });
    assert.equal(await volume.getByRole('definition').first().textContent(), '1');
    await page.locator('canvas[role="img"]').nth(6).waitFor(); // each chart draws when its figures arrive
    assert.equal(
      await page.locator('canvas[role="img"]').count(),
      7,
      'the volume’s two charts, two per agent and per team, and the AI assistant’s',
    );
    await page
      .getByRole('img', { name: /^Conversas atendidas e abertas agora, por agente\. .+ atendeu mais: 1$/ })
      .waitFor();
    await page
      .getByRole('img', { name: /^Mediana da primeira resposta e da resolução, por agente\. .+, 4 min$/ })
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'reports-pt-BR');

    for (const [language, title] of [
      ['es', 'Informes'],
      ['ar', 'التقارير'],
    ] as const) {
      assert.equal((await session.send('PUT', '/api/dashboard/account', { language })).status, 200);
      await page.reload();
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      assert.deepEqual(await seriousAccessibilityViolations(page), [], language);
    }
    await page.waitForSelector('html[dir="rtl"][lang="ar"]', { state: 'attached' });
    await page
      .getByRole('table', { name: /الوكلاء|وكيل/ })
      .first()
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'reports-ar');
  });
});
