import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { DashboardLanguage } from '../../src/shared/languages.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp } from '../dashboard-session.js';
import { ownerApi } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/**
 * A signed-in owner of a workspace with a team, on a page in `language`: chosen through the person's own
 * session (as Settings → Your account saves it) after the browser signed in, so the sign-in itself runs in
 * English whatever the other pages speak.
 */
async function ownerIn(language: DashboardLanguage): Promise<Page> {
  const owner = await createOwner(server);
  const api = await ownerApi(server, owner);
  const created = await api.action('create-team', { name: 'Soporte' });
  assert.equal(created.status, 200, created.text);
  const { page } = await newPage(server, { bypassCSP: true });
  await logIn(page, owner);
  const session = await logInOverHttp(server, owner);
  const saved = await session.send('PUT', '/api/dashboard/account', { language });
  assert.equal(saved.status, 200, saved.text);
  return page;
}

/** Opens a page and waits for its heading, in the language the person chose. */
async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

describe(`dashboard: channel, routing and business hours in the person's language (${ENGINE})`, () => {
  test('in Spanish: Channel, Routing and Business hours speak Spanish and are accessible', async () => {
    const page = await ownerIn('es');

    await open(page, '/settings/channel', 'Canal');
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
    await page.getByTestId('current-channel').getByText('Canal actual: Simulador').waitFor();
    await page.getByRole('heading', { name: 'Números' }).waitFor();
    const sendThrough = page.getByRole('form', { name: 'Enviar a través de' });
    await sendThrough.getByLabel('API de WhatsApp Cloud').check();
    await sendThrough.getByLabel('Mensajes por segundo').waitFor();
    await page.getByRole('button', { name: 'Guardar canal' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], '/settings/channel');
    await screenshot(page, 'settings-channel-es');

    await open(page, '/settings/routing', 'Enrutamiento');
    await page.getByRole('heading', { name: 'Asignación automática' }).waitFor();
    await page.getByLabel('Asignar conversaciones automáticamente').waitFor();
    const team = page.getByRole('region', { name: 'Soporte' });
    await team.getByRole('group', { name: 'Miembros de Soporte' }).waitFor();
    await team.getByRole('button', { name: 'Guardar miembros de Soporte' }).waitFor();
    await page.getByRole('button', { name: 'Añadir una regla' }).click();
    await page.getByRole('group', { name: 'Regla 1' }).getByLabel('Palabras').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], '/settings/routing');

    await open(page, '/settings/business-hours', 'Horario de atención');
    await page.getByLabel('Zona horaria').waitFor();
    // Weekdays are named by the language (Intl), Monday first as the week is stored.
    const monday = page.getByRole('group', { name: 'lunes' });
    await monday.getByLabel('lunes Abre').waitFor();
    await monday.getByRole('button', { name: 'Añadir horas el lunes' }).waitFor();
    await page.getByRole('heading', { name: 'Encuesta de satisfacción' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], '/settings/business-hours');
    await screenshot(page, 'settings-business-hours-es');

    // A rule of Parley's own, said in Spanish by its code: the day named as the form names it, then the
    // catalog's wording with the API's values (the API itself answers "opens at 18:00 but closes at 17:00").
    await monday.getByLabel('lunes Abre').fill('18:00'); // Monday opens 09:00–17:00 until saved otherwise
    await page.getByRole('button', { name: 'Guardar horario de atención' }).click();
    const problem = monday.locator('small.error');
    await problem.waitFor();
    assert.equal(await problem.textContent(), 'lunes abre a las 18:00 pero cierra a las 17:00');
    assert.equal(await page.getByText('opens at 18:00').count(), 0, 'no English wording');
  });

  test('in Arabic: the page is right to left, and Routing speaks Arabic and is accessible', async () => {
    const page = await ownerIn('ar');

    await open(page, '/settings/routing', 'التوجيه');
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.equal(await page.locator('html').getAttribute('lang'), 'ar');
    await page.getByRole('heading', { name: 'الإسناد التلقائي' }).waitFor();
    await page.getByRole('region', { name: 'Soporte' }).getByRole('group', { name: 'أعضاء Soporte' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], '/settings/routing');
    await screenshot(page, 'settings-routing-ar');
  });
});
