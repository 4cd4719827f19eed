import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, logInOverHttp } from '../dashboard-session.js';
import { ownerApi } from '../factories.js';
import { CHAT_MODEL, EMBEDDINGS_MODEL, STAND_IN_API_KEY, startOpenAiStandIn } from '../openai-stand-in.js';
import { ENGINE, startServer } from '../server.js';

// The stand-in listens on loopback: this server's operator allows private AI endpoints.
const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
const model = await startOpenAiStandIn();

interface Settings {
  enabled: boolean;
  base_url: string | null;
  model: string | null;
  api_key_set: boolean;
  embeddings_model: string | null;
  timeout_seconds: number;
  monthly_token_budget: number | null;
}

describe(`dashboard: Settings → AI model (${ENGINE})`, () => {
  test('an owner tries the model, saves it with a budget, sees the usage; a wrong key and a bad URL are named', async () => {
    const owner = await createOwner(server, 'AI Florist');
    const api = await ownerApi(server, owner);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/ai-model');
    await page.getByRole('heading', { name: 'AI model', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'AI model' }).waitFor();

    await page.getByLabel('Base URL').fill(model.url);
    await page.getByLabel('Model', { exact: true }).fill(CHAT_MODEL);
    await page.getByLabel('API key').fill('sk-typo-0000000000');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const status = page.getByTestId('ai-model-status');
    await status.getByText('The test of the model failed.').waitFor();
    await status.getByText(/refused the API key \(401\)/).waitFor();

    await page.getByLabel('API key').fill(STAND_IN_API_KEY);
    await page.getByLabel('Embeddings model (optional)').fill(EMBEDDINGS_MODEL);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await status.getByText(new RegExp(`^The model ${CHAT_MODEL} answered in .* ms: “OK”$`)).waitFor();
    await status.getByText(/with vectors of 256 numbers\.$/).waitFor();
    assert.equal((await api.action<Settings>('get-ai-settings')).body.base_url, null, 'testing saved nothing');

    // The browser lets an ftp URL through; Parley names the problem under its field.
    await page.getByLabel('Base URL').fill('ftp://models.example.com/v1');
    await page.getByRole('button', { name: 'Save AI model' }).click();
    await page.getByText('must be an absolute http or https URL, such as https://api.openai.com/v1').waitFor();
    await page.getByLabel('Base URL').fill(model.url);
    await page.getByLabel('Timeout (seconds)').fill('20');
    await page.getByLabel('Monthly token budget (optional)').fill('1000');
    await page.getByLabel('Let the AI features use this model').check();
    await page.getByRole('button', { name: 'Save AI model' }).click();
    await status.getByText('AI model saved.').waitFor();

    const saved = (await api.action<Settings>('get-ai-settings')).body;
    assert.deepEqual(
      [saved.enabled, saved.base_url, saved.model, saved.api_key_set, saved.embeddings_model, saved.timeout_seconds],
      [true, model.url, CHAT_MODEL, true, EMBEDDINGS_MODEL, 20],
    );
    assert.equal(saved.monthly_token_budget, 1000);

    // The key is never shown again; the usage of the tests is there, against the budget.
    await page.reload();
    await page.getByText('A key is saved and never shown; leave this blank to keep it.').waitFor();
    assert.equal(await page.getByLabel('API key').inputValue(), '');
    assert.ok(!(await page.content()).includes(STAND_IN_API_KEY));
    await page
      .getByTestId('ai-usage-total')
      .getByText(/ of a budget of 1,000 tokens used this month \(UTC\)/)
      .waitFor();
    const usage = page.getByRole('table', { name: 'AI model usage this month, by purpose' });
    await usage.getByRole('row', { name: /^Connection tests 1 / }).waitFor();
    await usage.getByRole('row', { name: /^Knowledge embeddings 1 / }).waitFor();
    await screenshot(page, 'settings-ai-model');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('in Spanish and at 375 px; a member sees neither the tab nor the settings', async () => {
    const owner = await createOwner(server, 'Florería IA');
    const { page } = await newPage(server, { width: 375, height: 740, locale: 'es-ES', bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/ai-model');
    await page.getByRole('heading', { name: 'Modelo de IA', level: 1 }).waitFor();
    await page.getByLabel('URL base').waitFor();
    await page.getByText('Aún no hay llamadas este mes.').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at 375 px (${overflow} px too wide)`);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    const ownerSession = await logInOverHttp(server, owner);
    const member = await joinedTeammate(server, ownerSession, 'member');
    const { page: memberPage } = await newPage(server);
    await logIn(memberPage, member);
    await memberPage.goto('/settings/ai-model');
    await memberPage.getByText('Only owners and admins can set the AI model.').waitFor();
    const tabs = memberPage.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'Team' }).waitFor();
    assert.equal(await tabs.getByRole('link', { name: 'AI model' }).count(), 0);
  });
});
