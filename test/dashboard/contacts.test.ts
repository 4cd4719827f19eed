import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { createSequence, enrolInSequence, insertContact } from '../automation-factories.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { insertMessage } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

interface ContactPage {
  contacts: { id: string; name: string | null; last_message_at: string | null }[];
  next: string | null;
}

// Row 4 has no valid phone; row 5 repeats row 2's phone (in another format).
const CSV = [
  'Phone,Name,Email,Tags,Plan',
  '+1 415 555 0101,Ada Importer,ada@example.com,vip,gold',
  '14155550102,"=HYPERLINK(""x"")",,,silver',
  'not a phone,Bad Row,,,',
  '+1 (415) 555-0101,Ada Again,,,',
  '+14155550103,Grace Importer,grace@example.com,"vip, uk",',
].join('\r\n');

/** Imports CSV through the import page and waits for the summary. */
async function importThroughPage(page: Page, csv: string, screenshots = false): Promise<string> {
  await page.goto('/contacts/import');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('cell', { name: 'Grace Importer' }).waitFor();
  assert.equal(await page.getByLabel(/^phone$/i).inputValue(), 'phone', 'guessed from the header');
  if (screenshots) {
    assert.equal(await page.getByLabel('Plan').inputValue(), 'attribute:Plan');
    await screenshot(page, 'contacts-import-preview');
  }
  await page.getByRole('button', { name: 'Import contacts' }).click();
  const summary = page.getByTestId('import-summary');
  await summary.waitFor();
  if (screenshots) await screenshot(page, 'contacts-import-result');
  return (await summary.textContent())!;
}

/** GET /api/dashboard/… with the page's session. */
function getJson<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => (await (await fetch(url)).json()) as T, `/api/dashboard/${path}`);
}

describe(`dashboard: contacts (${ENGINE})`, () => {
  test('import, search, bulk tag, contact page and a formula-safe export', async () => {
    const owner = await createOwner(server, 'Import Shop');
    const { page } = await newPage(server);
    await logIn(page, owner);

    const summary = await importThroughPage(page, CSV, true);
    assert.match(summary, /5 rows: 3 created, 0 updated, 2 skipped \(1 repeated a phone\)/);
    const errors = page.getByRole('table', { name: 'Rows not imported' });
    await errors.getByRole('row', { name: /4 phone "not a phone" is not a valid/ }).waitFor();
    await errors.getByRole('row', { name: /5 phone same phone as row 2; skipped/ }).waitFor();
    const ada = await server.app.services.contacts.get(owner, { phone: '+14155550101' });
    assert.deepEqual(
      [ada.name, ada.email, ada.tags, ada.custom_attributes],
      ['Ada Importer', 'ada@example.com', ['vip'], { Plan: 'gold' }],
    );

    // Ada is in a sequence that a tag ends: bulk tagging goes through the same rules as add-tag.
    const sequenceId = await createSequence(server, owner.workspaceId, {
      name: 'Onboarding',
      definition: { steps: [], exit_on: { tags: ['imported-vip'] } },
    });
    await enrolInSequence(server, owner.workspaceId, sequenceId, { contactId: ada.id, status: 'waiting' });

    await page.getByRole('link', { name: 'See the contacts' }).click();
    await page.getByLabel('Search').fill('importer');
    const rows = page.getByRole('table', { name: /Contacts/ }).locator('tbody tr');
    await page.getByRole('status').getByText('Page 1: 2 contacts').waitFor();
    assert.deepEqual((await rows.locator('td:nth-child(2)').allTextContents()).sort(), [
      'Ada Importer',
      'Grace Importer',
    ]);
    await page.getByLabel('Select all on this page').check();
    await page.getByLabel('Tag for 2 selected').fill('imported-vip');
    await page.getByRole('button', { name: 'Tag', exact: true }).click();
    await page.getByText('Tagged 2 contacts.').waitFor();
    await rows.filter({ hasText: 'Ada Importer' }).getByText('imported-vip, vip').waitFor();
    await screenshot(page, 'contacts-list');

    await page.getByLabel('Search').fill('');
    await page.getByLabel('Tag', { exact: true }).selectOption('imported-vip');
    await page.getByRole('status').getByText('Page 1: 2 contacts').waitFor();

    await page.getByRole('link', { name: 'Ada Importer' }).click();
    await page.getByRole('heading', { name: 'Ada Importer' }).waitFor();
    await page.getByText('gold').waitFor();
    const sequences = page.getByRole('region', { name: 'Sequences' });
    await sequences.getByRole('row', { name: /Onboarding exited \(tagged\)/ }).waitFor();
    await page.getByRole('button', { name: 'Remove tag vip' }).click();
    await page.getByRole('button', { name: 'Remove tag vip' }).waitFor({ state: 'detached' });
    await page.getByLabel('Name').fill('Ada L. Importer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await screenshot(page, 'contact-page');
    const edited = await server.app.services.contacts.get(owner, { contact_id: ada.id });
    assert.deepEqual([edited.name, edited.tags], ['Ada L. Importer', ['imported-vip']]);

    await page.goto('/contacts');
    await page.getByRole('status').getByText('Page 1: 3 contacts').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const records = parse<Record<string, string>>(fs.readFileSync(await download.path()), { columns: true });
    assert.equal(download.suggestedFilename(), 'contacts.csv');
    const byName = new Map(records.map((r) => [r.name, r]));
    assert.equal(records.length, 3);
    assert.equal(
      byName.get(`'=HYPERLINK("x")`)?.phone,
      '+14155550102',
      'formulas are neutralised; a plain E.164 phone stays as it is',
    );
    assert.equal(byName.get('Ada L. Importer')?.email, 'ada@example.com');
    assert.equal(byName.get('Ada L. Importer')?.attributes, '{"Plan":"gold"}');
    assert.equal(byName.get('Grace Importer')?.tags, 'imported-vip, uk, vip');

    // The export reads back: neutralised cells lose their apostrophe, every phone now exists.
    const again = await importThroughPage(page, fs.readFileSync(await download.path(), 'utf8'));
    assert.match(again, /3 rows: 0 created, 3 updated, 0 skipped/);
    const hyperlink = await server.app.services.contacts.get(owner, { phone: '+14155550102' });
    assert.equal(hyperlink.name, '=HYPERLINK("x")');
  });

  test('keyset paging shows every contact exactly once, latest message first, never-messaged last', async () => {
    const owner = await createOwner(server);
    const other = await createOwner(server);
    await insertContact(server, other.workspaceId, { name: 'Someone else' });
    const ids: string[] = [];
    for (let i = 0; i < 250; i++) ids.push(await insertContact(server, owner.workspaceId, { name: `Paged ${i}` }));
    // 120 have messaged, three at a time at the same instant, so the id breaks ties.
    const start = server.clock.now().getTime();
    for (let i = 0; i < 120; i++) {
      await server.app.services.deps.db
        .updateTable('contacts')
        .set({ last_message_at: new Date(start + Math.floor(i / 3) * 1000).toISOString() })
        .where('id', '=', ids[i]!)
        .execute();
    }
    const { page } = await newPage(server);
    await logIn(page, owner);
    const seen: ContactPage['contacts'] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query: string = `contacts?limit=100${after ? `&after=${after}` : ''}`;
      const result: ContactPage = await getJson<ContactPage>(page, query);
      seen.push(...result.contacts);
      after = result.next;
      pages++;
    } while (after);
    assert.equal(pages, 3);
    assert.equal(seen.length, 250);
    assert.deepEqual(new Set(seen.map((c) => c.id)), new Set(ids));
    const key = (c: ContactPage['contacts'][number]) => `${c.last_message_at ?? ''}|${c.id}`;
    const messaged = seen.filter((c) => c.last_message_at !== null);
    assert.equal(messaged.length, 120);
    assert.deepEqual(
      seen.slice(0, 120).map(key),
      [...messaged].sort((a, b) => key(b).localeCompare(key(a))).map(key),
      'newest first',
    );
    assert.deepEqual(
      seen.slice(120).map((c) => c.id),
      seen
        .slice(120)
        .map((c) => c.id)
        .sort()
        .reverse(),
    );

    const filtered = await getJson<ContactPage>(page, 'contacts?query=Paged%2012&limit=100');
    assert.deepEqual(filtered.contacts.map((c) => c.name).sort(), [
      'Paged 12',
      'Paged 120',
      'Paged 121',
      'Paged 122',
      'Paged 123',
      'Paged 124',
      'Paged 125',
      'Paged 126',
      'Paged 127',
      'Paged 128',
      'Paged 129',
    ]);
    const bad = await page.evaluate(async () => (await fetch('/api/dashboard/contacts?after=nonsense')).status);
    assert.equal(bad, 400);
    const csv = await page.evaluate(async () => (await fetch('/api/dashboard/contacts/export.csv')).text());
    assert.equal(parse(csv, { columns: true }).length, 250, 'the export pages through all of them');
  });

  test('accessible and responsive: no serious axe findings; usable at 375 px', async () => {
    const owner = await createOwner(server);
    const contactId = await insertContact(server, owner.workspaceId, { name: 'Axe Person', email: 'axe@example.com' });
    await insertMessage(server, {
      workspaceId: owner.workspaceId,
      contactId,
      direction: 'inbound',
      content: { body: 'Is the shop open on Sunday?' },
    });
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/contacts');
    await page.getByRole('link', { name: 'Axe Person' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'contacts table');
    await page.goto(`/contacts/${contactId}`);
    await page.getByText('Is the shop open on Sunday?').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'contact page');
    await page.goto('/contacts/import');
    await page.getByLabel('CSV file').setInputFiles({ name: 'a.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByRole('cell', { name: 'Grace Importer' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'import page');

    const { page: phone } = await newPage(server, { width: 375, height: 740 });
    await logIn(phone, owner);
    for (const path of ['/contacts', `/contacts/${contactId}`, '/contacts/import']) {
      await phone.goto(path);
      await phone.getByRole('heading', { level: 1 }).waitFor();
      await phone
        .getByText(/Axe Person|CSV file/)
        .first()
        .waitFor();
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no sideways scrolling at 375 px on ${path} (${overflow} px too wide)`);
    }
    await phone.goto('/contacts');
    await phone.getByRole('link', { name: 'Axe Person' }).waitFor();
    await screenshot(phone, 'contacts-list-phone');
  });
});
