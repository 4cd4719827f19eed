import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp, type DashboardSession } from '../dashboard-session.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn } from '../openai-stand-in.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const { server, connect, postWebhook } = await startWhatsappServer({
  outbox: true,
  env: { PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' },
});
const model = await startOpenAiStandIn();

const action = async (session: DashboardSession, name: string, body: unknown) => {
  const answer = await session.send('POST', `/api/v1/actions/${name}`, body);
  assert.equal(answer.status, 200, answer.text);
};

/** An owner whose assistant answered one customer and handed another, who asked for a person, over. */
async function ownerWithTheAssistant() {
  const owner = await createOwner(server, 'AI Florist');
  const { phoneNumberId } = await connect(owner.workspaceId);
  const session = await logInOverHttp(server, owner);
  await action(session, 'save-ai-settings', {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
  });
  await action(session, 'update-assistant-settings', {
    enabled: true,
    channel_ids: [],
    team_ids: [],
    hours: 'always',
    name: 'Flora',
    instructions: '',
    reply_limit: 5,
    confidence_floor: 0.5,
    stop_words: [],
    handover_message: 'A florist will answer you here shortly.',
  });
  const decision = { action: 'reply', reply: 'Yes, we are open today.', confidence: 0.9, citations: [] };
  model.answer(JSON.stringify({ ...decision, hand_over: null, tags: [], attributes: [] }));
  for (const [from, text] of [
    ['4915112349001', 'Are you open today?'],
    ['4915112349002', 'I want a human'],
  ] as const) {
    const webhook = inboundTextWebhook({ phoneNumberId, from, text, timestamp: server.clock.now() });
    assert.equal((await postWebhook(webhook)).status, 200);
    await server.app.services.scheduler.runDue(owner.workspaceId);
  }
  return { owner, session };
}

describe(`dashboard: AI report (${ENGINE})`, () => {
  test('the Reports page shows how the assistant’s conversations ended, why it handed over, and a chart; at phone width, in Spanish and in Arabic too', async () => {
    const { owner, session } = await ownerWithTheAssistant();
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/reports');
    const section = page.getByRole('region', { name: 'AI assistant' });
    const outcomes = section.getByRole('table', { name: 'How the conversations the AI assistant handled ended' });
    const row = (name: string) => outcomes.getByRole('row', { name: new RegExp(`^${name}`) });
    await row('Handled by the assistant').waitFor();
    assert.deepEqual(await row('Handled by the assistant').getByRole('cell').allTextContents(), ['2', '']);
    assert.deepEqual(await row('Answered by it').getByRole('cell').allTextContents(), ['1', '']);
    assert.deepEqual(await row('Handed over to a person').getByRole('cell').allTextContents(), ['1', '50%']);
    const reasons = section.getByRole('table', { name: 'Why the assistant handed over' });
    assert.deepEqual(
      await reasons
        .getByRole('row', { name: /The customer asked for a person/ })
        .getByRole('cell')
        .allTextContents(),
      ['1'],
    );
    await section
      .getByRole('img', {
        name: 'Conversations the assistant handled, per day. Bar chart per day: 2 handled, 0 resolved without a person, 1 handed over in all.',
      })
      .waitFor();
    await section.getByText('2 turns (replies: 1, hand-overs: 1).').waitFor();
    await section.getByRole('table', { name: 'Satisfaction ratings by who handled the conversation' }).waitFor();
    await section.getByRole('link', { name: 'Download CSV' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'reports-ai');

    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await outcomes.waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0);

    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal((await session.send('PUT', '/api/dashboard/account', { language: 'es' })).status, 200);
    await page.reload();
    const spanish = page.getByRole('region', { name: 'Asistente de IA' });
    await spanish.getByRole('row', { name: /^Atendidas por el asistente 2/ }).waitFor();
    await spanish.getByRole('row', { name: /^El cliente pidió una persona 1/ }).waitFor();
    await spanish.getByText('2 intervenciones (respuestas: 1, traspasos: 1).').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'es');

    assert.equal((await session.send('PUT', '/api/dashboard/account', { language: 'ar' })).status, 200);
    await page.reload();
    await page.waitForSelector('html[dir="rtl"][lang="ar"]', { state: 'attached' });
    await page.getByRole('region', { name: 'مساعد الذكاء الاصطناعي' }).getByText('تدخّلان', { exact: false }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'ar');
  });
});
