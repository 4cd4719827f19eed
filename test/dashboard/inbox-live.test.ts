import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner, logIn, newPage } from '../browser.js';
import { cliJson } from '../cli.js';
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
});
