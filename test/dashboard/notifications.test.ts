import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, ownerSession, type DashboardSession } from '../dashboard-session.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/** A named customer who wrote in on the workspace's simulator; their contact id. */
async function customer(owner: DashboardSession, phone: string, name: string): Promise<string> {
  const created = await owner.send('POST', '/api/v1/actions/create-contact', { phone, name });
  assert.ok(created.status === 200 || created.status === 201, created.text);
  const body = { phone, text: 'Where is my order?' };
  const wrote = await owner.send<{ contact_id: string }>('POST', '/api/v1/actions/simulate-inbound-message', body);
  assert.equal(wrote.status, 200, wrote.text);
  return wrote.body.contact_id;
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

describe(`dashboard: notifications (${ENGINE})`, () => {
  test('a note’s @ offers teammates; the mentioned teammate’s bell counts it live, lists it and marks it read (axe clean)', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const contactId = await customer(owner, '+14155550181', 'Carlos Okafor');
    const other = await customer(owner, '+14155550182', 'Dana Reyes');

    const { page: matePage } = await newPage(server, { bypassCSP: true });
    await logIn(matePage, mate);
    await bell(matePage).waitFor();
    assert.equal((await bell(matePage).textContent())?.trim(), 'Notifications');

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${contactId}`);
    await page.getByRole('button', { name: 'Private note' }).click();
    const box = page.getByLabel('Private note');
    await box.pressSequentially('Please call them back @ma');
    const menu = page.getByRole('listbox', { name: 'Teammates to mention' });
    await menu.getByRole('option', { name: /@Mate/ }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await box.press('Enter');
    assert.equal(await box.inputValue(), 'Please call them back @Mate ');
    assert.equal(await menu.count(), 0);
    await box.pressSequentially('today');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Please call them back @Mate today').waitFor();

    // Live: the mate's bell counts the mention without a reload.
    await bell(matePage).filter({ hasText: '1 unread' }).waitFor();
    await bell(matePage).click();
    const panel = matePage.getByRole('region', { name: 'Notifications' });
    const mention = panel.getByRole('link', { name: /mentioned you.*\(unread\).*Carlos Okafor/ });
    await mention.waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(matePage), []);
    await screenshot(matePage, 'notifications-panel');
    await panel.getByRole('button', { name: 'Mark read' }).click();
    await panel.getByRole('link', { name: /mentioned you In a note on the conversation with Carlos Okafor/ }).waitFor();
    await bell(matePage).filter({ hasNotText: 'unread' }).waitFor();

    // Two more (an assignment and another mention), then all read at once; an item opens its conversation.
    await owner.send('PUT', `/api/v1/conversations/${other}/assignment`, { team_id: null, assignee_id: mate.userId });
    await owner.send('POST', `/api/dashboard/conversations/${contactId}/notes`, { body: '@mate thanks' });
    await bell(matePage).filter({ hasText: '2 unread' }).waitFor();
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await bell(matePage).filter({ hasNotText: 'unread' }).waitFor();
    await panel.getByRole('link', { name: /assigned you a conversation.*Dana Reyes/ }).click();
    await matePage.waitForURL(`**/inbox/${other}`);
    assert.equal(await panel.count(), 0);
    await bell(matePage).click();
    await panel.waitFor();
    await matePage.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  test('desktop › once allowed, a new notification shows on the desktop naming the customer, never the message', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const contactId = await customer(owner, '+14155550183', 'Erin Park');
    const { page, context } = await newPage(server);
    await context.grantPermissions(['notifications'], { origin: server.baseUrl });
    // The real Notification API, with what it was asked to show written down for the test to read.
    await page.addInitScript(() => {
      const shown: { title: string; body: string }[] = [];
      const Real = window.Notification;
      Object.assign(window, { shown });
      window.Notification = class extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push({ title, body: options?.body ?? '' });
        }
      };
    });
    await logIn(page, mate);
    await page.getByRole('checkbox', { name: 'Notifications' }).check();
    await bell(page).waitFor();

    await owner.send('PUT', `/api/v1/conversations/${contactId}/assignment`, {
      team_id: null,
      assignee_id: mate.userId,
    });
    await bell(page).filter({ hasText: '1 unread' }).waitFor();
    const shown = await page.waitForFunction(() => (window as unknown as { shown: unknown[] }).shown[0]);
    const notice = (await shown.jsonValue()) as { title: string; body: string };
    assert.match(notice.title, /assigned you a conversation/);
    assert.equal(notice.body, 'The conversation with Erin Park');
  });

  test('Settings → Your account: notification choices are saved per person (email off without SMTP)', async () => {
    const owner = await ownerSession(server);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/account');
    const newConversations = page.getByLabel(
      'A customer starts a conversation (mine, or unassigned in my teams or in none): in Parley',
    );
    await newConversations.check();
    assert.equal(await page.getByLabel('Someone mentions me in a note: by email').isDisabled(), true);
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    await page.getByText('Notification settings saved.').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.reload();
    await newConversations.waitFor();
    assert.equal(await newConversations.isChecked(), true);
  });
});
