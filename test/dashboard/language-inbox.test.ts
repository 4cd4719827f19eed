import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp } from '../dashboard-session.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { inboxWorld } from './inbox-world.js';

const whatsapp = await startWhatsappServer();
const { server } = whatsapp;
const { cloudOwner, customerWrites } = inboxWorld(whatsapp);

/** The hour and minute of an instant in a zone, as a 24-hour clock writes them (`17:06`). */
const clockIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

/** Waits until the page shows the language (its `lang`, set once the catalogs have loaded). */
const showsLanguage = (page: Page, language: string) =>
  page.waitForFunction((expected) => document.documentElement.lang === expected, language);

describe(`dashboard: the inbox in Portuguese and Arabic (${ENGINE})`, () => {
  test('Portuguese words and Brazilian dates in the list and a thread; Arabic right to left; axe clean in both', async () => {
    const owner = await cloudOwner('Floricultura Ipê');
    await customerWrites(owner, '5511987650001', 'Oi, as rosas chegaram?');
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);

    // The person chooses Portuguese (Settings → Your account does the same); the workspace is in São Paulo.
    const session = await logInOverHttp(server, owner);
    const zone = 'America/Sao_Paulo';
    assert.equal((await session.send('PUT', '/api/dashboard/workspace', { time_zone: zone })).status, 200);
    assert.equal((await session.send('PUT', '/api/dashboard/account', { language: 'pt-BR' })).status, 200);

    await page.goto('/inbox');
    await showsLanguage(page, 'pt-BR');
    await page.getByRole('heading', { name: 'Caixa de entrada' }).waitFor();
    const filters = page.getByRole('navigation', { name: 'Conversas a mostrar' });
    await filters.getByRole('link', { name: 'Abertas' }).waitFor();
    await filters.getByRole('link', { name: 'Atribuídas a mim' }).waitFor();
    await page.getByRole('checkbox', { name: 'Notificações' }).waitFor();
    const row = page.getByRole('list', { name: 'Conversas' }).getByRole('link', { name: /\+5511987650001/ });
    await row.getByText('Oi, as rosas chegaram?').waitFor();
    assert.match((await row.locator('.unread-count').textContent()) ?? '', /^1\s*não lida$/);

    // "27 de nov. de 2026, 17:06" (or without the comma): day, month and year as Brazil writes them,
    // at the hour in São Paulo.
    const time = row.locator('time');
    const when = (await time.getAttribute('datetime'))!;
    const shown = (await time.textContent()) ?? '';
    assert.match(shown, /^\d{1,2} de [a-zç]{3,4}\.? de \d{4}/, shown);
    assert.ok(shown.endsWith(clockIn(when, zone)), `${shown} is at ${clockIn(when, zone)} in São Paulo`);
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'inbox list in Portuguese');
    await screenshot(page, 'language-inbox-pt-BR');

    await row.click();
    const messages = page.getByRole('list', { name: 'Mensagens' });
    await messages.getByText('Oi, as rosas chegaram?').waitFor();
    await page.getByRole('link', { name: '← Caixa de entrada' }).waitFor();
    await page.getByLabel('Resposta', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Nota privada' }).waitFor();
    await page.getByText('Você pode responder livremente até').waitFor();
    await page.getByRole('button', { name: 'Enviar um modelo' }).waitFor();
    assert.match((await messages.locator('time').first().textContent()) ?? '', /^\d{1,2} de [a-zç]{3,4}\.? de \d{4}/);
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'thread in Portuguese');
    await screenshot(page, 'language-thread-pt-BR');

    // Arabic: the same thread, right to left; the customer's words are theirs, untranslated.
    assert.equal((await session.send('PUT', '/api/dashboard/account', { language: 'ar' })).status, 200);
    await page.reload();
    await showsLanguage(page, 'ar');
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    const arabic = page.getByRole('list', { name: 'الرسائل' });
    await arabic.getByText('Oi, as rosas chegaram?').waitFor();
    await page.getByLabel('رد', { exact: true }).waitFor();
    await page.getByRole('link', { name: '→ صندوق الوارد' }).waitFor();
    // The bubble sits in the right-to-left layout; the customer's Portuguese inside it still reads left to
    // right (its own direction, "?" at its end), whole within the screen.
    const bubble = arabic.locator('.bubble.inbound');
    assert.equal(await bubble.evaluate((element) => getComputedStyle(element).direction), 'rtl');
    const text = bubble.locator('.bubble-text');
    assert.equal(await text.evaluate((element) => getComputedStyle(element).direction), 'ltr');
    const box = (await text.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= page.viewportSize()!.width, JSON.stringify(box));
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'thread in Arabic');
    await screenshot(page, 'language-thread-ar');
  });
});
