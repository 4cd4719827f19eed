import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { insertContact } from '../automation-factories.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();
const { services } = server.app;

describe(`dashboard: opt-out (${ENGINE})`, () => {
  test('Settings → Opt-out edits the keyword lists and the confirmation; a word in both lists is named by its label', async () => {
    const owner = await createOwner(server, 'Opt-out Shop');
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/opt-out');
    const stop = page.getByLabel('Stop keywords');
    const start = page.getByLabel('Resume keywords');
    assert.match(await stop.inputValue(), /^STOP\nUNSUBSCRIBE\n/);

    await start.fill('START\nstop');
    await page.getByRole('button', { name: 'Save opt-out settings' }).click();
    await page.getByText('Resume keywords must not repeat a stop keyword ("stop")').waitFor();
    assert.equal((await services.optOut.get(owner)).start_keywords.includes('stop'), false, 'nothing saved');

    await stop.fill('Cancelar\n\nDésinscrire');
    await start.fill('Volver');
    await page.getByLabel(/Tell a contact once/).uncheck();
    await page.getByRole('button', { name: 'Save opt-out settings' }).click();
    await page.getByRole('status').getByText('Opt-out settings saved.').waitFor();
    assert.deepEqual(await services.optOut.get(owner), {
      stop_keywords: ['Cancelar', 'Désinscrire'],
      start_keywords: ['Volver'],
      confirm: false,
    });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'settings-opt-out');
  });

  test('the contact page opts a contact out of marketing and back in', async () => {
    const owner = await createOwner(server, 'Opt-out Contacts');
    const contactId = await insertContact(server, owner.workspaceId, { name: 'Olga Optout' });
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/contacts/${contactId}`);
    const state = page.getByTestId('opt-out-state');
    assert.equal(await state.textContent(), 'Subscribed to marketing messages.');
    await page.getByRole('button', { name: 'Opt out of marketing' }).click();
    await page.getByRole('button', { name: 'Opt back in to marketing' }).waitFor();
    assert.match((await state.textContent())!, /^Opted out of marketing/);
    assert.equal((await services.contacts.get(owner, { contact_id: contactId })).opted_out, true);
    await page.getByRole('button', { name: 'Opt back in to marketing' }).click();
    await page.getByRole('button', { name: 'Opt out of marketing' }).waitFor();
    assert.equal((await services.contacts.get(owner, { contact_id: contactId })).opted_out, false);
  });
});
