import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ownerApi } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();
const { services } = server.app;

describe(`dashboard: conversation tools (${ENGINE})`, () => {
  test('a label set in the thread shows in the list; every conversation matching a filter closes at once', async () => {
    const owner = await createOwner(server, 'Florist');
    const api = await ownerApi(server, owner);
    const created = await server.http.send('POST', '/api/v1/conversation-labels', {
      token: api.token,
      body: { name: 'Campaign reply', colour: '#b91c1c' },
    });
    assert.equal(created.status, 201, created.text);
    const phones = Array.from({ length: 3 }, () => `+1415${randomInt(2_000_000, 9_999_999)}`);
    for (const from of phones) {
      await services.inbound.simulateInbound({ workspaceId: owner.workspaceId }, { from, text: 'Yes please!' });
    }

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link', { name: new RegExp(phones[0]!.replace('+', '\\+')) }).click();
    await page.getByRole('checkbox', { name: 'Campaign reply' }).click();
    await page.locator('.thread-back .label-badge', { hasText: 'Campaign reply' }).waitFor();
    await page.getByLabel('Priority', { exact: true }).selectOption('urgent');
    await page.locator('.thread-back', { hasText: 'Urgent priority' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.getByRole('link', { name: '← Inbox' }).click();
    await list.locator('.label-badge', { hasText: 'Campaign reply' }).waitFor();
    await page.getByRole('checkbox', { name: `Select ${phones[1]}` }).check();
    await page.getByRole('button', { name: 'Select all conversations matching this filter' }).click();
    await page.getByRole('region', { name: 'Bulk actions' }).getByText('All matching').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByText('Closed 3 of 3 conversations.').waitFor();
    await page.getByText('No open conversations').waitFor();

    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByLabel('Label', { exact: true }).selectOption({ label: 'Campaign reply' });
    // The Done list showed all three until the filter's answer replaces it.
    await list.getByRole('link').nth(1).waitFor({ state: 'detached' });
    await list.getByRole('link').first().waitFor();
    assert.equal(await list.getByRole('link').count(), 1);
  });
  test('bulk assign refuses a person outside a ticked conversation’s team, in words', async () => {
    const owner = await createOwner(server, 'Bakery');
    const api = await ownerApi(server, owner);
    const team = await api.action<{ id: string }>('create-team', { name: 'Sales' });
    assert.equal(team.status, 200, team.text);
    const from = `+1415${randomInt(2_000_000, 9_999_999)}`;
    const message = await services.inbound.simulateInbound({ workspaceId: owner.workspaceId }, { from, text: 'Hi' });
    const put = await server.http.send('PUT', `/api/v1/conversations/${message.contact_id}/assignment`, {
      token: api.token,
      body: { team_id: team.body.id, assignee_id: null },
    });
    assert.equal(put.status, 200, put.text);

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.getByRole('checkbox', { name: `Select ${from}` }).check();
    await page.getByLabel('Assign to').selectOption({ value: owner.userId });
    await page
      .getByRole('alert')
      .getByText('The person chosen is not a member of the team Sales, which some of these conversations are in')
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });
});
