import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, logInOverHttp } from '../dashboard-session.js';
import { ownerApi, type TestWorkspace } from '../factories.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn } from '../openai-stand-in.js';
import { ENGINE, startServer } from '../server.js';

// The stand-in listens on loopback: the operator allows private AI endpoints here.
const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
const model = await startOpenAiStandIn();

/** A workspace's owner, their API client, and a customer who wrote in on the simulator. */
async function shopWithCustomer(name: string, text: string, withModel: boolean) {
  const owner = await createOwner(server, name);
  const api = await ownerApi(server, owner);
  if (withModel) {
    const saved = await api.action('save-ai-settings', {
      enabled: true,
      base_url: model.url,
      model: CHAT_MODEL,
      api_key: STAND_IN_API_KEY,
    });
    assert.equal(saved.status, 200, saved.text);
  }
  const phone = `+1415${randomInt(2_000_000, 9_999_999)}`;
  const wrote = await api.action<{ contact_id: string }>('simulate-inbound-message', { phone, text });
  assert.equal(wrote.status, 200, wrote.text);
  return { owner, api, contactId: wrote.body.contact_id };
}

const messageCount = async (api: TestWorkspace, contactId: string) =>
  (await api.action<unknown[]>('list-messages', { contact_id: contactId })).body.length;

/** The content of the last chat request the model received, all its messages together. */
const lastPrompt = () =>
  model
    .chats()
    .at(-1)!
    .messages.map((m) => String(m.content))
    .join('\n');

describe(`dashboard: copilot (${ENGINE})`, () => {
  test('suggest, rewrite and summarize fill the composer and the thread; nothing is sent until the agent sends', async () => {
    const { owner, api, contactId } = await shopWithCustomer('Copilot Florist', 'Do you deliver on Sundays?', true);
    const qa = await api.action('create-knowledge-qa', {
      question: 'Do you deliver on Sundays?',
      answer: 'We deliver Monday to Saturday. There are no Sunday deliveries.',
    });
    assert.equal(qa.status, 200, qa.text);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${contactId}`);
    const box = page.getByLabel('Reply', { exact: true });
    await box.waitFor();

    // The model cites the chunk it was given (its id is in the prompt).
    model.answer((request) => {
      const chunk = /\[chunk ([0-9a-f-]{36})\]/.exec(String(request.messages[0]!.content))![1];
      return JSON.stringify({ reply: 'We deliver Monday to Saturday.', language: 'en', citations: [chunk] });
    });
    await page.getByRole('button', { name: 'Suggest a reply' }).click();
    await page.getByRole('status').getByText('A suggestion is in the reply box').waitFor();
    assert.equal(await box.inputValue(), 'We deliver Monday to Saturday.');
    const sources = page.getByRole('region', { name: 'Knowledge used' });
    await sources.getByText('Do you deliver on Sundays?').click();
    await sources.getByText('There are no Sunday deliveries.').waitFor();
    assert.match(lastPrompt(), /Customer: Do you deliver on Sundays\?/);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'copilot-suggestion');

    // The agent edits the suggestion, then has it rewritten: the rewrite works on the edited draft.
    await box.fill('We deliver Monday to Saturday, and we are sorry we cannot do Sundays for now.');
    model.answer(JSON.stringify({ text: 'We deliver Mon–Sat; sorry, no Sundays.', language: 'en' }));
    await page.getByRole('button', { name: 'Rewrite', exact: true }).click();
    await page.getByRole('group', { name: 'Rewrite the draft' }).getByRole('button', { name: 'Shorter' }).click();
    await page.getByRole('status').getByText('Your draft is rewritten').waitFor();
    assert.equal(await box.inputValue(), 'We deliver Mon–Sat; sorry, no Sundays.');
    assert.match(lastPrompt(), /we are sorry we cannot do Sundays for now/);
    await page.getByRole('button', { name: 'Undo' }).click();
    assert.equal(
      await box.inputValue(),
      'We deliver Monday to Saturday, and we are sorry we cannot do Sundays for now.',
    );

    model.answer(JSON.stringify({ summary: 'The customer asks whether Sunday delivery exists.' }));
    await page.getByRole('button', { name: 'Summarize' }).click();
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary.getByText('The customer asks whether Sunday delivery exists.').waitFor();
    assert.match(lastPrompt(), /Write the summary in English \(en\)/);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // A model that fails is said in words; what the agent wrote stays.
    model.failNext();
    await page.getByRole('button', { name: 'Suggest a reply' }).click();
    await page
      .getByRole('alert')
      .getByText(/The AI model gave no answer/)
      .waitFor();
    assert.equal(
      await box.inputValue(),
      'We deliver Monday to Saturday, and we are sorry we cannot do Sundays for now.',
    );

    assert.equal(await messageCount(api, contactId), 1, 'the copilot sent nothing');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.bubble.outbound', { hasText: 'we are sorry we cannot do Sundays' }).waitFor();
    assert.equal(await messageCount(api, contactId), 2, 'the agent sent it');
    await sources.waitFor({ state: 'detached' });

    // An agent answers conversations, so their composer has the copilot too (the AI settings are not theirs).
    const agent = await joinedTeammate(server, await logInOverHttp(server, owner), 'agent');
    const agentPage = (await newPage(server)).page;
    await logIn(agentPage, agent);
    await agentPage.goto(`/inbox/${contactId}`);
    await agentPage.getByRole('button', { name: 'Suggest a reply' }).waitFor();
    await agentPage.getByRole('button', { name: 'Summarize' }).waitFor();
  });

  test('without an AI model the composer and thread offer no copilot; in Spanish the summary is asked in Spanish', async () => {
    const bare = await shopWithCustomer('Plain Bakery', 'Hola', false);
    const { page } = await newPage(server);
    await logIn(page, bare.owner);
    await page.goto(`/inbox/${bare.contactId}`);
    await page.getByLabel('Reply', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Suggest a reply' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Summarize' }).count(), 0);

    const shop = await shopWithCustomer('Panadería', 'Hola, ¿tienen pan sin gluten?', true);
    const spanish = await newPage(server, { locale: 'es-ES' });
    await logIn(spanish.page, shop.owner);
    await spanish.page.goto(`/inbox/${shop.contactId}`);
    model.answer(JSON.stringify({ summary: 'El cliente pregunta por pan sin gluten.' }));
    await spanish.page.getByRole('button', { name: 'Resumir' }).click();
    await spanish.page
      .getByRole('region', { name: 'Resumen' })
      .getByText('El cliente pregunta por pan sin gluten.')
      .waitFor();
    assert.match(lastPrompt(), /Write the summary in Spanish \(es\)/);
    await spanish.page.getByRole('button', { name: 'Sugerir una respuesta' }).waitFor();
  });
});
