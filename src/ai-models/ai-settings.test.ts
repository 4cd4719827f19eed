import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi, type TestWorkspace } from '../../test/factories.js';
import {
  CHAT_MODEL,
  EMBEDDINGS_MODEL,
  REASONING_MODEL,
  STAND_IN_API_KEY,
  startOpenAiStandIn,
} from '../../test/openai-stand-in.js';
import { ENGINE, startServer } from '../../test/server.js';
import { ModelUnavailable } from './index.js';
import type { AiSettings, AiSettingsTest, AiUsage } from './ai-settings.schema.js';

// The stand-in listens on loopback: this server's operator allows private AI endpoints; `strict`'s does not.
const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
const strict = await startServer();
const model = await startOpenAiStandIn();

interface Problem {
  code: string;
  errors: { field: string; code?: string; message: string }[];
}

const standIn = { base_url: model.url, model: CHAT_MODEL, api_key: STAND_IN_API_KEY };

async function withModel(settings: Record<string, unknown> = {}): Promise<TestWorkspace> {
  const workspace = await createWorkspace(server);
  const saved = await workspace.action('save-ai-settings', { enabled: true, ...standIn, ...settings });
  assert.equal(saved.status, 200, saved.text);
  return workspace;
}

const ask = (workspace: TestWorkspace, text = 'Hello') =>
  server.app.services.aiModels.chat(workspace.workspaceId, {
    purpose: 'assistant',
    messages: [{ role: 'user', content: text }],
  });

async function unavailable(call: Promise<unknown>): Promise<ModelUnavailable> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ModelUnavailable) return error;
    throw error;
  }
  assert.fail('the call answered');
}

describe(`AI model settings (${ENGINE})`, () => {
  test('test-ai-settings › a real round trip reports the answer time; the embeddings model is tried too; nothing is saved', async () => {
    const workspace = await createWorkspace(server);
    const tried = await workspace.action<AiSettingsTest>('test-ai-settings', {
      ...standIn,
      embeddings_model: EMBEDDINGS_MODEL,
    });
    assert.equal(tried.status, 200, tried.text);
    assert.equal(tried.body.ok, true, tried.text);
    assert.equal(tried.body.model, CHAT_MODEL);
    assert.equal(tried.body.reply, 'OK');
    assert.equal(typeof tried.body.model_ms, 'number');
    assert.equal(tried.body.embeddings?.model, EMBEDDINGS_MODEL);
    assert.equal(tried.body.embeddings.dimensions, 256);
    assert.equal(tried.body.problem, null);
    assert.equal(model.requests.at(-2)!.headers.authorization, `Bearer ${STAND_IN_API_KEY}`);

    const settings = await workspace.action<AiSettings>('get-ai-settings');
    assert.equal(settings.body.base_url, null, 'testing saves nothing');
    assert.equal(settings.body.api_key_set, false);
    const usage = await workspace.action<AiUsage>('get-ai-usage');
    assert.deepEqual(
      usage.body.purposes.map((p) => [p.purpose, p.calls]),
      [
        ['embeddings', 1],
        ['test', 1],
      ],
    );
  });

  test('test-ai-settings › a wrong key, an unknown model, a failing endpoint or an unreachable one are named', async () => {
    const workspace = await withModel();
    const wrongKey = 'sk-wrong-key-1234567890';
    const refused = await workspace.action<AiSettingsTest>('test-ai-settings', { api_key: wrongKey });
    assert.equal(refused.body.ok, false);
    assert.equal(refused.body.problem?.reason, 'model_error');
    assert.match(refused.body.problem.message, /refused the API key \(401\): Incorrect API key provided/);
    assert.ok(!refused.text.includes(wrongKey), 'the key given is never repeated');

    const unknown = await workspace.action<AiSettingsTest>('test-ai-settings', { model: 'gpt-nonexistent' });
    assert.match(
      unknown.body.problem!.message,
      /no such model or path .*\(404\): The model `gpt-nonexistent` does not exist/,
    );

    model.failNext();
    const failing = await workspace.action<AiSettingsTest>('test-ai-settings');
    assert.match(failing.body.problem!.message, /the endpoint failed \(500\)/);

    const closed = await workspace.action<AiSettingsTest>('test-ai-settings', { base_url: 'http://127.0.0.1:9/v1' });
    assert.equal(closed.body.problem?.reason, 'model_error');
    assert.match(closed.body.problem.message, /could not reach http:\/\/127\.0\.0\.1:9\/v1/);

    const badEmbeddings = await workspace.action<AiSettingsTest>('test-ai-settings', {
      embeddings_model: 'no-such-embed',
    });
    assert.equal(badEmbeddings.body.ok, false);
    assert.equal(badEmbeddings.body.reply, 'OK', 'the chat model answered');
    assert.equal(badEmbeddings.body.problem?.step, 'embeddings');
  });

  test('test-ai-settings › a model that does not answer in time is a timeout; a 429 says when to retry', async () => {
    const workspace = await withModel({ timeout_seconds: 1 });
    model.hangNext();
    const hung = await workspace.action<AiSettingsTest>('test-ai-settings');
    assert.equal(hung.body.problem?.reason, 'timeout', hung.text);
    assert.match(hung.body.problem.message, /no answer within 1 s/);

    model.rateLimitNext(7);
    const limited = await workspace.action<AiSettingsTest>('test-ai-settings');
    assert.equal(limited.body.problem?.reason, 'rate_limited', limited.text);
    assert.equal(limited.body.problem.retry_after_ms, 7000);

    model.rateLimitNext(3);
    const port = await unavailable(ask(workspace));
    assert.equal(port.reason, 'rate_limited');
    assert.equal(port.retryAfterMs, 3000);
  });

  test('chat › a reasoning model refusing max_tokens is asked again with max_completion_tokens', async () => {
    const workspace = await withModel({ model: REASONING_MODEL });
    const result = await server.app.services.aiModels.chat(workspace.workspaceId, {
      purpose: 'copilot',
      messages: [{ role: 'user', content: 'Summarise' }],
      maxTokens: 300,
    });
    assert.equal(result.content, 'OK');
    const [first, second] = model.chats().slice(-2);
    assert.equal(first!.max_tokens, 300);
    assert.equal(second!.max_completion_tokens, 300);
    assert.equal(second!.max_tokens, undefined);
  });

  test('budget › a call whose worst case does not fit in what is left is refused before the model is asked, until the next month', async () => {
    // `ask`'s worst case: 'Hello' as a user message (16 tokens at most) and the 4096 a reply may take.
    const workspace = await withModel({
      monthly_token_budget: 4200,
      input_price_per_million: 2,
      output_price_per_million: 8,
    });
    model.answer({ content: 'First answer', usage: { promptTokens: 70, completionTokens: 40 } });
    await ask(workspace);
    const received = model.requests.length;
    const spent = await unavailable(ask(workspace));
    assert.equal(spent.reason, 'budget_exhausted');
    assert.match(spent.message, /budget of 4200 tokens has no room for a call of up to 4112 tokens \(110 used\)/);
    assert.equal(model.requests.length, received, 'the model was not asked');
    const usage = await workspace.action<AiUsage>('get-ai-usage');
    assert.equal(usage.status, 200, usage.text);
    assert.equal(usage.body.month, server.clock.now().toISOString().slice(0, 7));
    assert.deepEqual(usage.body.purposes, [
      { purpose: 'assistant', calls: 1, prompt_tokens: 70, completion_tokens: 40, cost: (70 * 2 + 40 * 8) / 1e6 },
    ]);
    assert.equal(usage.body.tokens_used, 110);
    assert.equal(usage.body.monthly_token_budget, 4200);
    assert.equal(usage.body.tokens_left, 4090);
    assert.equal(usage.body.cost, (70 * 2 + 40 * 8) / 1e6);

    // A raised budget holds at once.
    await workspace.action('save-ai-settings', { monthly_token_budget: 10_000 });
    await ask(workspace);
    server.clock.advance(32 * 24 * 60 * 60 * 1000);
    await workspace.action('save-ai-settings', { monthly_token_budget: 4200 });
    await ask(workspace);
    const next = await workspace.action<AiUsage>('get-ai-usage');
    assert.equal(next.body.purposes[0]?.calls, 1, 'a new month counts from nothing');
  });

  test('save-ai-settings › turning it on needs a base URL, a model and a key; bad values are 400 and change nothing', async () => {
    const workspace = await createWorkspace(server);
    const incomplete = await workspace.action<Problem>('save-ai-settings', { enabled: true, model: CHAT_MODEL });
    assert.equal(incomplete.status, 400, incomplete.text);
    assert.deepEqual(
      incomplete.body.errors.map((e) => [e.field, e.code]),
      [
        ['base_url', 'ai_settings.required_to_enable'],
        ['api_key', 'ai_settings.required_to_enable'],
      ],
    );
    for (const body of [
      { timeout_seconds: 0 },
      { timeout_seconds: 601 },
      { monthly_token_budget: 0 },
      { input_price_per_million: -1 },
      { model: '' },
      { surprise: true },
    ]) {
      const refused = await workspace.action<Problem>('save-ai-settings', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.code, 'validation_failed');
    }
    const settings = await workspace.action<AiSettings>('get-ai-settings');
    assert.equal(settings.body.model, null);
    assert.equal(settings.body.enabled, false);
  });

  test('save-ai-settings › loopback, private and plain-http endpoints are refused unless the operator allows them', async () => {
    const workspace = await createWorkspace(strict);
    const cases: [string, string][] = [
      [model.url, 'ai_settings.private_target'],
      ['https://localhost:11434/v1', 'ai_settings.private_target'],
      ['https://10.1.2.3/v1', 'ai_settings.private_target'],
      ['https://[::1]/v1', 'ai_settings.private_target'],
      ['https://169.254.169.254/v1', 'ai_settings.private_target'],
      ['http://api.example.com/v1', 'ai_settings.https_required'],
      ['https://user:secret@api.example.com/v1', 'ai_settings.credentials_in_url'],
      ['ftp://api.example.com/v1', 'ai_settings.absolute_url'],
      ['api.openai.com/v1', 'ai_settings.absolute_url'],
    ];
    const received = model.requests.length;
    for (const [url, code] of cases) {
      for (const action of ['save-ai-settings', 'test-ai-settings']) {
        const refused = await workspace.action<Problem>(action, { ...standIn, base_url: url });
        assert.equal(refused.status, 400, `${action} ${url}: ${refused.text}`);
        assert.deepEqual(
          refused.body.errors.map((e) => [e.field, e.code]),
          [['base_url', code]],
          url,
        );
      }
    }
    assert.equal(model.requests.length, received, 'nothing was called');
    const accepted = await workspace.action<AiSettings>('save-ai-settings', {
      base_url: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
    });
    assert.equal(accepted.status, 200, accepted.text);
  });

  test('roles › the settings and usage need manage_workspace; a read-only token reads them but changes nothing', async () => {
    const owner = await ownerSession(server);
    const api = await ownerApi(server, owner);
    await api.action('save-ai-settings', { enabled: true, ...standIn });
    for (const role of ['member', 'agent', 'marketer'] as const) {
      const mate = await joinedTeammate(server, owner, role);
      for (const action of ['get-ai-settings', 'save-ai-settings', 'test-ai-settings', 'get-ai-usage']) {
        const refused = await mate.send<Problem>('POST', `/api/v1/actions/${action}`, {});
        assert.equal(refused.status, 403, `${role} ${action}`);
        assert.equal(refused.body.code, 'permission_denied');
      }
    }
    const admin = await joinedTeammate(server, owner, 'admin');
    const read = await admin.send<AiSettings>('POST', '/api/v1/actions/get-ai-settings', {});
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.model, CHAT_MODEL);

    const reader = await createWorkspace(server, { scope: 'read' });
    assert.equal((await reader.action('get-ai-settings')).status, 200);
    const write = await reader.action<Problem>('save-ai-settings', { model: 'x' });
    assert.equal(write.status, 403);
    assert.equal(write.body.code, 'insufficient_scope');
  });

  test('isolation › a workspace never sees another’s settings, usage or model', async () => {
    const mine = await withModel({ monthly_token_budget: 5000 });
    await ask(mine);
    const theirs = await createWorkspace(server);
    const settings = await theirs.action<AiSettings>('get-ai-settings');
    assert.equal(settings.body.base_url, null);
    assert.equal(settings.body.monthly_token_budget, null);
    const usage = await theirs.action<AiUsage>('get-ai-usage');
    assert.deepEqual(usage.body.purposes, []);
    assert.equal(usage.body.tokens_used, 0);
    assert.equal((await unavailable(ask(theirs))).reason, 'not_configured');
  });
});
