import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner, logIn, newPage } from '../browser.js';
import { cliJson } from '../cli.js';
import { asClient, createTemplate, type TestWorkspace } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

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
const conversationNames = (page: Page) =>
  page.getByRole('list', { name: 'Conversations' }).locator('.conversation-name').allTextContents();

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
    await conversation(page, /\+14155550150/).waitFor();
    assert.deepEqual(await conversationNames(page), ['+14155550150']);

    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('Subscriber 7');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await conversation(page, /Subscriber 7/).waitFor();
    assert.deepEqual(await conversationNames(page), ['Subscriber 7']);

    // A subscriber who answers joins Open, on top.
    await customerWrites(api, '+14155550303', 'Stop sending me these');
    await page.goto('/inbox');
    await conversation(page, /Subscriber 3/).waitFor();
    assert.deepEqual(await conversationNames(page), ['Subscriber 3', '+14155550150']);
  });
});
