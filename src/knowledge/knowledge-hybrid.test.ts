import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import {
  CHAT_MODEL,
  EMBEDDINGS_MODEL,
  embedText,
  STAND_IN_API_KEY,
  startOpenAiStandIn,
} from '../../test/openai-stand-in.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { KnowledgeSearchResult, KnowledgeSource } from './knowledge.schema.js';

// The stand-in listens on loopback: the operator allows private AI endpoints.
const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
const model = await startOpenAiStandIn();

const ANSWERS = [
  { question: 'Do you deliver on Sundays?', answer: 'Our couriers ride from Monday to Saturday.' },
  { question: 'How fresh are the tulips?', answer: 'Cut the morning they are sold, straight from the grower.' },
  { question: 'Can I pay by card?', answer: 'Every card is welcome, and cash too.' },
];

/** A workspace whose AI model (the stand-in) has an embeddings model, with the three Q&A pairs. */
async function withKnowledge(embeddingsModel = EMBEDDINGS_MODEL): Promise<TestWorkspace> {
  const ws = await createWorkspace(server);
  const saved = await ws.action('save-ai-settings', {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
    embeddings_model: embeddingsModel,
  });
  assert.equal(saved.status, 200, saved.text);
  for (const pair of ANSWERS) assert.equal((await ws.action('create-knowledge-qa', pair)).status, 200);
  return ws;
}

const search = async (ws: TestWorkspace, query: string) => {
  const res = await ws.action<KnowledgeSearchResult>('search-knowledge', { query, limit: 5 });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const sources = async (ws: TestWorkspace) =>
  (await ws.action<KnowledgeSource[]>('list-knowledge-sources', {})).body.map((s) => [s.embedded_count, s.state]);
/**
 * A word none of the knowledge has whose stand-in vector points where `word`'s does (the stand-in hashes
 * words into its dimensions): to the stand-in the two mean the same, as synonyms do to a real model.
 */
function synonymOf(word: string): string {
  const target = embedText(word);
  for (let i = 0; ; i++) {
    const candidate = `zq${i.toString(36)}`;
    const vector = embedText(candidate);
    if (vector.every((value, d) => value === target[d])) return candidate;
  }
}

describe(`knowledge: hybrid retrieval with the embeddings model (${ENGINE})`, () => {
  test('knowledge_embed › chunks get vectors in batches from the workspace’s model; search fuses words and meaning', async () => {
    const ws = await createWorkspace(server);
    await ws.action('save-ai-settings', {
      enabled: true,
      base_url: model.url,
      model: CHAT_MODEL,
      api_key: STAND_IN_API_KEY,
      embeddings_model: EMBEDDINGS_MODEL,
    });
    const before = model.requests.length;
    for (const pair of ANSWERS) await ws.action('create-knowledge-qa', pair);
    assert.equal(model.requests.length, before, 'indexing asks no model: the job does, outside the request');

    assert.ok((await server.app.services.scheduler.runDue(ws.workspaceId)) >= 1);
    const asked = model.requests.slice(before).filter((r) => r.path === '/v1/embeddings');
    assert.equal(asked.length, 1, 'one call for the three chunks');
    assert.deepEqual(asked[0]!.body, {
      model: EMBEDDINGS_MODEL,
      input: ANSWERS.map((pair) => `${pair.question}\n${pair.answer}`),
      encoding_format: 'float',
    });
    assert.deepEqual(await sources(ws), [
      [1, 'hybrid'],
      [1, 'hybrid'],
      [1, 'hybrid'],
    ]);
    const settings = await ws.action<{ embedding_model: string }>('get-knowledge-settings', {});
    assert.equal(settings.body.embedding_model, EMBEDDINGS_MODEL);

    // Found by meaning alone: a word no chunk has, which the model places where "couriers" is.
    const couriers = synonymOf('couriers');
    const byMeaning = await search(ws, couriers);
    assert.equal(byMeaning.retrieval, 'hybrid');
    const [first] = byMeaning.chunks;
    assert.equal(first?.text, ANSWERS[0]!.answer);
    assert.deepEqual([first?.full_text_rank, first?.vector_rank], [null, 1]);
    assert.ok(first.similarity! > 0.1, `similarity ${first?.similarity}`);

    // Found by both: the fused score puts it above one found by words alone.
    const both = await search(ws, 'tulips card');
    assert.equal(both.retrieval, 'hybrid');
    const tulips = both.chunks.find((c) => c.text.startsWith('Cut the morning'))!;
    assert.equal(typeof tulips.full_text_rank, 'number');
    assert.equal(typeof tulips.vector_rank, 'number');
    const expected = 1 / (60 + tulips.full_text_rank!) + 1 / (60 + tulips.vector_rank!);
    assert.ok(Math.abs(tulips.score - expected) < 1e-9, `${tulips.score} is Σ 1/(60 + rank)`);
    const scores = both.chunks.map((c) => c.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'best first',
    );
  });

  test('search-knowledge › a new embeddings model is noticed at the next search and every chunk is embedded again', async () => {
    const ws = await withKnowledge();
    await server.app.services.scheduler.runDue(ws.workspaceId);
    await ws.action('save-ai-settings', { embeddings_model: 'nomic-embed-text' });
    const before = model.requests.length;
    const found = await search(ws, 'tulips');
    assert.equal(found.retrieval, 'hybrid');
    assert.equal(found.chunks[0]?.vector_rank, null, 'no chunk has a vector of the new model yet');
    assert.deepEqual(await sources(ws), [
      [0, 'embedding'],
      [0, 'embedding'],
      [0, 'embedding'],
    ]);
    await server.app.services.scheduler.runDue(ws.workspaceId);
    const models = model.requests
      .slice(before)
      .filter((r) => r.path === '/v1/embeddings')
      .map((r) => [r.body?.model, (r.body?.input as string[]).length]);
    assert.deepEqual(models, [
      ['nomic-embed-text', 1],
      ['nomic-embed-text', 3],
    ]);
    assert.deepEqual((await search(ws, 'tulips')).chunks[0]?.vector_rank, 1);
    assert.deepEqual(await sources(ws), [
      [1, 'hybrid'],
      [1, 'hybrid'],
      [1, 'hybrid'],
    ]);
  });

  test('knowledge_embed › a 429 waits as long as Retry-After says; a model failing on the question leaves search to words', async () => {
    const ws = await withKnowledge();
    model.rateLimitNext(30);
    assert.equal(await server.app.services.scheduler.runDue(ws.workspaceId), 1);
    assert.deepEqual(
      (await sources(ws)).map(([count]) => count),
      [0, 0, 0],
    );
    assert.equal(await server.app.services.scheduler.runDue(ws.workspaceId), 0, 'not before Retry-After');
    server.clock.advance(30_000);
    assert.equal(await server.app.services.scheduler.runDue(ws.workspaceId), 1);
    assert.deepEqual(
      (await sources(ws)).map(([count]) => count),
      [1, 1, 1],
    );

    // The question cannot be embedded: the words still find it, and the vectors stay.
    model.failNext();
    const failed = await search(ws, 'tulips');
    assert.deepEqual([failed.retrieval, failed.chunks[0]?.full_text_rank], ['full_text', 1]);
    assert.deepEqual(
      (await sources(ws)).map(([, state]) => state),
      ['hybrid', 'hybrid', 'hybrid'],
    );
    assert.equal((await search(ws, 'tulips')).retrieval, 'hybrid');
  });

  test('search-knowledge › without an embeddings model, or with the AI model off, search is full-text and says so', async () => {
    const ws = await withKnowledge();
    await server.app.services.scheduler.runDue(ws.workspaceId);
    await ws.action('save-ai-settings', { embeddings_model: null });
    const noEmbeddings = await search(ws, 'tulips');
    assert.deepEqual([noEmbeddings.retrieval, noEmbeddings.chunks[0]?.text], ['full_text', ANSWERS[1]!.answer]);
    assert.deepEqual(
      (await sources(ws)).map(([, state]) => state),
      ['full_text', 'full_text', 'full_text'],
    );

    await ws.action('save-ai-settings', { embeddings_model: EMBEDDINGS_MODEL });
    assert.equal((await search(ws, 'tulips')).retrieval, 'hybrid', 'the vectors of that model are still there');
    await ws.action('save-ai-settings', { enabled: false });
    const off = await search(ws, 'tulips');
    assert.deepEqual([off.retrieval, off.chunks.length], ['full_text', 1]);
    const settings = await ws.action<{ embedding_model: string | null }>('get-knowledge-settings', {});
    assert.equal(settings.body.embedding_model, null);
  });
});
