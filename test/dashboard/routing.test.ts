import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();
const { routing, inbound } = server.app.services;

describe(`dashboard: routing (${ENGINE})`, () => {
  test('Settings → Routing: a team with its member, automatic assignment and a keyword rule route a new conversation', async () => {
    const owner = await createOwner(server);
    const caller = { workspaceId: owner.workspaceId, userId: owner.userId };
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/routing');
    await page.getByRole('heading', { name: 'Routing', level: 1 }).waitFor();

    await page.getByLabel('Team name').fill('Support');
    await page.getByRole('button', { name: 'Add team' }).click();
    const team = page.getByRole('region', { name: 'Support' });
    await team.getByRole('checkbox').check();
    await team.getByRole('button', { name: 'Save members of Support' }).click();
    await page.getByRole('button', { name: 'Add a rule' }).waitFor();
    await waitFor(async () => (await routing.list(caller))[0]?.members.length === 1);

    await page.getByLabel('Assign conversations automatically').check();
    await page.getByLabel('Open conversations per person').fill('2');
    await page.getByRole('button', { name: 'Save assignment' }).click();
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Words').fill('refund');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await waitFor(async () => (await routing.settings(caller)).rules.length === 1);
    const [saved] = await routing.list(caller);
    assert.deepEqual(await routing.settings(caller), {
      auto_assign: true,
      agent_limit: 2,
      rules: [{ kind: 'keyword', value: 'refund', team_id: saved!.id }],
    });
    await page.reload();
    await page.getByLabel('Words').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'settings-routing');

    // A customer asks for a refund: the conversation is Support's and the owner's (the one available member).
    await inbound.simulateInbound(caller, { from: '+4915112349001', text: 'A refund, please' });
    await page.goto('/inbox?filter=my_teams');
    const row = page.getByRole('link', { name: /\+4915112349001/ });
    await row.getByText('Support').waitFor();
    await row.getByText(/Assigned to/).waitFor();
    await row.click();
    assert.equal(await page.getByLabel('Team').inputValue(), saved!.id);
    assert.equal(await page.getByLabel('Assigned to').inputValue(), owner.userId);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('the header’s Available switch sets the person away and back, and stays as set after a reload', async () => {
    const owner = await createOwner(server);
    const caller = { workspaceId: owner.workspaceId, userId: owner.userId };
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    const available = page.getByRole('switch', { name: 'Available' });
    await available.waitFor();
    assert.equal(await available.isChecked(), true);
    await available.uncheck();
    await waitFor(async () => !(await routing.availability(caller)).available);
    await page.reload();
    await page.getByRole('switch', { name: 'Available' }).waitFor();
    assert.equal(await page.getByRole('switch', { name: 'Available' }).isChecked(), false);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('switch', { name: 'Available' }).check();
    await waitFor(async () => (await routing.availability(caller)).available);
  });
});

/** Waits until the server's state shows what the page saved (no fixed delays). */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}
