import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { tagRepository } from '../../src/tags/tag.repository.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { createImageHeaderTemplate, createTemplate } from '../factories.js';
import { ENGINE, startServer, type TestServer } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { newContactRow } from '../../src/contacts/contact.repository.js';
import { statusWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { portfolioLimitWebhook } from '../../src/whatsapp/webhook.limit-fixtures.js';

const server = await startServer();
const whatsapp = await startWhatsappServer({ outbox: true });
const DAY = 86_400_000;

/** A signed-in owner of a fresh workspace, with an approved two-placeholder template. */
async function signedIn(on: TestServer, options: { width?: number; bypassCSP?: boolean } = {}) {
  const owner = await createOwner(on, `Shop ${randomInt(1e6)}`);
  const template = await createTemplate(on.app.services, owner.workspaceId, {
    name: `order_update_${randomInt(1e9)}`,
  });
  const { page } = await newPage(on, options);
  await logIn(page, owner);
  return { owner, template, page };
}

/** The number shown for a state in a "by state" summary. */
const stateCount = (page: Page, state: string) =>
  page.locator(`.state-counts [data-state="${state}"] dd`).textContent();

/** The steps of the workspace's one saved sequence, as stored. */
async function savedSteps(workspaceId: string): Promise<unknown> {
  const row = await server.app.services.deps.db
    .selectFrom('sequences')
    .select('definition')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return (JSON.parse(row.definition) as { steps: unknown }).steps;
}

async function waitForCount(page: Page, state: string, value: string) {
  await page.locator(`.state-counts [data-state="${state}"] dd`, { hasText: new RegExp(`^${value}$`) }).waitFor();
}

/** Contacts written straight into the table, tagged. */
async function insertTaggedContacts(on: TestServer, workspaceId: string, count: number, tag: string) {
  const { db, newId, clock } = on.app.services.deps;
  const at = clock.now().toISOString();
  // A San Francisco number's exchange starts with 2–9 (an exchange of 1xx is no number, priced at Meta's "Other").
  const base = randomInt(2_000_000, 9_000_000 - count);
  const rows = Array.from({ length: count }, (_, i) =>
    newContactRow({
      id: newId(),
      workspaceId,
      phone: `+1415${base + i}`,
      name: `Customer ${i}`,
      email: null,
      customAttributes: '{}',
      at,
    }),
  );
  await db.insertInto('contacts').values(rows).execute();
  const [row] = await tagRepository(db).ensure(workspaceId, [tag], newId, at);
  await db
    .insertInto('contact_tags')
    .values(rows.map((contact) => ({ contact_id: contact.id, tag_id: row!.id, created_at: at })))
    .execute();
}

describe(`dashboard: sequences, flows and campaigns (${ENGINE})`, () => {
  test('a sequence built in the editor enrols a contact, and the scheduler moves it to completed', async () => {
    const { owner, template, page } = await signedIn(server);
    await page.getByRole('link', { name: 'Sequences' }).click();
    await page.getByRole('heading', { name: 'Sequences' }).waitFor();
    await page.getByText('No sequences yet.').waitFor();
    await page.getByRole('link', { name: 'New sequence' }).click();
    await page.getByRole('heading', { name: 'New sequence' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Onboarding');
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await page.getByLabel('Variable {{1}}').fill('friend');
    await page.getByLabel('Variable {{2}}').fill('A-1');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 2 delay: amount').fill('1');
    await page.getByLabel('Step 2 delay: unit').selectOption('D');
    await page.getByLabel('Step 2 action').selectOption('add_tag');
    await page.getByLabel('Step 2 tag').fill('onboarded');
    await screenshot(page, 'sequence-new');

    // A problem the server finds is shown next to its step, by its JSON Pointer.
    await page.getByLabel('Step 2 tag').fill('');
    await page.getByRole('button', { name: 'Save sequence' }).click();
    const step2 = page.getByTestId('step-1');
    await step2.getByRole('alert').getByText('Tag', { exact: true }).waitFor();
    assert.equal(await step2.getByRole('alert').getByRole('listitem').count(), 1);
    assert.match((await step2.getAttribute('class'))!, /invalid/);
    assert.doesNotMatch((await page.getByTestId('step-0').getAttribute('class'))!, /invalid/);
    await page.getByLabel('Step 2 tag').fill('onboarded');
    await page.getByRole('button', { name: 'Save sequence' }).click();
    await page.getByRole('heading', { name: 'Onboarding' }).waitFor();
    assert.match(page.url(), /\/sequences\/[0-9a-f-]{36}$/);

    assert.deepEqual(await savedSteps(owner.workspaceId), [
      { action: { type: 'send_template', template_id: template.id, variables: ['friend', 'A-1'] } },
      { delay: 'P1D', action: { type: 'add_tag', tag: 'onboarded' } },
    ]);

    await page.getByLabel('Enrol a contact (phone)').fill('+14155550123');
    await page.getByRole('button', { name: 'Enrol', exact: true }).click();
    await page.getByRole('status').getByText('Enrolled +14155550123').waitFor();
    await waitForCount(page, 'active', '1');
    await page.getByRole('table', { name: 'Recent enrolments' }).getByRole('cell', { name: 'active' }).waitFor();
    await screenshot(page, 'sequence-page');

    await server.app.services.scheduler.runDue(owner.workspaceId); // step 1: the template
    server.clock.advance(DAY + 1000);
    await server.app.services.scheduler.runDue(owner.workspaceId); // step 2, a day later: the tag
    const enrolment = await server.app.services.deps.db
      .selectFrom('sequence_enrolments')
      .select(['status', 'ended_reason'])
      .where('workspace_id', '=', owner.workspaceId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(enrolment, { status: 'completed', ended_reason: null });
    await page.reload();
    await waitForCount(page, 'completed', '1');
    assert.equal(await stateCount(page, 'active'), '0');

    await page.getByRole('link', { name: 'All sequences' }).click();
    const listed = page.getByRole('row', { name: /Onboarding/ });
    await listed.waitFor();
    assert.deepEqual(await listed.getByRole('cell').allTextContents(), [
      '0',
      '0',
      '1',
      '0',
      '0',
      await listed.getByRole('cell').last().textContent(),
    ]);
    await screenshot(page, 'sequences');
  });

  test('a sequence step of a media-header template asks for the header image link, and saves it', async () => {
    const { owner, template, page } = await signedIn(server);
    const photo = await createImageHeaderTemplate(server.app.services, owner.workspaceId);
    await page.goto('/sequences/new');
    await page.getByRole('heading', { name: 'New sequence' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Photos');
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    assert.equal(await page.getByLabel('Header image link').count(), 0, 'a text template has no header link');
    await page.getByLabel('Template', { exact: true }).selectOption(photo.id);
    const link = 'https://shop.example/new.jpg';
    await page.getByLabel('Header image link').fill(link);
    await screenshot(page, 'sequence-header-image');
    await page.getByRole('button', { name: 'Save sequence' }).click();
    await page.getByRole('heading', { name: 'Photos' }).waitFor();

    assert.deepEqual(await savedSteps(owner.workspaceId), [
      { action: { type: 'send_template', template_id: photo.id, header_media_url: link } },
    ]);
  });

  test('the sequence editor: no template chosen says to choose one; the count is of the problems shown; a fixed field’s problem goes at once', async () => {
    const { template, page } = await signedIn(server);
    await page.goto('/sequences/new');
    await page.getByLabel('Name', { exact: true }).fill('Welcome');
    await page.getByRole('button', { name: 'Add step' }).click(); // step 2: add a tag, the tag left empty
    await page.getByRole('button', { name: 'Save sequence' }).click();
    const step1 = page.getByTestId('step-0').getByRole('alert');
    await step1.waitFor();
    assert.equal(await step1.textContent(), 'Template is required: choose one');
    assert.doesNotMatch((await page.locator('main').textContent())!, /characters that are not allowed/);
    const shown = await page.locator('.problem-list li').count();
    assert.equal(shown, 2, 'the template of step 1 and the tag of step 2');
    await page.getByText('Not saved: 2 problems, shown next to the fields.').waitFor();

    await page.getByTestId('step-0').getByLabel('Template', { exact: true }).selectOption(template.id);
    await step1.waitFor({ state: 'detached' });
    await page.getByText('Not saved: 1 problem, shown next to the fields.').waitFor();
    await page.getByLabel('Step 2 tag').fill('welcomed');
    await page.getByText(/^Not saved:/).waitFor({ state: 'detached' });
    assert.equal(await page.locator('.problem-list li').count(), 0);
  });

  test('a campaign form: a problem goes as soon as its field changes (the name)', async () => {
    const { page } = await signedIn(server);
    await page.goto('/campaigns/new');
    await page.getByRole('button', { name: 'Review and send…' }).click();
    const problems = page.locator('form[aria-label="New campaign"] > .problem-list');
    await problems.getByText('Name', { exact: true }).waitFor();
    const name = page.getByLabel('Name', { exact: true });
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    await name.fill('Spring');
    await problems.waitFor({ state: 'detached' });
    assert.equal(await name.getAttribute('aria-invalid'), null);
  });

  test('a campaign of a template with a URL button: the picker asks for every variable, and Meta gets them all', async () => {
    const { server: wa, graph } = whatsapp;
    const { owner, page } = await signedIn(wa);
    const { workspaceId } = owner;
    const { phoneNumberId } = await whatsapp.connect(workspaceId, { messagesPerSecond: 1000 });
    await insertTaggedContacts(wa, workspaceId, 1, 'buyers');
    const template = await createTemplate(wa.app.services, workspaceId, {
      name: `tracking_${randomInt(1e9)}`,
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          body: 'Hi {{1}}, your order has shipped.',
          buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}' }],
        },
      ],
    });

    await page.goto('/campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Shipped');
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await page.getByLabel('Variable {{1}}').fill('{{contact.name}}');
    await page.getByLabel('Variable Button "Track" {{1}}').fill('ORD-7');
    await page.getByLabel('Tag', { exact: true }).selectOption('buyers');
    await page.getByRole('button', { name: 'Review and send…' }).click();
    await page.getByRole('button', { name: 'Send to 1 contact' }).click();
    await page.getByRole('heading', { name: 'Shipped' }).waitFor();

    await wa.app.services.scheduler.runDue(workspaceId);
    wa.app.services.outbox.wake();
    await wa.app.services.outbox.idle();
    const sent = graph.requests.filter((r) => r.path.endsWith(`/${phoneNumberId}/messages`));
    assert.equal(sent.length, 1);
    // Meta's "Send template messages": the body's parameter, then the URL button's suffix.
    assert.deepEqual((sent[0]!.body as { template: { components: unknown } }).template.components, [
      { type: 'body', parameters: [{ type: 'text', text: 'Customer 0' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ORD-7' }] },
    ]);
  });

  test('a campaign to a tag of 20 contacts: the progress bar and counts reach all sent', async () => {
    const { server: wa } = whatsapp;
    const { owner, template, page } = await signedIn(wa, { bypassCSP: true });
    const { workspaceId } = owner;
    const { phoneNumberId } = await whatsapp.connect(workspaceId, { messagesPerSecond: 1000 });
    await insertTaggedContacts(wa, workspaceId, 20, 'vip');

    await page.goto('/campaigns');
    await page.getByText('No campaigns yet.').waitFor();
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { name: 'New campaign' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Spring sale');
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await page.getByLabel('Variable {{1}}').fill('{{contact.name}}');
    await page.getByLabel('Variable {{2}}').fill('SPRING');
    await page.getByLabel('Tag', { exact: true }).selectOption('vip');
    await page.getByRole('button', { name: 'Review and send…' }).click();
    const confirm = page.getByTestId('confirm-send');
    await confirm.getByText('goes to 20 contacts now').waitFor();
    // The message as its first recipient will see it, placeholders filled; the cost says when no rate is set.
    await confirm.getByText('The first recipient, Customer 0').waitFor();
    const firstMessage = confirm.getByRole('figure', { name: 'The message as the first recipient will see it' });
    assert.equal(await firstMessage.locator('.wa-body').textContent(), 'Hi Customer 0, your order SPRING has shipped.');
    // Without rates of its own, Meta's shipped USD card prices the +1 numbers (North America, utility $0.004).
    const shipped = await confirm.getByTestId('campaign-cost').textContent();
    assert.match(shipped ?? '', /Estimated cost: \$0\.08 \(20 utility messages at \$0\.004 each/);
    // Priced in euros, no rate is known until the owner imports Meta's euro card (Reports → Message rates).
    await wa.app.services.reports.saveRates({ workspaceId }, { currency: 'EUR', rates: {} });
    await confirm.getByRole('button', { name: 'Change something' }).click();
    await page.getByRole('button', { name: 'Review and send…' }).click();
    await confirm.getByText('Estimated cost: unknown, no rate is set for utility messages').waitFor();
    const { page: rates } = await newPage(wa);
    await logIn(rates, owner);
    await rates.goto('/reports');
    const importCard = async (csv: string) => {
      await rates
        .getByLabel('Rate card CSV')
        .setInputFiles({ name: 'eur.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await rates.getByLabel('Effective from').fill('2025-07-01');
      await rates.getByRole('button', { name: 'Import rate card' }).click();
    };
    await importCard('Market,Currency,Marketing,Utility\nNorth America,EUR,0.0230,about 0.004');
    await rates.getByText('row 2, column Utility: “about 0.004” is not a price').waitFor();
    await importCard('Market,Currency,Marketing,Utility\nNorth America,EUR,0.0230,0.0040\nBrazil,EUR,0.0570,0.0062');
    await rates.getByTestId('rate-cards').getByText('eur.csv').waitFor();
    await rates.context().close();
    await confirm.getByRole('button', { name: 'Change something' }).click();
    await page.getByRole('button', { name: 'Review and send…' }).click();
    await confirm.getByText('€0.08').waitFor();
    const cost = await confirm.getByTestId('campaign-cost').textContent();
    assert.match(cost ?? '', /Estimated cost: €0\.08 \(20 utility messages at €0\.004 each/);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'campaign-new');
    await page.getByRole('button', { name: 'Send to 20 contacts' }).click();
    await page.getByRole('heading', { name: 'Spring sale' }).waitFor();
    await page.getByTestId('campaign-status').getByText('Scheduled').waitFor();

    const { scheduler, outbox } = wa.app.services;
    await scheduler.runDue(workspaceId); // dispatch: 20 messages into the outbox
    outbox.wake();
    await outbox.idle();
    await page.getByTestId('campaign-progress-text').getByText('20 of 20 sent').waitFor();
    assert.equal(await page.locator('#campaign-progress').evaluate((p: HTMLProgressElement) => p.value), 20);
    assert.equal(await page.locator('#campaign-progress').evaluate((p: HTMLProgressElement) => p.max), 20);
    await screenshot(page, 'campaign-sending');

    wa.clock.advance(1000);
    await scheduler.runDue(workspaceId); // the check that every message has left the outbox
    await page.getByTestId('campaign-status').getByText('Sent', { exact: true }).waitFor();
    assert.equal(await page.locator('td[data-count="sent"]').textContent(), '20');
    assert.equal(await page.locator('td[data-count="queued"]').textContent(), '0');
    assert.equal(await page.getByRole('button', { name: 'Cancel campaign' }).count(), 0);

    // Receipts: two read (Meta may send read without delivered), one delivered. One count on every page.
    const sentMessages = await wa.app.services.deps.db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .select(['m.provider_message_id as wamid', 'c.phone'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.campaign_id', 'is not', null)
      .orderBy('c.phone')
      .execute();
    for (const [index, status] of ['read', 'read', 'delivered'].entries()) {
      const { wamid, phone } = sentMessages[index]!;
      const body = statusWebhook({ phoneNumberId, wamid: wamid!, status, recipient: phone });
      assert.equal((await whatsapp.postWebhook(body)).status, 200);
    }
    await page.reload();
    const shown = (key: string) => page.locator(`td[data-count="${key}"]`).textContent();
    await page.locator('td[data-count="read"]', { hasText: '2' }).waitFor();
    assert.deepEqual([await shown('sent'), await shown('delivered'), await shown('read')], ['20', '3', '2']);
    await screenshot(page, 'campaign-page');

    // A scheduled one can be cancelled, after confirming.
    await page.getByRole('link', { name: 'All campaigns' }).click();
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Next week');
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await page.getByLabel('Variable {{1}}').fill('friend');
    await page.getByLabel('Variable {{2}}').fill('LATER');
    await page.getByLabel('Tag', { exact: true }).selectOption('vip');
    await page.getByLabel('Schedule').check();
    const later = new Date(wa.clock.now().getTime() + 7 * DAY);
    const local = new Date(later.getTime() - later.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Send at (your local time)').fill(local);
    await page.getByRole('button', { name: 'Review and send…' }).click();
    await page.getByRole('button', { name: 'Schedule for 20 contacts' }).click();
    await page.getByRole('heading', { name: 'Next week' }).waitFor();
    await page.getByText('Not dispatched yet.').waitFor();
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel campaign' }).click();
    await page.getByTestId('campaign-status').getByText('Cancelled').waitFor();

    await page.getByRole('link', { name: 'All campaigns' }).click();
    const springRow = page.getByRole('row', { name: /Spring sale/ });
    await springRow.getByText('Sent').waitFor();
    // Recipients, Delivered, Read, Failed: the same counts as the campaign's page.
    assert.deepEqual(await springRow.locator('td.num').allTextContents(), ['20', '3', '2', '0']);
    await page
      .getByRole('row', { name: /Next week/ })
      .getByText('Cancelled')
      .waitFor();
    await screenshot(page, 'campaigns');
  });

  test('a campaign form: the header image, a test send, a past time warned, labelled problems, the audience counted before sending', async () => {
    const { server: wa, graph } = whatsapp;
    const { owner, page } = await signedIn(wa);
    const { workspaceId } = owner;
    const { phoneNumberId } = await whatsapp.connect(workspaceId, { messagesPerSecond: 1000 });
    await insertTaggedContacts(wa, workspaceId, 2, 'spring');
    await wa.app.services.contacts.create({ workspaceId }, { phone: '+14155550999', name: 'Ada' });
    const template = await createImageHeaderTemplate(wa.app.services, workspaceId, 'Hi {{1}}!');
    await page.goto('/campaigns/new');
    await page.getByLabel('Name', { exact: true }).fill('Spring');
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await page.getByLabel('Variable {{1}}').fill('{{contact.name}}');
    await page.getByRole('button', { name: 'Review and send…' }).click();
    const problems = page.locator('form[aria-label="New campaign"] > .problem-list');
    await problems.getByText('Header image link', { exact: true }).waitFor();
    assert.doesNotMatch((await problems.textContent())!, /header_media_url|\//);

    const link = 'https://shop.example/spring.jpg';
    await page.getByLabel('Header image link').fill(link);
    await page.getByLabel('Test number').fill('+14155550999');
    await page.getByRole('button', { name: 'Send a test' }).click();
    await page.getByRole('status').getByText('Test sent to +14155550999.').waitFor();
    wa.app.services.outbox.wake();
    await wa.app.services.outbox.idle();
    const test = graph.requests.find(
      (r) => r.path.endsWith(`/${phoneNumberId}/messages`) && (r.body as { to: string }).to.endsWith('14155550999'),
    );
    // Meta's "Send template messages": the image header by link, the body filled for the number's contact.
    assert.deepEqual((test!.body as { template: { components: unknown } }).template.components, [
      { type: 'header', parameters: [{ type: 'image', image: { link } }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
    ]);

    await page.getByRole('button', { name: 'Review and send…' }).click();
    await problems.getByText('Tag', { exact: true }).waitFor();
    assert.deepEqual(await page.getByLabel('Tag', { exact: true }).locator('option').allTextContents(), [
      'Choose a tag…',
      'spring',
    ]);
    await page.getByLabel('Tag', { exact: true }).selectOption('spring');
    await page.getByLabel('Schedule').check();
    await page.getByLabel('Send at (your local time)').fill('2020-01-01T09:00');
    await page.getByRole('alert').getByText('This time has already passed').waitFor();
    await page.getByLabel('Send now').check();
    await page.getByRole('button', { name: 'Review and send…' }).click();
    await page.getByTestId('confirm-send').getByText('goes to 2 contacts now').waitFor();
    await screenshot(page, 'campaign-confirm');
    await page.getByRole('button', { name: 'Send to 2 contacts' }).click();
    await page.getByRole('heading', { name: 'Spring' }).waitFor();
    const stored = await wa.app.services.deps.db
      .selectFrom('campaigns')
      .select(['header_media_url', 'audience'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    assert.equal(stored.header_media_url, link);
    assert.deepEqual(JSON.parse(stored.audience), { tag: 'spring' });

    const narrow = await newPage(wa, { width: 375 });
    await logIn(narrow.page, owner);
    await narrow.page.goto('/campaigns/new');
    await narrow.page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await narrow.page.getByLabel('Name', { exact: true }).fill('Narrow');
    await narrow.page.getByLabel('Header image link').fill(link);
    await narrow.page.getByLabel('Variable {{1}}').fill('friend');
    await narrow.page.getByLabel('Tag', { exact: true }).selectOption('spring');
    await narrow.page.getByRole('button', { name: 'Review and send…' }).click();
    await narrow.page.getByTestId('confirm-send').waitFor();
    const width = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the campaign form fits 375 px (scroll width ${width})`);
    await screenshot(narrow.page, 'campaign-confirm-375');
  });

  test('the confirm step past the portfolio’s messaging limit: warned, and “wait” creates the campaign with over_limit wait', async () => {
    const { server: wa } = whatsapp;
    const { owner, template, page } = await signedIn(wa, { bypassCSP: true });
    const number = await whatsapp.connect(owner.workspaceId, { messagesPerSecond: 1000 });
    await insertTaggedContacts(wa, owner.workspaceId, 52, 'many');
    // Meta lowers the portfolio to its lowest tier: 50 customers per 24 hours, 2 fewer than the audience.
    const downgrade = portfolioLimitWebhook(number, { event: 'DOWNGRADE', oldLimit: 'TIER_250', limit: 'TIER_50' });
    assert.equal((await whatsapp.postWebhook(downgrade)).status, 200);

    await page.goto('/campaigns/new');
    await page.getByLabel('Name', { exact: true }).fill('Too many');
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await page.getByLabel('Variable {{1}}').fill('{{contact.name}}');
    await page.getByLabel('Variable {{2}}').fill('MANY');
    await page.getByLabel('Tag', { exact: true }).selectOption('many');
    await page.getByRole('button', { name: 'Review and send…' }).click();
    const limit = page.getByTestId('confirm-send').getByTestId('campaign-limit');
    await limit
      .getByText(
        'Messaging limit of the business portfolio: 50 customers per 24 hours; 0 reached in the last 24 hours, room for 50 more.',
      )
      .waitFor();
    await limit.getByRole('alert').getByText('2 recipients are past the room left in the messaging limit.').waitFor();
    const send = limit.getByLabel('Send to everyone now (Meta refuses the messages past the limit)');
    assert.ok(await send.isChecked(), 'sending all now is the default, as create-campaign’s');
    await limit.getByLabel('Send up to the room now, the rest as room returns').check();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('button', { name: 'Send to 52 contacts' }).click();
    await page.getByRole('heading', { name: 'Too many' }).waitFor();
    const campaignId = new URL(page.url()).pathname.split('/').pop()!;
    const campaign = await page.evaluate(async (id) => {
      const session = (await (await fetch('/api/dashboard/session')).json()) as { csrf_token: string };
      const response = await fetch('/api/v1/actions/get-campaign', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ campaign_id: id }),
      });
      return (await response.json()) as { over_limit: string };
    }, campaignId);
    assert.equal(campaign.over_limit, 'wait');
  });

  test('a marketing template sent through Meta’s Marketing Messages API says so in the thread', async () => {
    const { server: wa } = whatsapp;
    const { owner, page } = await signedIn(wa);
    const { services } = wa.app;
    const caller = { workspaceId: owner.workspaceId, userId: owner.userId };
    await whatsapp.connect(owner.workspaceId);
    await services.marketingMessages.update(caller, { enabled: true, meta_terms_accepted: true });
    const template = await createTemplate(services, owner.workspaceId, {
      name: `spring_sale_${randomInt(1e9)}`,
      category: 'MARKETING',
      translations: [{ language: 'en_US', status: 'APPROVED', body: 'Spring sale: 20% off today.' }],
    });
    const { contact } = await services.contacts.create(caller, { phone: '+14155550142', name: 'Ada' });
    await services.messages.sendTemplate(caller, { phone: contact.phone, template_id: template.id });
    services.outbox.wake();
    await services.outbox.idle();
    await page.goto(`/inbox/${contact.id}`);
    const bubble = page.locator('.bubble.outbound', { hasText: 'Spring sale: 20% off today.' });
    await bubble.getByText('Sent through Meta’s Marketing Messages API').waitFor();
  });

  test('the sequences list and the sequence editor: no serious axe findings, usable at 375 px', async () => {
    const { page } = await signedIn(server, { bypassCSP: true });
    await page.goto('/sequences');
    await page.getByRole('heading', { name: 'Sequences' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.goto('/sequences/new');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 2 action').selectOption('wait_for_reply');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.goto('/flows/new');
    await page.getByRole('button', { name: 'Add node' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    const narrow = await signedIn(server, { width: 375 });
    for (const path of ['/sequences', '/sequences/new', '/flows/new', '/campaigns/new']) {
      await narrow.page.goto(path);
      await narrow.page.getByRole('heading', { level: 1 }).waitFor();
      await narrow.page.locator('form, .table-wrap, p').first().waitFor();
      const overflow = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(overflow <= 375, `${path} fits 375 px (scroll width ${overflow})`);
    }
    await narrow.page.goto('/sequences/new');
    await narrow.page.getByRole('button', { name: 'Save sequence' }).waitFor();
    await screenshot(narrow.page, 'sequence-new-375');
  });
});
