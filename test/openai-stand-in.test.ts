import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI, { AuthenticationError, BadRequestError, NotFoundError } from 'openai';
import { CHAT_MODEL, EMBEDDINGS_MODEL, STAND_IN_API_KEY, embedText, startOpenAiStandIn } from './openai-stand-in.js';

/**
 * The stand-in as OpenAI's own client reads it: what the other tests rely on (tool calls, embeddings in
 * either encoding, errors by class) parsed by the `openai` package the way it parses OpenAI's answers.
 */
const standIn = await startOpenAiStandIn();
const client = new OpenAI({ baseURL: standIn.url, apiKey: STAND_IN_API_KEY, maxRetries: 0, logLevel: 'off' });

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('OpenAI stand-in', () => {
  test('tool calls come back as OpenAI sends them, with finish_reason tool_calls', async () => {
    standIn.answer({ toolCalls: [{ name: 'hand_over', arguments: { reason: 'refund' } }] });
    const completion = await client.chat.completions.create({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'I want my money back' }],
      tools: [{ type: 'function', function: { name: 'hand_over', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'auto',
    });
    const choice = completion.choices[0]!;
    assert.equal(completion.object, 'chat.completion');
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.content, null);
    const call = choice.message.tool_calls![0]!;
    assert.equal(call.type, 'function');
    assert.equal(call.type === 'function' && call.function.name, 'hand_over');
    assert.deepEqual(call.type === 'function' && JSON.parse(call.function.arguments), { reason: 'refund' });
    assert.ok(completion.usage!.total_tokens > 0);
  });

  test('a responder answers from the request; by default a schema gets its smallest instance', async () => {
    const fresh = await startOpenAiStandIn();
    const freshClient = new OpenAI({ baseURL: fresh.url, apiKey: STAND_IN_API_KEY, maxRetries: 0, logLevel: 'off' });
    const schema = {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['reply', 'close'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['action', 'tags'],
      additionalProperties: false,
    };
    const structured = await freshClient.chat.completions.create({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'decide' }],
      response_format: { type: 'json_schema', json_schema: { name: 'decision', schema, strict: true } },
    });
    assert.deepEqual(JSON.parse(structured.choices[0]!.message.content!), { action: 'reply', tags: [] });

    fresh.respond = (request) => `You said: ${String(request.messages.at(-1)!.content)}`;
    const echoed = await freshClient.chat.completions.create({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(echoed.choices[0]!.message.content, 'You said: hi');
  });

  test('strict mode refuses a schema OpenAI would: an object without additionalProperties false, a property not required', async () => {
    const loose = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const partial = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    for (const schema of [loose, partial]) {
      await assert.rejects(
        client.chat.completions.create({
          model: CHAT_MODEL,
          messages: [{ role: 'user', content: 'x' }],
          response_format: { type: 'json_schema', json_schema: { name: 'x', schema, strict: true } },
        }),
        (error) => error instanceof BadRequestError && error.param === 'response_format',
      );
    }
  });

  test('embeddings: base64 (the client’s default) and float agree; texts sharing words are nearer', async () => {
    const texts = ['We open at nine on Saturdays', 'Are you open on Saturdays?', 'Refund policy for damaged roses'];
    const base64 = await client.embeddings.create({ model: EMBEDDINGS_MODEL, input: texts });
    assert.equal(standIn.requests.at(-1)!.body!.encoding_format, 'base64');
    const floats = await client.embeddings.create({ model: EMBEDDINGS_MODEL, input: texts, encoding_format: 'float' });
    const vectors = floats.data.map((item) => item.embedding);
    for (const [i, item] of base64.data.entries()) {
      assert.deepEqual(
        item.embedding.map((v) => Math.fround(v)),
        vectors[i]!.map((v) => Math.fround(v)),
      );
    }
    assert.deepEqual(vectors[0], embedText(texts[0]!));
    assert.ok(cosine(vectors[0], vectors[1]!) > cosine(vectors[0], vectors[2]!));
    assert.equal(floats.usage.prompt_tokens > 0, true);
  });

  test('errors by class: a wrong key is 401 invalid_api_key, an unknown model 404 model_not_found; every request is recorded', async () => {
    const wrong = new OpenAI({ baseURL: standIn.url, apiKey: 'sk-wrong-000000000', maxRetries: 0, logLevel: 'off' });
    await assert.rejects(
      wrong.models.list(),
      (error) => error instanceof AuthenticationError && error.code === 'invalid_api_key',
    );
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-unknown', messages: [{ role: 'user', content: 'x' }] }),
      (error) => error instanceof NotFoundError && error.code === 'model_not_found',
    );
    const models = await client.models.list();
    assert.ok(models.data.some((model) => model.id === CHAT_MODEL));
    assert.equal(standIn.requests.at(-1)!.path, '/v1/models');
  });
});
