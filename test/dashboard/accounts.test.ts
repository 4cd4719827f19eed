import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../cli.js';
import { ENGINE, startServer } from '../server.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';

const server = await startServer();

describe(`dashboard: accounts and API tokens (${ENGINE})`, () => {
  test('first run: the first visitor sets up the workspace and is logged in', async () => {
    const fresh = await startServer();
    const { page } = await newPage(fresh);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Set up your workspace' }).waitFor();
    await screenshot(page, 'setup');
    await page.getByLabel('Workspace name').fill('Bakery Nord');
    await page.getByLabel('Your name').fill('Ada Nord');
    await page.getByLabel('Your email').fill('ada@bakery.example');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const tooShort = await page.getByLabel('Password').evaluate((input: HTMLInputElement) => input.validity.tooShort);
    assert.ok(tooShort, 'the browser itself asks for 12 characters');
    await page.getByLabel('Password').fill('Password1234!');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('Password is too common or predictable; try a few unrelated words').waitFor();
    await screenshot(page, 'setup-password-refused');
    await page.getByLabel('Password').fill('a long enough secret');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('Bakery Nord').waitFor();
    // The owner has a name from the start: the top bar and the team list show it.
    await page.getByText('Ada Nord (ada@bakery.example)').waitFor();
    await page.goto('/settings/team');
    await page.getByRole('row', { name: /Ada Nord.*ada@bakery\.example/ }).waitFor();
    const again = await fresh.http.send('POST', '/api/dashboard/setup', {
      body: { workspace: 'Second', email: 'eve@example.com', password: 'another secret' },
    });
    assert.equal(again.status, 409, 'set-up is for the first user only');
  });

  test('log in: a wrong password is refused, and after repeated failures the email is locked', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server);
    await page.goto('/');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').getByText('The email or password is wrong').waitFor();
    await screenshot(page, 'login-failed');

    const attempt = (password: string) =>
      server.http.send('POST', '/api/dashboard/login', { body: { email: owner.email, password } });
    for (let i = 0; i < 4; i++) assert.equal((await attempt('wrong')).status, 401);
    const locked = await attempt(owner.password);
    assert.equal(locked.status, 429, 'even the right password waits out the lock');
    assert.equal((locked.body as { code: string }).code, 'login_locked');
    assert.ok(Number(locked.headers['retry-after']) > 0);
    server.clock.advance(61_000);
    assert.equal((await attempt(owner.password)).status, 200, 'the lock lifts');
  });

  test('the navigation’s footer shows the release, as the session endpoint gives it from package.json', async () => {
    const owner = await createOwner(server, 'Version Shop');
    const { page } = await newPage(server);
    await logIn(page, owner);
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const footer = page.getByRole('navigation', { name: 'Sections' }).getByText(/^Parley /);
    assert.equal(await footer.textContent(), `Parley ${version}`);
    const session = await page.evaluate(async () => {
      const answer = (await (await fetch('/api/dashboard/session')).json()) as { version: string };
      return answer.version;
    });
    assert.equal(session, version);
  });

  test('a token created in Settings works in the API until it is revoked there', async () => {
    const owner = await createOwner(server, 'Token Shop');
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'API Tokens' }).waitFor();
    await page.getByLabel('Token name').fill('Zapier');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').textContent())!;
    assert.match(token, /^parley_/);
    await screenshot(page, 'settings-tokens');

    const me = await server.http.send('GET', '/api/v1/me', { token });
    assert.equal(me.status, 200, me.text);
    assert.equal((me.body as { workspace: { name: string } }).workspace.name, 'Token Shop');

    await page.reload();
    const row = page.getByRole('row', { name: /Zapier/ });
    await row.getByText(owner.email).waitFor(); // creator
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await row.getByText('Revoked').waitFor();
    assert.equal((await server.http.send('GET', '/api/v1/me', { token })).status, 401);
  });

  test('a session changes nothing without its CSRF token; logging out ends it', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server);
    await logIn(page, owner);
    const forged = await page.evaluate(async () => {
      const response = await fetch('/api/v1/actions/create-contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone: '+14155550100' }),
      });
      return { status: response.status, body: (await response.json()) as { code: string } };
    });
    assert.deepEqual([forged.status, forged.body.code], [403, 'csrf_token_invalid']);
    const contacts = await server.app.services.deps.db
      .selectFrom('contacts')
      .select('id')
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
    assert.equal(contacts.length, 0);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    const after = await page.evaluate(async () => (await fetch('/api/dashboard/tokens')).status);
    assert.equal(after, 401);
  });

  test('an owner invites a teammate, who joins with their own password as a member', async () => {
    const owner = await createOwner(server, 'Team Shop');
    const { page } = await newPage(server);
    await logIn(page, owner);
    const csrf = await page.evaluate(async () => {
      const session = (await (await fetch('/api/dashboard/session')).json()) as { csrf_token: string };
      return session.csrf_token;
    });
    const invite = await page.evaluate(async (token) => {
      const response = await fetch('/api/dashboard/invites', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ email: 'bo@teamshop.example', role: 'member' }),
      });
      return (await response.json()) as { token: string };
    }, csrf);
    const { page: teammate } = await newPage(server);
    await teammate.goto(`/invite/${invite.token}`);
    await teammate.getByRole('heading', { name: 'Join Team Shop' }).waitFor();
    await teammate.getByLabel('Your name').fill('Bo');
    await teammate.getByLabel('Choose a password').fill('bo has a password');
    await teammate.getByRole('button', { name: 'Join workspace' }).click();
    await teammate.getByRole('button', { name: 'Log out' }).waitFor();
    await teammate.getByText('bo@teamshop.example').waitFor();
    const team = await server.app.services.accounts.team(owner.workspaceId);
    assert.deepEqual(
      team.map((u) => [u.email, u.role]),
      [
        [owner.email, 'owner'],
        ['bo@teamshop.example', 'member'],
      ],
    );
    await teammate.goto(`/invite/${invite.token}`);
    const reused = await server.http.send('GET', `/api/dashboard/invites/${invite.token}`);
    assert.equal(reused.status, 409, 'an invitation is used once');
  });

  test('accessible and responsive: no serious axe findings; usable at 375 px', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server, { bypassCSP: true });
    await page.goto('/');
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'log-in page');
    await logIn(page, owner);
    await page.goto('/settings/tokens');
    await page.getByRole('heading', { name: 'API Tokens' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'tokens page');

    const { page: phone } = await newPage(server, { width: 375, height: 740 });
    await logIn(phone, owner);
    await phone.goto('/settings/tokens');
    await phone.getByRole('heading', { name: 'API Tokens' }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at 375 px (${overflow} px too wide)`);
    await phone.getByRole('button', { name: 'Menu' }).click();
    await phone.getByRole('link', { name: 'Contacts' }).waitFor();
    await screenshot(phone, 'phone-menu');
  });
});
