import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { campaignWorld } from '../campaign-world.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const { server, postWebhook, connect } = await startWhatsappServer({ outbox: true });
const { shop, playedOut } = campaignWorld({ server, postWebhook, connect });

describe(`dashboard: campaign outcomes (${ENGINE})`, () => {
  test('Reports shows each campaign’s funnel as a table, Meta’s reasons, the cost, the CSV, and resends to non-readers', async () => {
    const s = await shop();
    const campaign = await playedOut(s);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, s.owner);
    await page.goto('/reports');
    const section = page.getByRole('region', { name: 'Campaign outcomes' });
    const funnel = section.getByRole('table', { name: 'How far “Spring sale” got' });
    await funnel.waitFor();
    const rows = await funnel.getByRole('row').allTextContents();
    assert.deepEqual(rows.slice(1), [
      'Sent480%',
      'Delivered360%',
      'Read120%',
      'Replied120%',
      'Opted out120%',
      'Failed120%',
    ]);
    await section.getByText(/1 message \(Meta error 131050\): The recipient has stopped marketing messages/).waitFor();
    await section.getByText('Cost: $0.1618 for 4 billable messages.').waitFor();
    const csv = section.getByRole('link', { name: 'Download CSV' });
    assert.match((await csv.getAttribute('href'))!, /^\/api\/v1\/reports\/campaigns\?(.*&)?format=csv$/);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'reports-campaign-outcomes');

    // The cost ledger: the same charge, by day and then by campaign, with its CSV.
    const costs = page.getByRole('region', { name: 'Costs' });
    await costs.getByText('$0.1618 for 4 charged messages.').waitFor();
    await costs.getByLabel('Group by').selectOption('campaign');
    const ledger = costs.getByRole('table', { name: 'Costs per group' });
    await ledger.getByRole('row', { name: /Spring sale/ }).waitFor();
    assert.deepEqual((await ledger.getByRole('row').allTextContents()).slice(1), ['Spring sale4$0.1618']);
    const ledgerCsv = await costs.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    assert.match(ledgerCsv!, /^\/api\/v1\/reports\/costs\?(.*&)?group_by=campaign&format=csv$/);

    // One message's own share of it, in its thread: Meta's shipped card for Brazil's marketing rate.
    await page.goto(`/inbox/${s.contacts.brazil}`);
    await page.getByText('Meta charged $0.0625 (marketing)').waitFor();
    await page.goto('/reports');

    await section.getByRole('button', { name: 'Resend to the 3 who did not read' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText('Send “Spring sale” again to the 3 recipients who have not read it? It is sent now.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Send again' }).click();
    const link = section.getByRole('link', { name: 'View the resend' });
    await link.waitFor();
    const resend = await server.app.services.deps.db
      .selectFrom('campaigns')
      .select('id')
      .where('resend_of', '=', campaign.id)
      .executeTakeFirstOrThrow();
    assert.equal(await link.getAttribute('href'), `/campaigns/${resend.id}`);
    assert.equal(await section.getByRole('button', { name: /^Resend/ }).count(), 0, 'resent once');
  });
});
