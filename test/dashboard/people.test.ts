import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cliJson } from '../cli.js';
import { joinedTeammate, ownerSession } from '../dashboard-session.js';
import { ENGINE, startServer } from '../server.js';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';

const server = await startServer();

describe(`dashboard: people and passwords (${ENGINE})`, () => {
  test('Team: an owner removes a member, whose open dashboard is signed out and whose token stops working', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    const issued = await member.send<{ token: string }>('POST', '/api/dashboard/tokens', { name: 'Zapier' });
    const { page: memberPage } = await newPage(server);
    await logIn(memberPage, member);

    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/team');
    const row = page.getByRole('row', { name: new RegExp(member.email) });
    await row.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('their API tokens stop working').waitFor();
    await screenshot(page, 'team-remove-member');
    await dialog.getByRole('button', { name: 'Remove member' }).click();
    await row.waitFor({ state: 'detached' });

    await memberPage.reload();
    await memberPage.getByRole('heading', { name: 'Log in' }).waitFor();
    const me = await server.http.send('GET', '/api/v1/me', { token: issued.body.token });
    assert.equal(me.status, 401);
  });

  test('Team: an owner changes a role and withdraws an invitation; a taken email is refused by its label', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/team');
    await page.getByLabel(`Role of ${member.email}`).selectOption('owner');
    await page.getByLabel(`Role of ${owner.email}`).selectOption('member');
    await page.getByRole('heading', { name: 'Invite a teammate' }).waitFor({ state: 'detached' });
    const team = await server.app.services.accounts.team(owner.workspaceId);
    assert.deepEqual(
      team.map((u) => [u.email, u.role]),
      [
        [owner.email, 'member'],
        [member.email, 'owner'],
      ],
    );

    const { page: newOwner } = await newPage(server, { bypassCSP: true });
    await logIn(newOwner, member);
    await newOwner.goto('/settings/team');
    await newOwner.getByLabel('Email').fill(owner.email);
    await newOwner.getByRole('button', { name: 'Create invite link' }).click();
    await newOwner.getByText('Email is already a member of this workspace').waitFor();

    await newOwner.getByLabel('Email').fill('later@example.com');
    await newOwner.getByRole('button', { name: 'Create invite link' }).click();
    await newOwner.getByTestId('invite-link').waitFor();
    // Invited again (the link was lost): the pending invitation is renewed, and the page says so.
    await newOwner.getByLabel('Email').fill('later@example.com');
    await newOwner.getByRole('button', { name: 'Create invite link' }).click();
    await newOwner.getByText('It replaces the earlier invitation to this email').waitFor();
    assert.equal(await newOwner.getByRole('row', { name: /later@example\.com/ }).count(), 1, 'one pending invitation');
    const link = (await newOwner.getByTestId('invite-link').textContent())!;
    const pending = newOwner.getByRole('row', { name: /later@example\.com/ });
    await pending.getByRole('button', { name: 'Revoke' }).click();
    await newOwner.getByRole('dialog').getByRole('button', { name: 'Revoke invitation' }).click();
    await newOwner.getByText('No invitation is waiting to be accepted.').waitFor();
    const token = new URL(link).pathname.split('/').pop()!;
    assert.equal((await server.http.send('GET', `/api/dashboard/invites/${token}`)).status, 404);
    assert.deepEqual(await seriousAccessibilityViolations(newOwner), [], 'team page');
  });

  test('Reset password: the CLI’s link opens a page where a new password is chosen, once', async () => {
    const owner = await ownerSession(server);
    const atServer = { ...server, env: { ...server.env, PUBLIC_BASE_URL: server.baseUrl } };
    const { link } = await cliJson<{ link: string }>(atServer, 'user', 'reset-password', '--email', owner.email);
    assert.ok(link.startsWith(`${server.baseUrl}/reset-password#`), link);
    const { hash } = new URL(link);
    const { page } = await newPage(server);
    await page.goto(`/reset-password${hash}`);
    await page.getByLabel('New password', { exact: true }).fill('too short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('New password must be at least 12 characters').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('a remembered passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the used token leaves the address bar');
    await screenshot(page, 'reset-password-done');
    await page.getByRole('link', { name: 'Log in with your new password' }).click();
    await logIn(page, { email: owner.email, password: 'a remembered passphrase' });

    const { page: again } = await newPage(server);
    await again.goto(`/reset-password${hash}`);
    await again.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByText('This reset link is not valid any more').waitFor();
  });

  test('Your account: an owner set up without a name sets one; the top bar and the team list show it', async () => {
    const owner = await ownerSession(server);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/account');
    const form = page.getByRole('form', { name: 'Your name' });
    assert.equal(await form.getByLabel('Your name').inputValue(), '', 'the email is no name');
    await form.getByLabel('Your name').fill('   ');
    await form.getByRole('button', { name: 'Save name' }).click();
    await form.getByText('Your name is required').waitFor();
    await form.getByLabel('Your name').fill('Carla Owner');
    await form.getByRole('button', { name: 'Save name' }).click();
    await form.getByText('Name saved.').waitFor();
    await page.getByText(`Carla Owner (${owner.email})`).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'account page');
    await page.goto('/settings/team');
    await page.getByRole('row', { name: new RegExp(`Carla Owner.*${owner.email}`) }).waitFor();
    const team = await server.app.services.accounts.team(owner.workspaceId);
    assert.deepEqual(
      team.map((u) => u.name),
      ['Carla Owner'],
    );
  });

  test('Your account: a user changes their password; a wrong current one is named by its label', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, member);
    await page.goto('/settings/account');
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Current password is not your current password').waitFor();
    await page.getByLabel('Current password').fill(member.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    await screenshot(page, 'settings-account');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'account page');
    const login = await server.http.send('POST', '/api/dashboard/login', {
      body: { email: member.email, password: 'a brand new passphrase' },
    });
    assert.equal(login.status, 200);
  });
});
