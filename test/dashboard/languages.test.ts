import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/** The person's language, as Settings → Your account saves it (PUT /api/dashboard/account). */
async function chooseLanguage(page: import('playwright-core').Page, language: string): Promise<void> {
  await page.goto('/settings/account');
  await page.locator('#language-title').waitFor();
  await page.locator('select:near(#language-title)').first().selectOption(language);
  await page.locator('form[aria-labelledby="language-title"] button[type="submit"]').click();
  await page.waitForFunction((code) => document.documentElement.lang === code, language);
}

describe(`dashboard: the person's language (${ENGINE})`, () => {
  test('errors from the API are shown in Spanish, the field named by its Spanish label; the API itself stays English', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server);
    await logIn(page, owner);
    await chooseLanguage(page, 'es');
    await page.getByRole('heading', { name: 'Tu cuenta' }).waitFor();
    await page.getByLabel('Contraseña actual').fill('not the password at all');
    await page.getByLabel('Nueva contraseña').fill('three unrelated words here');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    // Beside its input, under the Spanish label.
    await page.getByText('no es tu contraseña actual').waitFor();
    assert.match((await page.getByLabel('Contraseña actual').getAttribute('aria-describedby')) ?? '', /./);

    const answer = await page.evaluate(async () => {
      const session = (await (await fetch('/api/dashboard/session')).json()) as { csrf_token: string };
      const response = await fetch('/api/dashboard/password', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ current_password: 'wrong wrong wrong', new_password: 'three unrelated words here' }),
      });
      return response.json() as Promise<{ errors: { message: string }[] }>;
    });
    assert.equal(answer.errors[0]?.message, 'is not your current password', 'the API answers in English');
  });

  test('in Arabic the page is right to left: the navigation sits on the right, and axe finds nothing serious', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await chooseLanguage(page, 'ar');
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    await page.getByRole('heading', { name: 'حسابك' }).waitFor();
    const nav = (await page.locator('#nav').boundingBox())!;
    const main = (await page.locator('#main').boundingBox())!;
    assert.ok(nav.x > main.x, `the navigation (x ${nav.x}) is right of the page (x ${main.x})`);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.reload();
    await page.getByRole('heading', { name: 'حسابك' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl', 'the choice is kept');
  });

  test('a teammate who chose nothing sees the dashboard in their browser’s language', async () => {
    const owner = await createOwner(server);
    const { page } = await newPage(server, { locale: 'pt-BR' });
    await logIn(page, owner);
    await page.goto('/settings/account');
    await page.getByRole('heading', { name: 'Sua conta' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
  });
});
