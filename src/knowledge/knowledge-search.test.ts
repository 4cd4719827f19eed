import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SIMULATED_REVIEW_MS } from '../channels/simulator.provider.js';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { KnowledgeSearchResult, KnowledgeSource, KnowledgeSourceDetail } from './knowledge.schema.js';

const server = await startServer();

const search = async (ws: TestWorkspace, query: string, limit = 5) => {
  const res = await ws.action<KnowledgeSearchResult>('search-knowledge', { query, limit });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const texts = (result: KnowledgeSearchResult) => result.chunks.map((c) => c.text);

/** Answers in the languages customers write in, each with a question that shares only some words with it. */
const ANSWERS: { answer: string; query: string }[] = [
  { answer: 'Nuestro horario de atención es de lunes a sábado.', query: 'HORARIO atencion sabado' },
  { answer: 'Não entregamos aos domingos, só de segunda a sábado.', query: 'nao entregam domingos' },
  { answer: 'Öffnungszeiten: werktags von 9 bis 18 Uhr geöffnet.', query: 'offnungszeiten' },
  { answer: 'Ωράριο λειτουργίας: Δευτέρα έως Παρασκευή.', query: 'ωραριο λειτουργιας' },
  { answer: 'Часы работы магазина: с девяти до шести.', query: 'часы работы' },
  { answer: 'ساعات العمل من التاسعة حتى السادسة', query: 'ساعات العمل' },
  { answer: 'दुकान खुलने का समय सुबह नौ बजे है', query: 'खुलने का समय' },
  { answer: '営業時間は午前九時から午後六時までです。', query: '営業時間' },
  { answer: '我们的营业时间是上午九点到下午六点。', query: '营业时间' },
  { answer: 'ร้านเปิดทุกวันตั้งแต่เก้าโมงเช้า', query: 'ร้านเปิด' },
];

describe(`knowledge search (${ENGINE})`, () => {
  test('search-knowledge › finds words in any language: case and accents aside, scripts without spaces split into words', async () => {
    const ws = await createWorkspace(server);
    for (const [i, { answer }] of ANSWERS.entries()) {
      const res = await ws.action('create-knowledge-qa', { question: `Question ${i}`, answer });
      assert.equal(res.status, 200, res.text);
    }
    for (const { answer, query } of ANSWERS) {
      const found = await search(ws, query);
      assert.equal(found.chunks[0]?.text, answer, `"${query}" finds "${answer}" first`);
    }
  });

  test('search-knowledge › any word of the question may match, and the rarer words weigh more', async () => {
    const ws = await createWorkspace(server);
    for (let i = 0; i < 12; i++) {
      await ws.action('create-knowledge-qa', { question: `Shop ${i}?`, answer: `The shop number ${i} sells flowers.` });
    }
    await ws.action('create-knowledge-qa', { question: 'Refunds?', answer: 'A refund takes five days.' });
    const found = await search(ws, 'shop refund', 3);
    assert.equal(found.chunks[0]?.text, 'A refund takes five days.', 'the rare word outweighs the common one');
    assert.equal(found.chunks.length, 3, 'chunks with only the common word follow');
    assert.deepEqual(
      found.chunks.map((c) => c.full_text_rank),
      [1, 2, 3],
    );
    assert.ok(found.chunks[0].score > found.chunks[1]!.score);
    assert.equal((await search(ws, 'shop', 20)).chunks.length, 12);
  });

  test('update-knowledge-settings › quick replies as knowledge, kept current as they change, and gone when switched off', async () => {
    const ws = await createWorkspace(server);
    const hours = await ws.action<{ id: string }>('create-quick-reply', {
      shortcut: 'hours',
      body: 'Open from 9 to 18.',
    });
    const on = await ws.action('update-knowledge-settings', { quick_replies: true });
    assert.deepEqual(on.body, {
      templates: false,
      quick_replies: true,
      embedding_model: null,
      document_max_bytes: 1048576,
    });
    const found = await search(ws, 'open');
    assert.deepEqual(
      found.chunks.map((c) => [c.source_kind, c.source_title, c.heading, c.text]),
      [['quick_replies', 'Quick replies', '/hours', 'Open from 9 to 18.']],
    );
    const firstId = found.chunks[0]!.id;

    // Changed where they are kept: the next search finds them as they are now.
    server.clock.advance(1000);
    await ws.action('update-quick-reply', { quick_reply_id: hours.body.id, body: 'Open from 8 to 20.' });
    await ws.action('create-quick-reply', { shortcut: 'address', body: 'Rose Street 1, open daily.' });
    const changed = await search(ws, 'open');
    assert.deepEqual(texts(changed).sort(), ['Open from 8 to 20.', 'Rose Street 1, open daily.']);
    assert.ok(!changed.chunks.some((c) => c.id === firstId), 'the changed reply is a new chunk');
    const [source] = (await ws.action<KnowledgeSource[]>('list-knowledge-sources', {})).body;
    assert.equal(source?.chunk_count, 2);
    server.clock.advance(1000);
    await ws.action('delete-quick-reply', { quick_reply_id: hours.body.id });
    assert.deepEqual(texts(await search(ws, 'open')), ['Rose Street 1, open daily.']);
    // A change in the very millisecond of the last index (the clock stands still) is not missed either.
    const address = (await ws.action<{ id: string; shortcut: string }[]>('list-quick-replies', {})).body[0]!;
    await ws.action('update-quick-reply', { quick_reply_id: address.id, body: 'Lily Lane 2, open daily.' });
    assert.deepEqual(texts(await search(ws, 'daily')), ['Lily Lane 2, open daily.']);
    await ws.action('update-quick-reply', { quick_reply_id: address.id, body: 'Tulip Road 3, open daily.' });
    assert.deepEqual(texts(await search(ws, 'daily')), ['Tulip Road 3, open daily.']);

    const off = await ws.action('update-knowledge-settings', { quick_replies: false });
    assert.equal((off.body as { quick_replies: boolean }).quick_replies, false);
    assert.deepEqual((await search(ws, 'daily')).chunks, []);
    assert.deepEqual((await ws.action('list-knowledge-sources', {})).body, []);
  });

  test('update-knowledge-settings › approved templates as knowledge: a pending one is not, until it is approved', async () => {
    const ws = await createWorkspace(server);
    const made = await ws.action<{ id: string }>('create-template', {
      name: 'care_tips',
      category: 'UTILITY',
      translations: [
        {
          language: 'en',
          body: 'Trim the stems of your {{1}} every two days.',
          footer: 'Bloom & Co',
          examples: { '1': 'roses' },
        },
      ],
    });
    assert.equal(made.status, 200, made.text);
    await ws.action('update-knowledge-settings', { templates: true });
    assert.deepEqual((await search(ws, 'stems')).chunks, [], 'PENDING is not knowledge');

    server.clock.advance(SIMULATED_REVIEW_MS);
    await server.app.services.scheduler.runDue(ws.workspaceId);
    const found = await search(ws, 'stems');
    assert.deepEqual(
      found.chunks.map((c) => [c.source_kind, c.heading, c.text]),
      [['templates', 'care_tips (en)', 'Trim the stems of your {{1}} every two days.\n\nBloom & Co']],
    );
    const [source] = (await ws.action<KnowledgeSource[]>('list-knowledge-sources', { kind: 'templates' })).body;
    const detail = await ws.action<KnowledgeSourceDetail>('get-knowledge-source', { source_id: source!.id });
    assert.deepEqual(
      [detail.body.title, detail.body.content, detail.body.chunks.length],
      ['Approved templates', '', 1],
    );

    server.clock.advance(1000);
    const deleted = await ws.action('delete-template', { template_id: made.body.id });
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual((await search(ws, 'stems')).chunks, []);
    // Deleting the source is switching it off.
    await ws.action('delete-knowledge-source', { source_id: source!.id });
    assert.equal((await ws.action<{ templates: boolean }>('get-knowledge-settings', {})).body.templates, false);
  });

  test('knowledge_embed › without an embeddings model the job stores nothing and search is full-text alone', async () => {
    const ws = await createWorkspace(server);
    const qa = await ws.action<KnowledgeSource>('create-knowledge-qa', {
      question: 'Wrapping?',
      answer: 'Free gift wrapping.',
    });
    await server.app.services.scheduler.runDue(ws.workspaceId);
    const listed = (await ws.action<KnowledgeSource[]>('list-knowledge-sources', {})).body;
    assert.deepEqual(
      listed.map((s) => [s.id, s.embedded_count, s.state]),
      [[qa.body.id, 0, 'full_text']],
    );
    assert.equal((await search(ws, 'wrapping')).retrieval, 'full_text');
  });
});
