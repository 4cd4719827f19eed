import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner, logIn, newPage, screenshot } from '../browser.js';
import { cliJson } from '../cli.js';
import { asClient, createTemplate, type TestWorkspace } from '../factories.js';
import { ENGINE, startServer } from '../server.js';
import { listShows } from './inbox-world.js';

const server = await startServer({}, { outbox: true });

/** The customer writes through `parley simulate inbound`: another process on the same database. */
const simulateInbound = (workspaceId: string, from: string, text: string) =>
  cliJson(server, 'simulate', 'inbound', '--workspace', workspaceId, '--from', from, '--text', text);

/** A workspace sending through the simulator, its owner logged in on a page. */
async function simulatorOwner(page: Page, name: string) {
  const owner = await createOwner(server, name);
  await cliJson(server, 'channel', 'set', '--workspace', owner.workspaceId, '--provider', 'simulator');
  await logIn(page, owner);
  return owner;
}

const conversation = (page: Page, name: string | RegExp) =>
  page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name });

/** A workspace owner who can log in, and an API token of theirs. */
async function ownerWithToken(name: string) {
  const owner = await createOwner(server, name);
  const issued = await server.app.services.tokens.create({
    workspaceId: owner.workspaceId,
    userId: owner.userId,
    name: 'test',
    scope: 'full',
  });
  const api = asClient(server.http, { ...owner, token: issued.token, tokenId: issued.id });
  return { ...owner, api };
}

/** POST an action that must succeed; its answer. */
async function act<T>(api: TestWorkspace, name: string, body: object): Promise<T> {
  const response = await api.action<T>(name, body);
  assert.ok(response.status === 200 || response.status === 201, `${name}: ${response.text}`);
  return response.body;
}

/** The customer writes through the simulator (REST), as the simulator page does. */
const customerWrites = (api: TestWorkspace, from: string, text: string) =>
  act<{ contact_id: string }>(api, 'simulate-inbound-message', { phone: from, text });

describe(`dashboard: live inbox (${ENGINE})`, () => {
  test('a message another process stores (the CLI) reaches the open inbox and the open thread', async () => {
    const { page } = await newPage(server);
    const owner = await simulatorOwner(page, 'Live Across Processes');
    await page.getByText('No open conversations').waitFor();

    await simulateInbound(owner.workspaceId, '+14155550101', 'Hello from another process');
    const row = conversation(page, /\+14155550101/);
    await row.getByText('Hello from another process').waitFor();

    await row.click();
    const messages = page.getByRole('list', { name: 'Messages' });
    await messages.getByText('Hello from another process').waitFor();
    await simulateInbound(owner.workspaceId, '+14155550101', 'And a second one');
    await messages.getByText('And a second one').waitFor();
    assert.equal(await messages.getByText('Hello from another process').count(), 1);
  });

  test('a campaign’s sends stay out of Open: the customer who wrote stays on top; search still finds the rest', async () => {
    const { api, ...owner } = await ownerWithToken('Campaign Bakery');
    await customerWrites(api, '+14155550150', 'Is the shop open on Sunday?');
    for (let i = 0; i < 12; i++) {
      await act(api, 'create-contact', {
        phone: `+14155550${300 + i}`,
        name: `Subscriber ${i}`,
        tags: ['spring'],
      });
    }
    const template = await createTemplate(server.app.services, owner.workspaceId);
    const campaign = await act<{ id: string }>(api, 'create-campaign', {
      name: 'Spring',
      template_id: template.id,
      variables: ['{{contact.name}}', 'SPRING'],
      audience: { tag: 'spring' },
    });
    await server.app.services.scheduler.runDue(owner.workspaceId);
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();
    const sent = await act<{ counts: { sent: number } }>(api, 'get-campaign', { campaign_id: campaign.id });
    assert.equal(sent.counts.sent, 12);

    const { page } = await newPage(server);
    await logIn(page, owner);
    await listShows(page, ['+14155550150']);

    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('Subscriber 7');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await listShows(page, ['Subscriber 7']);

    // A subscriber who answers joins Open, on top.
    await customerWrites(api, '+14155550303', 'Stop sending me these');
    await page.goto('/inbox');
    await listShows(page, ['Subscriber 3', '+14155550150']);
  });

  test('filters, search by message text, the unread count in the title and navigation, and keyboard shortcuts (/ in a thread: the reply box)', async () => {
    const { api, ...owner } = await ownerWithToken('Filter Bakery');
    await customerWrites(api, '+14155550401', 'Where is my order 4711?');
    const { contact_id: mine } = await customerWrites(api, '+14155550402', 'Do you deliver on Mondays?');
    const { page } = await newPage(server);
    await logIn(page, owner);
    await conversation(page, /\+14155550401/).waitFor();
    await page.getByRole('link', { name: /Inbox\s*2 unread/ }).waitFor();
    // The title takes the count in an effect after the render that shows it in the navigation.
    await page.waitForFunction(() => document.title === '(2) Inbox · Parley');
    await screenshot(page, 'inbox-list');

    await page.goto(`/inbox/${mine}`);
    await page.getByLabel('Assigned to').selectOption(owner.userId);
    // Reading one conversation lowers the count, live.
    await page.getByRole('link', { name: /Inbox\s*1 unread/ }).waitFor();

    await page.getByRole('link', { name: /Inbox/ }).first().click();
    const filters = page.getByRole('navigation', { name: 'Conversations to show' });
    await filters.getByRole('link', { name: 'Assigned to me' }).click();
    await listShows(page, ['+14155550402']);
    await filters.getByRole('link', { name: 'Unassigned' }).click();
    await listShows(page, ['+14155550401']);
    await filters.getByRole('link', { name: 'Unread' }).click();
    await listShows(page, ['+14155550401']);
    await filters.getByRole('link', { name: 'Open' }).click();
    await page.keyboard.press('/');
    await page.keyboard.type('mondays');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=mondays/);
    await listShows(page, ['+14155550402']);

    // j and k move between conversations; ? lists the shortcuts; r goes to the reply box.
    await page.goto('/inbox');
    await conversation(page, /\+14155550401/).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/inbox\/[0-9a-f-]{36}$/);
    const first = page.url();
    // Opened to answer: the reply box has the focus until Escape gives the keys back.
    await page.waitForFunction(() => document.activeElement?.id === 'reply-text');
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await page.waitForURL((url) => url.href !== first);
    await page.keyboard.press('k');
    await page.waitForURL(first);
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await help.waitFor({ state: 'hidden' });
    await page.keyboard.press('r');
    await page.waitForFunction(() => document.activeElement?.id === 'reply-text');
    // In a thread `/` goes to the reply box too (a thread has no search box), and types no slash.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.activeElement?.id !== 'reply-text');
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.id === 'reply-text');
    assert.equal(await page.locator('#reply-text').inputValue(), '');

    // Done with the first: on to the next.
    await page.getByRole('button', { name: 'Mark done' }).click();
    await page.waitForURL((url) => url.href !== first && /\/inbox\/[0-9a-f-]{36}$/.test(url.pathname));
  });

  test('at 375 px a long name ends in … on one line, and the filters and search fit', async () => {
    const { api, ...owner } = await ownerWithToken('Narrow Bakery');
    await act(api, 'create-contact', { phone: '+14155550501', name: 'Maximiliane Wolkenstein-Oberhausen' });
    await customerWrites(api, '+14155550501', 'Hi there');
    const { page } = await newPage(server, { width: 375, height: 740 });
    await logIn(page, owner);
    const name = page.locator('.conversation-name', { hasText: 'Maximiliane' });
    await name.waitFor();
    await page.getByRole('button', { name: /Menu\s*1 unread/ }).waitFor();
    const lineHeight = await name.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    assert.ok((await name.boundingBox())!.height < lineHeight * 1.5, 'the name stays on one line');
    assert.ok(await name.evaluate((el) => el.scrollWidth > el.clientWidth), 'the name is cut with an ellipsis');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0, 'nothing scrolls sideways');
    await screenshot(page, 'inbox-list-375');
  });
});
