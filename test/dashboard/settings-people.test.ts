import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner, logIn, newPage } from '../browser.js';
import { createTemplate } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/** How far the page scrolls sideways (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe(`dashboard: settings for people (${ENGINE})`, () => {
  test('API Tokens: only the copied token says "Copied"; at 375 px the page and the tabs fit the screen', async () => {
    const owner = await createOwner(server);
    const { page, context } = await newPage(server, { width: 375, height: 740 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await logIn(page, owner);
    await page.goto('/settings/tokens');
    const issue = async (name: string) => {
      await page.getByLabel('Token name').fill(name);
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByRole('status').getByText(`${name}: copy the token now`).waitFor();
    };
    await issue('Zapier');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.getByTestId('new-token').textContent());
    await issue('Make');
    assert.equal(await page.getByRole('button', { name: 'Copied' }).count(), 0, 'the new token was never copied');
    await page.getByRole('button', { name: 'Copy', exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/people-tokens-375.png', fullPage: true });
    assert.ok((await overflow(page)) <= 0, `the tokens page fits 375 px (${await overflow(page)} px too wide)`);
    for (const tab of await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').all()) {
      const box = (await tab.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 375, `${await tab.textContent()} is on screen`);
    }
  });

  test('Workspace: time zones are listed by their current names (Asia/Kolkata)', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/workspace');
    const zone = page.getByLabel('Time zone');
    await zone.locator('option[value="Asia/Kolkata"]').waitFor({ state: 'attached' });
    const names = await zone.locator('option').allTextContents();
    assert.ok(names.includes('Asia/Kolkata') && names.includes('Europe/Kyiv'), 'current names');
    assert.ok(!names.includes('Asia/Calcutta'), 'not the old name');
    await zone.selectOption('Asia/Kolkata');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    const workspace = await server.app.services.workspaces.get(owner.workspaceId);
    assert.equal(workspace.time_zone, 'Asia/Kolkata');
  });

  test('Your account: sign out of other sessions, a link to the API reference, and dark mode from the system', async () => {
    const owner = await createOwner(server);
    const { page: elsewhere } = await newPage(server);
    await logIn(elsewhere, owner);
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/account');
    await page.getByRole('button', { name: 'Sign out of other sessions' }).click();
    await page.getByRole('status').getByText('Signed out of 1 other session.').waitFor();
    await elsewhere.reload();
    await elsewhere.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    const reference = page.getByRole('link', { name: 'API reference' });
    const href = (await reference.getAttribute('href')) ?? 'no link';
    const status = await page.evaluate(async (url) => (await fetch(url)).status, href);
    assert.equal(status, 200, 'the API reference is served');

    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await background(), 'rgb(246, 247, 249)');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await background(), 'rgb(18, 21, 25)');
    await page.screenshot({ path: '/tmp/people-account-dark.png', fullPage: true });
  });

  test('Templates: a template is deleted from its page, after a confirmation', async () => {
    const owner = await createOwner(server);
    const template = await createTemplate(server.app.services, owner.workspaceId, { name: 'old_offer' });
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/templates/${template.id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Delete old_offer in every language').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete template' }).click();
    await page.getByRole('heading', { name: 'Templates' }).waitFor();
    const left = await server.app.services.templates.list({ workspaceId: owner.workspaceId }, {});
    assert.deepEqual(left, []);
  });
});
