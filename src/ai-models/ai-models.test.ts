import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import {
  CHAT_MODEL,
  EMBEDDINGS_MODEL,
  STAND_IN_API_KEY,
  embedText,
  startOpenAiStandIn,
} from '../../test/openai-stand-in.js';
import { ENGINE, startServer } from '../../test/server.js';
import { ModelUnavailable } from './index.js';
import type { AiSettings } from './ai-settings.schema.js';

const METRICS_TOKEN = 'metrics-test-token-ai-models-0123';
// The stand-in listens on loopback: this server's operator allows private AI endpoints.
const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true', METRICS_TOKEN });
const model = await startOpenAiStandIn();
const { aiModels } = server.app.services;

/** A workspace whose model is the stand-in, turned on (more settings may be given). */
async function withModel(settings: Record<string, unknown> = {}): Promise<TestWorkspace> {
  const workspace = await createWorkspace(server);
  const saved = await workspace.action('save-ai-settings', {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
    ...settings,
  });
  assert.equal(saved.status, 200, saved.text);
  return workspace;
}

/** One series' value in GET /metrics (0 when it is absent). */
async function metric(series: string): Promise<number> {
  const scraped = await server.http.send('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(scraped.status, 200, scraped.text);
  const line = scraped.text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** The ModelUnavailable a call threw (the test fails when it answered). */
async function unavailable(call: Promise<unknown>): Promise<ModelUnavailable> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ModelUnavailable) return error;
    throw error;
  }
  assert.fail('the call answered');
}

describe(`AI models (${ENGINE})`, () => {
  test('save-ai-settings › stores the settings; the API key is never answered, and is sealed at rest', async () => {
    const workspace = await createWorkspace(server);
    const before = await workspace.action<AiSettings>('get-ai-settings');
    assert.equal(before.status, 200, before.text);
    assert.deepEqual(before.body, {
      enabled: false,
      base_url: null,
      model: null,
      api_key_set: false,
      embeddings_model: null,
      timeout_seconds: 30,
      monthly_token_budget: null,
      input_price_per_million: null,
      output_price_per_million: null,
    });

    const saved = await workspace.action<AiSettings>('save-ai-settings', {
      enabled: true,
      base_url: model.url,
      model: CHAT_MODEL,
      api_key: STAND_IN_API_KEY,
      embeddings_model: EMBEDDINGS_MODEL,
      timeout_seconds: 12,
    });
    assert.equal(saved.status, 200, saved.text);
    assert.ok(!saved.text.includes(STAND_IN_API_KEY));
    assert.equal(saved.body.api_key_set, true);
    const read = await workspace.action<AiSettings>('get-ai-settings');
    assert.ok(!read.text.includes(STAND_IN_API_KEY));
    assert.deepEqual(read.body, saved.body);
    assert.equal(read.body.timeout_seconds, 12);

    const row = await server.app.services.deps.db
      .selectFrom('ai_settings')
      .select('api_key')
      .where('workspace_id', '=', workspace.workspaceId)
      .executeTakeFirstOrThrow();
    assert.ok(row.api_key && !row.api_key.includes(STAND_IN_API_KEY), 'the key is sealed at rest');

    // A later save without the key keeps it.
    const renamed = await workspace.action<AiSettings>('save-ai-settings', { model: 'llama3.2' });
    assert.equal(renamed.body.api_key_set, true);
    assert.equal(renamed.body.model, 'llama3.2');
    assert.equal(renamed.body.base_url, model.url);
  });

  test('chat › asks the model through the openai client with the key, and answers content, usage and time', async () => {
    const workspace = await withModel();
    model.answer('Your order ships tomorrow.');
    const result = await aiModels.chat(workspace.workspaceId, {
      purpose: 'assistant',
      messages: [
        { role: 'system', content: 'You answer from the shop’s knowledge.' },
        { role: 'user', content: 'When does my order ship?' },
      ],
      maxTokens: 200,
      temperature: 0.2,
    });
    assert.equal(result.content, 'Your order ships tomorrow.');
    assert.equal(result.parsed, null);
    assert.equal(result.model, CHAT_MODEL);
    assert.ok(result.usage.promptTokens > 0 && result.usage.completionTokens > 0);
    assert.ok(result.modelMs >= 0);

    const sent = model.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, `Bearer ${STAND_IN_API_KEY}`);
    assert.deepEqual(sent.body, {
      model: CHAT_MODEL,
      messages: [
        { role: 'system', content: 'You answer from the shop’s knowledge.' },
        { role: 'user', content: 'When does my order ship?' },
      ],
      temperature: 0.2,
      max_tokens: 200,
    });
  });

  test('chat › a schema asks for strict JSON-schema output and answers it parsed', async () => {
    const workspace = await withModel();
    const schema = {
      type: 'object',
      properties: { action: { type: 'string', enum: ['reply', 'hand_over'] }, text: { type: 'string' } },
      required: ['action', 'text'],
      additionalProperties: false,
    };
    model.answer(JSON.stringify({ action: 'hand_over', text: 'A person will answer.' }));
    const result = await aiModels.chat(workspace.workspaceId, {
      purpose: 'assistant',
      messages: [{ role: 'user', content: 'I want a refund' }],
      schema: { name: 'decision', schema },
    });
    assert.deepEqual(result.parsed, { action: 'hand_over', text: 'A person will answer.' });
    assert.deepEqual(model.chats().at(-1)!.response_format, {
      type: 'json_schema',
      json_schema: { name: 'decision', schema, strict: true },
    });

    model.answer('not json at all');
    const broken = await unavailable(
      aiModels.chat(workspace.workspaceId, {
        purpose: 'assistant',
        messages: [{ role: 'user', content: 'Hi' }],
        schema: { name: 'decision', schema },
      }),
    );
    assert.equal(broken.reason, 'model_error');
  });

  test('embed › vectors in order from the embeddings model; null without one', async () => {
    const without = await withModel();
    assert.equal(await aiModels.embed(without.workspaceId, ['hello']), null);

    const workspace = await withModel({ embeddings_model: EMBEDDINGS_MODEL });
    const texts = ['Opening hours are 9 to 5', 'We deliver on Saturdays'];
    const answer = await aiModels.embed(workspace.workspaceId, texts);
    assert.equal(answer?.model, EMBEDDINGS_MODEL);
    assert.equal(answer.vectors.length, 2);
    for (const [index, text] of texts.entries()) {
      assert.deepEqual(
        answer.vectors[index]!.map((v) => Math.fround(v)),
        embedText(text).map((v) => Math.fround(v)),
      );
    }
    assert.equal(model.requests.at(-1)!.body!.encoding_format, 'float');
  });

  test('chat › a workspace without a model turned on is not_configured', async () => {
    const workspace = await createWorkspace(server);
    const call = aiModels.chat(workspace.workspaceId, {
      purpose: 'copilot',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal((await unavailable(call)).reason, 'not_configured');
    await workspace.action('save-ai-settings', { base_url: model.url, model: CHAT_MODEL, api_key: STAND_IN_API_KEY });
    const off = aiModels.chat(workspace.workspaceId, {
      purpose: 'copilot',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal((await unavailable(off)).reason, 'not_configured', 'saved but off');
  });

  test('metrics › calls by purpose and outcome, tokens by kind, and the model’s time', async () => {
    const workspace = await withModel();
    const answered = 'parley_ai_model_calls_total{purpose="copilot",outcome="answered"}';
    const limited = 'parley_ai_model_calls_total{purpose="copilot",outcome="rate_limited"}';
    const prompt = 'parley_ai_model_tokens_total{purpose="copilot",kind="prompt"}';
    const timed = 'parley_ai_model_call_duration_seconds_count{purpose="copilot"}';
    const before = await Promise.all([answered, limited, prompt, timed].map(metric));
    model.answer({ content: 'Sure', usage: { promptTokens: 12, completionTokens: 3 } });
    await aiModels.chat(workspace.workspaceId, { purpose: 'copilot', messages: [{ role: 'user', content: 'Hi' }] });
    model.rateLimitNext(1);
    const call = aiModels.chat(workspace.workspaceId, {
      purpose: 'copilot',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal((await unavailable(call)).reason, 'rate_limited');
    const after = await Promise.all([answered, limited, prompt, timed].map(metric));
    assert.deepEqual(
      after.map((value, index) => value - before[index]!),
      [1, 1, 12, 1],
    );
  });
});
