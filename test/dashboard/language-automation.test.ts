import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp, type DashboardSession } from '../dashboard-session.js';
import { createTemplate } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/**
 * A signed-in owner with an approved template, and their own session over HTTP to choose a language
 * with (PUT /api/dashboard/account, as Settings → Your account does). The browser signs in while the
 * dashboard is still in English, so the sign-in form is found by its English labels.
 */
async function signedIn() {
  const owner = await createOwner(server, `Floricultura ${randomInt(1e6)}`);
  await createTemplate(server.app.services, owner.workspaceId, { name: `pedido_${randomInt(1e9)}` });
  const { page } = await newPage(server, { bypassCSP: true });
  await logIn(page, owner);
  const session = await logInOverHttp(server, owner);
  return { page, session };
}

/** The person's language, then the page again: the dashboard takes it from the session. */
async function speak(session: DashboardSession, page: Page, language: string, path: string) {
  const saved = await session.send('PUT', '/api/dashboard/account', { language });
  assert.equal(saved.status, 200, saved.text);
  await page.goto(path);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
}

describe(`dashboard: automation in the person's language (${ENGINE})`, () => {
  test('in Portuguese: the campaigns list, the new-campaign form and its labelled problems, sequences and flows; axe-clean', async () => {
    const { page, session } = await signedIn();
    await speak(session, page, 'pt-BR', '/campaigns');
    await page.getByRole('heading', { name: 'Campanhas' }).waitFor();
    await page.getByText('Nenhuma campanha ainda.').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.getByRole('link', { name: 'Nova campanha' }).click();
    await page.getByRole('heading', { name: 'Nova campanha' }).waitFor();
    await page.getByRole('group', { name: 'Público' }).getByLabel('Contatos com uma etiqueta').waitFor();
    await page.getByRole('button', { name: 'Revisar e enviar…' }).click();
    // The problem names the field by its Portuguese label, and says what is wrong in Portuguese.
    const problems = page.locator('form[aria-label="Nova campanha"] > .problem-list');
    await problems.getByText('Nome', { exact: true }).waitFor();
    assert.equal((await problems.textContent())?.trim(), 'Nome é obrigatório');
    assert.equal(await page.getByLabel('Nome', { exact: true }).getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Nome', { exact: true }).fill('Dia das Mães');
    await page.getByRole('button', { name: 'Revisar e enviar…' }).click();
    await problems.getByText('Modelo', { exact: true }).waitFor();
    assert.equal((await problems.textContent())?.trim(), 'Modelo é obrigatório: escolha um');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'campaign-new-pt-BR');

    await page.goto('/sequences');
    await page.getByRole('heading', { name: 'Sequências' }).waitFor();
    await page.getByText('Nenhuma sequência ainda.').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('link', { name: 'Nova sequência' }).click();
    await page.getByRole('button', { name: 'Adicionar etapa' }).click();
    await page.getByLabel('Etapa 2: espera: quantidade').fill('2');
    // "2 days": the unit's name follows the amount.
    const unit = page.getByLabel('Etapa 2: espera: unidade');
    assert.equal(await unit.locator('option:checked').textContent(), 'dias');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.goto('/flows');
    await page.getByRole('heading', { name: 'Fluxos' }).waitFor();
    await page.getByText('Nenhum fluxo ainda.').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('link', { name: 'Novo fluxo' }).click();
    await page.getByLabel('Novo nó').selectOption({ label: 'Ramificar' });
    await page.getByRole('button', { name: 'Adicionar nó', exact: true }).click();
    // The new branch's form, in Portuguese: its condition, and where each exit goes.
    const form = page.locator('.node-panel');
    await form.getByLabel('Condição 1: valor').waitFor();
    await form.getByRole('group', { name: 'Para onde vai depois' }).getByLabel('Caso contrário').waitFor();
    await page.locator('.flow-card', { hasText: 'precisa de um próximo nó' }).first().waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('in Arabic: the flows pages read right to left, axe-clean', async () => {
    const { page, session } = await signedIn();
    await speak(session, page, 'ar', '/flows');
    await page.getByRole('heading', { name: 'المسارات' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    await page.getByText('لا توجد مسارات بعد.').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.getByRole('link', { name: 'مسار جديد' }).click();
    await page.getByLabel('عقدة جديدة').selectOption({ label: 'انتظار رد' });
    await page.getByRole('button', { name: 'إضافة عقدة', exact: true }).click();
    const start = page.locator('.react-flow__node').first();
    await start.focus();
    await page.keyboard.press('Enter');
    const then = page.locator('.node-panel').getByRole('group', { name: 'إلى أين تنتقل بعد ذلك' }).getByLabel('ثم');
    await then.selectOption({ index: 2 });
    await page.getByRole('button', { name: 'ترتيب' }).click();
    // Laid out right to left: the start is right of the node it leads to.
    await page.waitForTimeout(300);
    const [first, second] = await page
      .locator('.flow-card')
      .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().left));
    assert.ok(first! > second!, `the start (at ${first}) is right of the next node (at ${second})`);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'flow-new-ar');
  });
});
