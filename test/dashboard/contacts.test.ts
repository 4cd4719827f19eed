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

/** Imports CSV through the import page and waits for the summary; `checked` is what the preview said. */
async function importThroughPage(page: Page, csv: string, checked: RegExp, screenshots = false): Promise<string> {
  await page.goto('/contacts/import');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('cell', { name: 'Grace Importer' }).waitFor();
  assert.equal(await page.getByLabel(/^phone$/i).inputValue(), 'phone', 'guessed from the header');
  await page.getByTestId('import-check').filter({ hasText: checked }).waitFor();
  if (screenshots) {
    assert.equal(await page.getByLabel('Plan').inputValue(), 'attribute:Plan');
    await screenshot(page, 'contacts-import-preview');
  }
  await page.getByRole('button', { name: /^Import \d+ contacts?$/ }).click();
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

    const checked = /5 rows: 3 contacts will be created, 0 will be updated\. 2 rows will not be imported \(1 repeat/;
    const summary = await importThroughPage(page, CSV, checked, true);
    assert.match(summary, /5 rows: 3 contacts created, 0 updated\. 2 rows were not imported \(1 repeat/);
    assert.equal(
      await page.getByTestId('import-summary').getAttribute('class'),
      'warning',
      'skipped rows are no success',
    );
    const errors = page.getByRole('table', { name: 'Rows not imported, by problem' });
    await errors
      .getByRole('row', { name: /Phone is not a valid international phone number 1 row 4 \(not a phone\)/ })
      .waitFor();
    await errors.getByRole('row', { name: /Phone repeats the phone of an earlier row; skipped 1 row 5/ }).waitFor();
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
    await page.getByLabel('Search').fill('ada');
    await page.getByRole('status').getByText('Page 1: 1 contact').waitFor();

    await page.getByRole('link', { name: 'Ada Importer' }).click();
    await page.getByRole('heading', { name: 'Ada Importer' }).waitFor();
    await page.goBack();
    await page.getByRole('status').getByText('Page 1: 1 contact').waitFor();
    assert.deepEqual(
      [await page.getByLabel('Search').inputValue(), await page.getByLabel('Tag', { exact: true }).inputValue()],
      ['ada', 'imported-vip'],
      'the search survives Back',
    );
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
    const file = fs.readFileSync(await download.path());
    assert.deepEqual([...file.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte order mark, for Excel');
    const records = parse<Record<string, string>>(file, { columns: true, bom: true });
    assert.equal(download.suggestedFilename(), 'contacts.csv');
    const byName = new Map(records.map((r) => [r.name, r]));
    assert.equal(records.length, 3);
    assert.equal(
      byName.get(`'=HYPERLINK("x")`)?.phone,
      '+14155550102',
      'formulas are neutralised; a plain E.164 phone stays as it is',
    );
    assert.equal(byName.get('Ada L. Importer')?.email, 'ada@example.com');
    assert.equal(byName.get('Ada L. Importer')?.Plan, 'gold', 'one column per custom attribute');
    assert.equal(byName.get('Grace Importer')?.Plan, '');
    assert.equal(byName.get('Grace Importer')?.tags, 'imported-vip, uk, vip');

    // The export reads back: neutralised cells lose their apostrophe, every phone now exists.
    const again = await importThroughPage(page, file.toString('utf8'), /3 rows: 0 contacts will be created, 3 will/);
    assert.match(again, /3 rows: 0 contacts created, 3 updated\.$/);
    assert.deepEqual((await server.app.services.contacts.get(owner, { phone: '+14155550101' })).custom_attributes, {
      Plan: 'gold',
    });
    const hyperlink = await server.app.services.contacts.get(owner, { phone: '+14155550102' });
    assert.equal(hyperlink.name, '=HYPERLINK("x")');
  });

  test('a large import shows its progress: the upload, then the rows written of those checked', async () => {
    const owner = await createOwner(server, 'Big Import Shop');
    const { page } = await newPage(server);
    await logIn(page, owner);
    const rows = Array.from({ length: 30_000 }, (_, i) => `+1415${String(3_000_000 + i)},Customer ${i}`);
    await page.goto('/contacts/import');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'everyone.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['phone,name', ...rows].join('\n')),
    });
    const importButton = page.getByRole('button', { name: 'Import 30,000 contacts' });
    await importButton.waitFor();
    // Every label the progress shows, however briefly.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const label = document.querySelector('.import-progress label')?.textContent;
        if (label && seen.at(-1) !== label) seen.push(label);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await importButton.click();
    // 30,000 rows take seconds alone, and far longer while other suites share the cores.
    await page
      .getByTestId('import-summary')
      .filter({ hasText: /30,000 contacts created/ })
      .waitFor({ timeout: 120_000 });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    // Written 10,000 rows a transaction: the bar moved while the import ran, not only at its end.
    assert.ok(
      seen.some((label) => /^Importing… (10|20),000 of 30,000 rows$/.test(label)),
      seen.join(' | '),
    );
  });

  test('Add contact names each problem by its label, in words; then opens the new contact', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/contacts');
    await page.getByRole('link', { name: 'Add contact' }).click();
    const form = page.getByRole('form', { name: 'Add contact' });
    await form.getByLabel('Phone').fill('12');
    await form.getByLabel('Email').fill('not an email');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await form.getByText('Phone must be a valid international phone number').waitFor();
    assert.equal(await form.getByLabel('Phone').getAttribute('aria-invalid'), 'true');
    assert.doesNotMatch((await form.textContent()) ?? '', /phone:|must match|\^\[/, 'no field names nor patterns');
    await form.getByLabel('Phone').fill('+44 20 7946 0958');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await form.getByText('Email must be an email address').waitFor();
    await form.getByLabel('Email').fill('lin@example.com');
    await form.getByLabel('Name').fill('Lin Added');
    await form.getByLabel('Tags').fill('vip, walk-in');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('heading', { name: 'Lin Added' }).waitFor();
    const lin = await server.app.services.contacts.get(owner, { phone: '+442079460958' });
    assert.deepEqual([lin.email, lin.tags], ['lin@example.com', ['vip', 'walk-in']]);
    await screenshot(page, 'contact-added');
  });

  test('Add contact with a phone that is already a contact’s refuses, links to that contact and changes nothing', async () => {
    const owner = await createOwner(server);
    await server.app.services.contacts.create(owner, { phone: '+447911108061', name: 'Carlos Okafor', tags: ['vip'] });
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/contacts/new');
    const form = page.getByRole('form', { name: 'Add contact' });
    await form.getByLabel('Phone').fill('+44 7911 108061');
    await form.getByLabel('Name').fill('Carlos Again');
    await form.getByLabel('Tags').fill('walk-in');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await form.getByText('Phone is already the number of the contact Carlos Okafor').waitFor();
    assert.equal(await form.getByLabel('Phone').getAttribute('aria-invalid'), 'true');
    const carlos = await server.app.services.contacts.get(owner, { phone: '+447911108061' });
    assert.deepEqual([carlos.name, carlos.tags], ['Carlos Okafor', ['vip']], 'nothing changed');
    await form.getByRole('link', { name: 'Open that contact' }).click();
    await page.getByRole('heading', { name: 'Carlos Okafor' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/contacts/${carlos.id}`);
  });

  test('import: a default country reads national numbers; ; and | separate tags; the preview checks every row', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server);
    await logIn(page, owner);
    const csv = 'Phone,Name,Tags\r\n020 7946 0958,Brit Local,vip;uk|london\r\n+1 415 555 0199,Grace Importer,\r\n';
    await page.goto('/contacts/import');
    await page.getByLabel('CSV file').setInputFiles({ name: 'uk.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const check = page.getByTestId('import-check');
    await check.filter({ hasText: '2 rows: 1 contact will be created, 0 will be updated. 1 row will not' }).waitFor();
    const problems = page.getByRole('table', { name: 'Rows not imported, by problem' });
    await problems
      .getByRole('row', { name: /is not a valid international phone number 1 row 2 \(020 7946 0958\)/ })
      .waitFor();
    await page.getByLabel('Country of numbers written without +').selectOption('GB');
    await check.filter({ hasText: /^2 rows: 2 contacts will be created, 0 will be updated\.$/ }).waitFor();
    assert.equal(await problems.count(), 0, 'no row is kept out now');
    assert.equal(await check.getAttribute('class'), 'notice');
    const listed = await server.app.services.contacts.search(owner, { query: '' });
    assert.deepEqual(listed, [], 'the preview writes nothing');
    await screenshot(page, 'contacts-import-country');
    await page.getByRole('button', { name: 'Import 2 contacts' }).click();
    await page.getByTestId('import-summary').filter({ hasText: '2 rows: 2 contacts created, 0 updated.' }).waitFor();
    const brit = await server.app.services.contacts.get(owner, { phone: '+442079460958' });
    assert.deepEqual([brit.name, [...brit.tags].sort()], ['Brit Local', ['london', 'uk', 'vip']]);
  });

  test('import: a file of 400 bad rows is summed up by problem in a short page; the download lists every row', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server);
    await logIn(page, owner);
    const bad = Array.from({ length: 300 }, (_, i) => `not a phone ${i + 1},Bad ${i + 1},`);
    const noYes = Array.from({ length: 100 }, (_, i) => `+1415555${String(1000 + i)},Odd ${i + 1},maybe`);
    const csv = ['Phone,Name,Opted out', ...bad, ...noYes].join('\r\n');
    await page.goto('/contacts/import');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('import-check').filter({ hasText: '400 rows will not be imported' }).waitFor();
    const problems = page.getByRole('table', { name: 'Rows not imported, by problem' });
    const phoneRow = problems.getByRole('row', { name: /^Phone is not a valid international phone number 300/ });
    await phoneRow.getByText('row 2 (not a phone 1), row 3 (not a phone 2), row 4 (not a phone 3), …').waitFor();
    await problems
      .getByRole('row', { name: /^Opted out is not yes or no \(true\/false\) 100 row 302 \(maybe\)/ })
      .waitFor();
    assert.equal(await problems.getByRole('row').count(), 3, 'a header and one row per problem');
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 2000, `the page stays short (${height} px)`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the list of rows not imported (CSV)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'rows-not-imported.csv');
    const listed = parse<Record<string, string>>(fs.readFileSync(await download.path(), 'utf8'), { columns: true });
    assert.equal(listed.length, 400, 'every row kept out');
    assert.deepEqual(listed[0], {
      row: '2',
      phone: 'not a phone 1',
      column: 'Phone',
      value: 'not a phone 1',
      problem: 'is not a valid international phone number',
    });
    assert.deepEqual(listed[399], {
      row: '401',
      phone: '+14155551099',
      column: 'Opted out',
      value: 'maybe',
      problem: 'is not yes or no (true/false)',
    });
  });

  test('Tags: renamed and deleted from the dashboard; a tag links to its contacts', async () => {
    const owner = await createOwner(server);
    await server.app.services.contacts.create(owner, { phone: '+14155550161', name: 'Tagged Tia', tags: 'vip, fr' });
    await server.app.services.contacts.create(owner, { phone: '+14155550162', name: 'Other Oz', tags: 'fr' });
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/contacts');
    await page.getByRole('link', { name: 'Tags', exact: true }).click();
    const vip = page.getByRole('row', { name: /vip/ });
    await vip.getByRole('button', { name: 'Rename vip' }).click();
    await vip.getByLabel('New name').fill('FR');
    await vip.getByRole('button', { name: 'Save' }).click();
    await vip.getByText('New name is the name of another tag').waitFor();
    await vip.getByLabel('New name').fill('Gold');
    await vip.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Renamed vip to Gold.').waitFor();
    await screenshot(page, 'contacts-tags');
    await page.getByRole('row', { name: /fr/ }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete tag' }).click();
    await page.getByRole('status').getByText('Deleted fr.').waitFor();
    const tia = await server.app.services.contacts.get(owner, { phone: '+14155550161' });
    assert.deepEqual(tia.tags, ['Gold']);
    await page.getByRole('link', { name: 'Gold' }).click();
    await page.getByRole('status').getByText('Page 1: 1 contact').waitFor();
    assert.equal(await page.getByLabel('Tag', { exact: true }).inputValue(), 'Gold');
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
    assert.equal(parse(csv, { columns: true, bom: true }).length, 250, 'the export pages through all of them');
  });

  test('the contact page shows a message as the inbox does: a button reply reads "Order now", not [interactive]', async () => {
    const owner = await createOwner(server);
    const contactId = await insertContact(server, owner.workspaceId, { name: 'Buyer Person' });
    await insertMessage(server, {
      workspaceId: owner.workspaceId,
      contactId,
      direction: 'inbound',
      type: 'interactive',
      content: { type: 'button_reply', button_reply: { id: 'order', title: 'Order now' } },
    });
    await insertMessage(server, {
      workspaceId: owner.workspaceId,
      contactId,
      direction: 'inbound',
      type: 'image',
      content: { id: 'media-1', mime_type: 'image/jpeg', caption: 'Spring bouquet' },
    });
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/inbox/${contactId}`);
    await page.getByRole('list', { name: 'Messages' }).getByText('Order now').waitFor();
    await page.goto(`/contacts/${contactId}`);
    const conversation = page.locator('.bubble');
    await conversation.filter({ hasText: 'Order now' }).waitFor();
    await conversation.filter({ hasText: 'Image: Spring bouquet' }).waitFor();
    assert.equal(await page.getByText('[interactive]').count(), 0);
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
