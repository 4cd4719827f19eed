import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { insertContact } from '../automation-factories.js';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp } from '../dashboard-session.js';
import { createTemplate, insertMessage } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/** A workspace whose owner chose `language` in Settings → Your account, signed in in a fresh browser. */
async function signedInSpeaking(language: 'es' | 'ar') {
  const owner = await createOwner(server, 'Floristería');
  const session = await logInOverHttp(server, owner);
  assert.equal((await session.send('PUT', '/api/dashboard/account', { language })).status, 200);
  const { page } = await newPage(server, { bypassCSP: true });
  await logIn(page, owner);
  await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
  return { owner, page };
}

describe(`dashboard: contacts and templates in the person's language (${ENGINE})`, () => {
  test('in Spanish: the contacts list, a contact, the import page and the templates list; axe-clean', async () => {
    const { owner, page } = await signedInSpeaking('es');
    const contactId = await insertContact(server, owner.workspaceId, { name: 'Lucía Flores' });
    await insertMessage(server, {
      workspaceId: owner.workspaceId,
      contactId,
      direction: 'inbound',
      type: 'text',
      content: { body: '¿Abren el domingo?' },
    });
    await createTemplate(server.app.services, owner.workspaceId, {
      name: 'pedido_enviado',
      category: 'MARKETING',
      translations: [
        { language: 'es', status: 'APPROVED', body: 'Hola {{1}}, tu pedido ya salió.' },
        { language: 'pt_BR', status: 'PENDING', body: 'Olá {{1}}, seu pedido foi enviado.' },
      ],
    });

    await page.goto('/contacts');
    await page.getByRole('heading', { name: 'Contactos' }).waitFor();
    await page.getByRole('status').getByText('Página 1: 1 contacto', { exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Contactos, la conversación más reciente primero' });
    await table.getByRole('columnheader', { name: 'Último mensaje' }).waitFor();
    await page.getByRole('link', { name: 'Añadir contacto' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'contacts list');

    await table.getByRole('link', { name: 'Lucía Flores' }).click();
    await page.getByRole('heading', { name: 'Lucía Flores' }).waitFor();
    await page.getByRole('heading', { name: 'Perfil' }).waitFor();
    await page.getByText('Suscrito a los mensajes de marketing.').waitFor();
    await page.getByRole('button', { name: 'Dar de baja del marketing' }).waitFor();
    await page.getByRole('region', { name: 'Secuencias' }).getByText('No está en ninguna secuencia.').waitFor();
    // The message's status and time in Spanish (the date's month is Spanish, not English).
    const bubble = page.locator('.bubble', { hasText: '¿Abren el domingo?' });
    await bubble.getByText(/recibido$/).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'contact page');

    await page.goto('/contacts/import');
    await page.getByRole('heading', { name: 'Importar contactos' }).waitFor();
    const csv = ['Teléfono,Nombre', '+34 612 345 678,Ana', 'no es un teléfono,Malo'].join('\r\n');
    await page
      .getByLabel('Archivo CSV')
      .setInputFiles({ name: 'a.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page
      .getByTestId('import-check')
      .filter({ hasText: /^2 filas: se creará 1 contacto, se actualizarán 0\. 1 fila no se importará: / })
      .waitFor();
    const problems = page.getByRole('table', { name: 'Filas no importadas, por problema' });
    await problems
      .getByRole('row', { name: /Teléfono: no es un número de teléfono internacional válido 1 fila 3/ })
      .waitFor();
    await page.getByRole('button', { name: 'Importar 1 contacto' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'import page');

    await page.goto('/templates');
    await page.getByRole('heading', { name: 'Plantillas' }).waitFor();
    const row = page.getByRole('row', { name: /pedido_enviado/ });
    await row.getByRole('cell', { name: 'Marketing' }).waitFor();
    await row.getByText('Aprobada', { exact: true }).waitFor();
    await row.getByText('Pendiente', { exact: true }).waitFor();
    // The translations' languages named in Spanish (Intl.DisplayNames), their codes beside them.
    await row.getByRole('link', { name: /^portugués.*Brasil/ }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'templates list');
  });

  test('in Arabic: the contacts list is right to left, in Arabic, and axe-clean', async () => {
    const { owner, page } = await signedInSpeaking('ar');
    await insertContact(server, owner.workspaceId, { name: 'ليلى' });
    await insertContact(server, owner.workspaceId, { name: 'سارة' });
    await page.goto('/contacts');
    await page.getByRole('heading', { name: 'جهات الاتصال' }).waitFor();
    // i18n.ts sets the direction once the Arabic catalogs are in: the page turns right to left.
    await page.locator('html[dir="rtl"][lang="ar"]').waitFor({ state: 'attached' });
    // Two is its own plural form in Arabic (the page number in the digits Chromium's Arabic uses).
    await page
      .getByRole('status')
      .getByText(/^الصفحة (1|١): جهتا اتصال$/)
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'contacts list in Arabic');
  });
});
