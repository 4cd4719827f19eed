/**
 * An AI agent's token in approval mode, in the dashboard (decision 0160): made in Settings → API tokens,
 * its sends wait in the conversation with the agent's reasoning until a person approves, edits then
 * approves, or rejects them; the thread updates live.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp } from '../dashboard-session.js';
import { asClient, type TestWorkspace } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer({}, { outbox: true });

interface HeldSend {
  id: string;
  status: string;
  note: string | null;
  edited: boolean;
}

/** Makes an approval-mode token through Settings → API tokens, as a person does; its client. */
async function agentTokenFromSettings(page: Page, owner: { workspaceId: string; userId: string }) {
  await page.goto('/settings/tokens');
  await page.getByLabel('Token name').fill('Support agent');
  await page.getByLabel('Sends', { exact: true }).selectOption('approval');
  await page.getByLabel('Approval wait (minutes)').fill('15');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByTestId('new-token').textContent())!;
  const row = page.getByRole('row', { name: /Support agent/ });
  await row.getByText('Wait for approval (15 minutes)').waitFor();
  const tokens = await server.app.services.tokens.list(owner.workspaceId);
  return asClient(server.http, { ...owner, token, tokenId: tokens.find((t) => t.name === 'Support agent')!.id });
}

/** The agent's text to the customer, held for approval. */
async function proposes(agent: TestWorkspace, phone: string, message: string, reasoning: string) {
  const held = await agent.action<HeldSend>('send-text-message', { phone, message, reasoning });
  assert.equal(held.status, 202, held.text);
  return held.body;
}

const heldSend = async (agent: TestWorkspace, id: string) =>
  (await agent.action<HeldSend>('get-held-send', { held_send_id: id })).body;

describe(`dashboard: sends held for approval (${ENGINE})`, () => {
  for (const width of [1280, 375]) {
    test(`an agent’s sends wait in the thread with its reasoning: approve, edit then approve, reject — live (${width} px)`, async () => {
      const owner = await createOwner(server, `Approvals ${width}`);
      const { page } = await newPage(server, { width, bypassCSP: true });
      await logIn(page, owner);
      const agent = await agentTokenFromSettings(page, owner);
      const phone = `+14155550${width === 1280 ? '128' : '375'}`;
      const inbound = await agent.action<{ contact_id: string }>('simulate-inbound-message', {
        phone,
        text: 'When does my order ship?',
      });
      const contactId = inbound.body.contact_id;

      const first = await proposes(agent, phone, 'It ships today.', 'The order is packed (checked the warehouse)');
      await page.goto(`/inbox/${contactId}`);
      const card = (text: string) => page.locator('.held-send', { hasText: text });
      await card('It ships today.').getByText('The order is packed (checked the warehouse)').waitFor();
      await page.getByRole('heading', { name: '1 send waits for your approval' }).waitFor();
      await card('It ships today.').getByText('API · Support agent wants to send:').waitFor();
      assert.equal(await page.locator('.bubble.outbound').count(), 0, 'nothing was sent');
      assert.deepEqual(await seriousAccessibilityViolations(page), []);
      await screenshot(page, `approvals-thread-${width}`);

      // Approve: it goes out as the agent's message, and the card goes.
      await card('It ships today.').getByRole('button', { name: 'Approve and send' }).click();
      await page.locator('.bubble.outbound', { hasText: 'It ships today.' }).getByText('API · Support agent').waitFor();
      await card('It ships today.').waitFor({ state: 'detached' });
      assert.equal((await heldSend(agent, first.id)).status, 'approved');

      // A new one arrives while the page is open (live); edited, then approved.
      const second = await proposes(agent, phone, 'Tracking: ABC123', 'They may want to track it');
      await card('Tracking: ABC123').getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Text to send').fill('Your tracking number is ABC123.');
      await page.getByRole('button', { name: 'Send edited text' }).click();
      await page.locator('.bubble.outbound', { hasText: 'Your tracking number is ABC123.' }).waitFor();
      assert.deepEqual(
        [(await heldSend(agent, second.id)).status, (await heldSend(agent, second.id)).edited],
        ['approved', true],
      );

      // Rejected with a note for the agent: never sent.
      const third = await proposes(agent, phone, 'You get a 50% refund!', 'Keep them happy');
      await card('You get a 50% refund!').getByRole('button', { name: 'Reject' }).click();
      await page.getByLabel('Note for the agent (optional)').fill('We do not offer refunds by chat');
      await page.getByRole('button', { name: 'Reject send' }).click();
      await card('You get a 50% refund!').waitFor({ state: 'detached' });
      const rejected = await heldSend(agent, third.id);
      assert.deepEqual([rejected.status, rejected.note], ['rejected', 'We do not offer refunds by chat']);
      assert.equal(await page.locator('.bubble.outbound', { hasText: '50% refund' }).count(), 0);
      assert.equal(await page.locator('.held-sends').count(), 0, 'nothing waits any more');
    });
  }

  test('in another language: Settings names the mode, the thread words the held send (es)', async () => {
    const owner = await createOwner(server, 'Aprobaciones');
    const { page } = await newPage(server, { locale: 'es-ES', bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/tokens');
    await page.getByLabel('Nombre del token').fill('Agente');
    await page.getByLabel('Envíos', { exact: true }).selectOption('approval');
    await page.getByLabel('Espera de aprobación (minutos)').fill('1');
    await page.getByRole('button', { name: 'Crear token' }).click();
    const token = (await page.getByTestId('new-token').textContent())!;
    await page
      .getByRole('row', { name: /Agente/ })
      .getByText('Esperan aprobación (1 minuto)')
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'approvals-settings-es');

    const agent = asClient(server.http, { ...owner, token, tokenId: '' });
    const inbound = await agent.action<{ contact_id: string }>('simulate-inbound-message', {
      phone: '+14155550777',
      text: 'Hola',
    });
    await proposes(agent, '+14155550777', 'Hola, ¿en qué te ayudo?', 'Saludo');
    await page.goto(`/inbox/${inbound.body.contact_id}`);
    await page.getByRole('heading', { name: '1 envío espera tu aprobación' }).waitFor();
    await page.getByRole('button', { name: 'Aprobar y enviar' }).waitFor();
    await page.getByText('Por qué:').waitFor();
  });

  test('the inbox list: a badge on conversations with sends waiting (counted), a filter of just those — live', async () => {
    const owner = await createOwner(server, 'Approvals list');
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    const issued = await server.app.services.tokens.create({ ...owner, name: 'Agent', mode: 'approval' });
    const agent = asClient(server.http, { ...owner, token: issued.token, tokenId: issued.id });
    const customer = async (phone: string, text: string) =>
      (await agent.action<{ contact_id: string }>('simulate-inbound-message', { phone, text })).body.contact_id;
    const contactId = await customer('+14155550461', 'Hello, any news?');
    await customer('+14155550462', 'Just saying hi');

    await page.goto('/inbox');
    const row = (phone: string) => page.locator('.conversation-list li', { hasText: phone });
    await row('+14155550462').waitFor();
    assert.equal(await page.locator('.badge.awaiting-approval').count(), 0);

    // Live: the agent proposes a send, then another; the badge appears, then counts.
    const first = await proposes(agent, '+14155550461', 'It ships today.', 'They asked');
    await row('+14155550461')
      .locator('.badge.awaiting-approval', { hasText: /^Waiting for approval$/ })
      .waitFor();
    await proposes(agent, '+14155550461', 'Tracking: ABC123', 'They may want to track it');
    await row('+14155550461').getByText('Waiting for approval (2)').waitFor();
    assert.equal(await row('+14155550462').locator('.badge.awaiting-approval').count(), 0);

    // The filter lists just those conversations.
    await page.getByRole('link', { name: 'Waiting for approval', exact: true }).click();
    await page.waitForURL(/filter=awaiting_approval/);
    await row('+14155550461').waitFor();
    await row('+14155550462').waitFor({ state: 'detached' });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'approvals-inbox-filter');

    // Decided by a teammate in another tab: the badge counts down, then the conversation leaves the filter, live.
    const elsewhere = await logInOverHttp(server, owner);
    const rejected = await elsewhere.send('POST', `/api/dashboard/held-sends/${first.id}/reject`, {});
    assert.equal(rejected.status, 200, rejected.text);
    await row('+14155550461')
      .locator('.badge.awaiting-approval', { hasText: /^Waiting for approval$/ })
      .waitFor();
    const [second] = (
      await elsewhere.send<{ id: string }[]>('GET', `/api/dashboard/conversations/${contactId}/held-sends`)
    ).body;
    const approved = await elsewhere.send('POST', `/api/dashboard/held-sends/${second!.id}/approve`, {});
    assert.equal(approved.status, 200, approved.text);
    await row('+14155550461').waitFor({ state: 'detached' });
    await page.getByText('No agent’s send waits for approval.').waitFor();
  });
});
