import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, ownerSession } from '../dashboard-session.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/** The labels of the main navigation's links, found by the navigation's name in the page's language. */
const sections = (page: Page, name: string) =>
  page.getByRole('navigation', { name, exact: true }).getByRole('link').allTextContents();

async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await seriousAccessibilityViolations(page), [], `${what} is accessible`);
}

describe(`dashboard: the shell and Settings in a person's language (${ENGINE})`, () => {
  test('a person picks Português: navigation and Settings follow, a reload keeps it, a teammate still reads English', async () => {
    const owner = await ownerSession(server);
    const teammate = await joinedTeammate(server, owner, 'admin');

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/account');
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Português (Brasil)' });
    await page.getByRole('button', { name: 'Save language' }).click();

    await page.getByRole('heading', { name: 'Sua conta', level: 1 }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
    const navigation = await sections(page, 'Seções');
    for (const label of ['Contatos', 'Modelos', 'Campanhas', 'Relatórios', 'Configurações']) {
      assert.ok(navigation.includes(label), `${label} in ${navigation.join()}`);
    }
    assert.ok(
      navigation.some((label) => label.startsWith('Caixa de entrada')),
      navigation.join(),
    );
    await page.getByRole('button', { name: 'Sair', exact: true }).waitFor();
    const tabs = await page.getByRole('navigation', { name: 'Configurações' }).getByRole('link').allTextContents();
    assert.ok(tabs.includes('Tokens de API') && tabs.includes('Equipe') && tabs.includes('Sua conta'), tabs.join());
    await assertAccessible(page, 'Settings → Your account in Portuguese');

    // Settings → Team: its words, the role names and their descriptions, and a date as Brazil writes it.
    await page.getByRole('link', { name: 'Equipe' }).click();
    await page.getByRole('heading', { name: 'Equipe', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Convidar um colega' }).waitFor();
    await page.getByText('A caixa de entrada e os contatos: atende os clientes').waitFor();
    const offered = await page.getByLabel('Função', { exact: true }).locator('option').allTextContents();
    assert.deepEqual(offered, ['Proprietário', 'Administrador', 'Membro', 'Atendente', 'Marketing']);
    const joined = page.getByRole('row').filter({ hasText: owner.email }).getByRole('cell').nth(3);
    const joinedUtc = await joined.textContent();
    assert.match(joinedUtc ?? '', / de \d{4}/, 'a Brazilian date ("27 de nov. de 2026")');
    await assertAccessible(page, 'Settings → Team in Portuguese');
    await screenshot(page, 'language-pt-settings-team');

    // Settings → Workspace: a new time zone, and the times on the other pages follow without a reload.
    await page.getByRole('link', { name: 'Espaço de trabalho' }).click();
    await page.getByRole('heading', { name: 'Espaço de trabalho', level: 1 }).waitFor();
    await page.getByLabel('Fuso horário').selectOption('Asia/Kathmandu');
    await page.getByRole('button', { name: 'Salvar configurações' }).click();
    await page.getByText('Configurações salvas.').waitFor();
    await assertAccessible(page, 'Settings → Workspace in Portuguese');
    await page.getByRole('link', { name: 'Equipe' }).click();
    await page.getByRole('heading', { name: 'Equipe', level: 1 }).waitFor();
    await page.waitForFunction(
      (before) => {
        const row = [...document.querySelectorAll('tr')].find((tr) => tr.textContent?.includes(before.email));
        const text = row?.querySelectorAll('td')[3]?.textContent;
        return !!text && text !== before.text;
      },
      { email: owner.email, text: joinedUtc },
    );

    // A reload keeps the choice: it is the person's, kept with their account.
    await page.reload();
    await page.getByRole('heading', { name: 'Equipe', level: 1 }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
    await page.getByRole('button', { name: 'Sair', exact: true }).waitFor();

    // Someone else in the same workspace, in their own (English) browser, still reads English.
    const { page: theirs } = await newPage(server);
    await logIn(theirs, teammate);
    await theirs.goto('/settings/account');
    await theirs.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    assert.equal(await theirs.locator('html').getAttribute('lang'), 'en');
    assert.ok((await sections(theirs, 'Sections')).includes('Settings'));
  });

  test('the sign-in page’s language picker switches to Español, and the choice stays in this browser', async () => {
    const { page } = await newPage(server, { bypassCSP: true });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Language').selectOption({ label: 'Español' });
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
    await page.getByLabel('Correo electrónico').waitFor();
    await page.getByLabel('Contraseña').waitFor();
    await assertAccessible(page, 'the sign-in page in Spanish');
    await page.reload();
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
  });
});
