import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AssistantSettings } from '../../src/assistant/assistant.schema.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, logInOverHttp } from '../dashboard-session.js';
import { ownerApi } from '../factories.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn } from '../openai-stand-in.js';
import { ENGINE, startServer } from '../server.js';

// The model's stand-in listens on loopback: this server's operator allows private AI endpoints.
const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
const model = await startOpenAiStandIn();

describe(`dashboard: the AI assistant (${ENGINE})`, () => {
  test('Settings → AI assistant: switched on where and how the owner says; a blank name is named by its label; an agent reads it only', async () => {
    const owner = await createOwner(server, 'Assistant Florist');
    const api = await ownerApi(server, owner);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/assistant');
    await page.getByRole('heading', { name: 'AI assistant', level: 1 }).waitFor();

    await page.getByLabel('Let the AI assistant answer customers').check();
    await page.getByLabel('Name', { exact: true }).fill('Flora');
    await page.getByLabel('Instructions').fill('Warm and brief; we are a florist in Lisbon.');
    await page.getByLabel('When').selectOption({ label: 'Only outside business hours' });
    await page.getByLabel('Replies per conversation').fill('4');
    await page.getByLabel('Confidence floor').fill('0.75');
    await page.getByLabel('Stop words').fill('manager\nrefund');
    await page.getByLabel('Hand-over message').fill('A florist will answer you here shortly.');
    await page.getByRole('button', { name: 'Save AI assistant' }).click();
    await page.getByRole('status').getByText('AI assistant saved.').waitFor();
    const saved = (await api.action<AssistantSettings>('get-assistant-settings')).body;
    assert.deepEqual(saved, {
      enabled: true,
      channel_ids: [],
      team_ids: [],
      hours: 'outside_hours',
      name: 'Flora',
      instructions: 'Warm and brief; we are a florist in Lisbon.',
      reply_limit: 4,
      confidence_floor: 0.75,
      stop_words: ['manager', 'refund'],
      handover_message: 'A florist will answer you here shortly.',
    });

    await page.getByLabel('Name', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Save AI assistant' }).click();
    await page.getByText('Name is blank: write something people can read').waitFor();
    assert.equal((await api.action<AssistantSettings>('get-assistant-settings')).body.name, 'Flora');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'settings-assistant');

    const agent = await joinedTeammate(server, await logInOverHttp(server, owner), 'agent');
    const { page: agentPage } = await newPage(server, { bypassCSP: true, width: 375, height: 800 });
    await logIn(agentPage, agent);
    await agentPage.goto('/settings/assistant');
    await agentPage.getByText('You can read these settings; changing them needs the automation permission.').waitFor();
    assert.equal(await agentPage.getByLabel('Name', { exact: true }).inputValue(), 'Flora');
    assert.equal(await agentPage.getByRole('button', { name: 'Save AI assistant' }).isDisabled(), true);
    assert.deepEqual(await seriousAccessibilityViolations(agentPage), []);
    await screenshot(agentPage, 'settings-assistant-agent-375');
  });

  test('the thread labels the AI’s reply with its name and shows the knowledge it cited; its hand-over note is signed', async () => {
    const owner = await createOwner(server, 'Cited Florist');
    const api = await ownerApi(server, owner);
    const ai = { enabled: true, base_url: model.url, model: CHAT_MODEL, api_key: STAND_IN_API_KEY };
    assert.equal((await api.action('save-ai-settings', ai)).status, 200);
    const settings = (await api.action<AssistantSettings>('get-assistant-settings')).body;
    assert.equal(
      (await api.action('update-assistant-settings', { ...settings, enabled: true, name: 'Flora' })).status,
      200,
    );
    const qa = await api.action('create-knowledge-qa', {
      question: 'How much is a dozen red roses?',
      answer: 'A dozen red roses costs $45, delivered the same day in Lisbon.',
    });
    assert.equal(qa.status, 200, qa.text);
    model.answer((request) => {
      const id = /\[chunk ([0-9a-f-]{36})\]/.exec(String(request.messages[0]!.content))?.[1] ?? 'none';
      return JSON.stringify({
        action: 'reply',
        reply: 'A dozen red roses is $45, delivered today in Lisbon.',
        confidence: 0.9,
        citations: [id],
        hand_over: null,
        tags: [],
        attributes: [],
      });
    });
    const phone = '+14155550271';
    const asked = await api.action<{ contact_id: string }>('simulate-inbound-message', {
      phone,
      text: 'How much is a dozen red roses?',
    });
    assert.equal(asked.status, 200, asked.text);
    await server.app.services.scheduler.runDue(owner.workspaceId);
    // The customer asks for a person: the assistant hands over without the model.
    await api.action('simulate-inbound-message', { phone, text: 'Can I talk to a human?' });
    await server.app.services.scheduler.runDue(owner.workspaceId);

    const { page } = await newPage(server, { bypassCSP: true, locale: 'es-ES' });
    await logIn(page, owner);
    await page.goto(`/inbox/${asked.body.contact_id}`);
    const thread = page.getByRole('list', { name: 'Mensajes' });
    const reply = thread.locator('li.bubble', { hasText: 'A dozen red roses is $45' });
    await reply.getByText('Flora (IA)').waitFor();
    await reply.getByText(/^Basado en 1 fragmento de conocimiento · confianza 90\s%$/).click();
    await reply.getByText('How much is a dozen red roses?').waitFor();
    await reply.getByText('A dozen red roses costs $45, delivered the same day in Lisbon.').waitFor();
    const note = thread.locator('li.bubble.note');
    await note.getByText('Nota de Flora (IA)').waitFor();
    await note.getByText(/the customer asked for a person/).waitFor();
    await page.getByText('Necesita a una persona').first().waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'inbox-assistant-citations-es');
  });
});
