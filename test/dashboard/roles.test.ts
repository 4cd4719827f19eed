import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, ownerSession } from '../dashboard-session.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/** The labels of the main navigation's links. */
const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();

async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], `${what} is accessible`);
}

describe(`dashboard: roles (${ENGINE})`, () => {
  test('Roles: a marketer sees no Inbox and is told so on opening it; an agent sees no Campaigns', async () => {
    const owner = await ownerSession(server);
    const marketer = await joinedTeammate(server, owner, 'marketer');
    const agent = await joinedTeammate(server, owner, 'agent');

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, marketer);
    await page.waitForURL('**/contacts');
    const marketers = await sections(page);
    assert.ok(!marketers.some((label) => label.startsWith('Inbox')), marketers.join());
    assert.ok(marketers.includes('Campaigns') && !marketers.includes('Simulator'), marketers.join());
    await page.goto('/inbox');
    await page.getByText('Your role (marketer) does not include the inbox; ask an owner or admin.').waitFor();
    await assertAccessible(page, 'the page a role does not include');
    await screenshot(page, 'roles-marketer-inbox');
    await page.goto('/settings/tokens');
    const tabs = await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').allTextContents();
    assert.ok(!tabs.includes('Quick replies'), tabs.join());

    const { page: agentPage } = await newPage(server, { bypassCSP: true });
    await logIn(agentPage, agent);
    await agentPage.waitForURL('**/inbox');
    const agents = await sections(agentPage);
    assert.ok(
      agents.some((label) => label.startsWith('Inbox')),
      agents.join(),
    );
    for (const hidden of ['Campaigns', 'Sequences', 'Flows', 'Reports']) {
      assert.ok(!agents.includes(hidden), `${hidden} is hidden from an agent: ${agents.join()}`);
    }
    await assertAccessible(agentPage, 'an agent’s inbox');
    await agentPage.goto('/campaigns/new');
    await agentPage.getByText('Your role (agent) does not include campaigns; ask an owner or admin.').waitFor();
    await agentPage.goto('/templates');
    await agentPage.getByRole('heading', { name: 'Templates' }).waitFor();
    assert.equal(
      await agentPage.getByRole('link', { name: 'New template' }).count(),
      0,
      'an agent reads templates only',
    );
    await agentPage.goto('/templates/new');
    await agentPage.getByText('Your role (agent) does not include writing templates; ask an owner or admin.').waitFor();
  });

  test('Team: an owner may give any role, an admin any but owner, each role explained in a line', async () => {
    const owner = await ownerSession(server);
    const admin = await joinedTeammate(server, owner, 'admin');
    const agent = await joinedTeammate(server, owner, 'agent');

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/team');
    await page.getByLabel(`Role of ${admin.email}`).waitFor();
    const offered = await page.getByLabel('Role', { exact: true }).locator('option').allTextContents();
    assert.deepEqual(offered, ['Owner', 'Admin', 'Member', 'Agent', 'Marketer']);
    await page.getByText('The inbox and contacts: answers customers').waitFor();
    await assertAccessible(page, 'Settings → Team');
    await screenshot(page, 'roles-team-owner');

    const { page: adminPage } = await newPage(server, { bypassCSP: true });
    await logIn(adminPage, admin);
    await adminPage.goto('/settings/team');
    const agentRole = adminPage.getByLabel(`Role of ${agent.email}`);
    await agentRole.waitFor();
    assert.deepEqual(await agentRole.locator('option').allTextContents(), ['Admin', 'Member', 'Agent', 'Marketer']);
    assert.equal(await adminPage.getByLabel(`Role of ${owner.email}`).count(), 0, 'an admin cannot change an owner');
    const ownerRow = adminPage.getByRole('row', { name: new RegExp(owner.email) });
    assert.equal(await ownerRow.getByRole('button', { name: 'Remove' }).count(), 0);
    const [changed] = await Promise.all([
      adminPage.waitForResponse((r) => r.url().endsWith(`/api/dashboard/team/${agent.userId}`)),
      agentRole.selectOption('marketer'),
    ]);
    assert.equal(changed.status(), 200);
    const team = await owner.send<{ id: string; role: string }[]>('GET', '/api/dashboard/team');
    assert.equal(team.body.find((member) => member.id === agent.userId)?.role, 'marketer');
    assert.equal(await agentRole.inputValue(), 'marketer');
  });
});
