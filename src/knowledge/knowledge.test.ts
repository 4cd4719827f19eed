import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { KnowledgeSearchResult, KnowledgeSource, KnowledgeSourceDetail } from './knowledge.schema.js';

const server = await startServer();

interface Problem {
  code: string;
  errors: { field: string; code?: string; message: string }[];
}

const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const search = (ws: TestWorkspace, query: string, limit?: number) =>
  ws.action<KnowledgeSearchResult>('search-knowledge', { query, ...(limit && { limit }) });

const RETURNS = `# Returns

We take returns within 30 days of delivery.

## Refunds

A refund reaches your card within five working days.

## Exchanges

Swap a bouquet for another of the same price in any shop.
`;

describe(`knowledge sources (${ENGINE})`, () => {
  test('create-knowledge-qa › a question and its answer, indexed at once, found by its words, changed and deleted', async () => {
    const ws = await createWorkspace(server);
    const created = await ws.action<KnowledgeSource>('create-knowledge-qa', {
      question: '  Do you deliver on Sundays?  ',
      answer: 'Yes, between 9 and 13 in the city centre.',
    });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(
      [created.body.kind, created.body.title, created.body.excerpt, created.body.chunk_count, created.body.state],
      ['qa', 'Do you deliver on Sundays?', 'Yes, between 9 and 13 in the city centre.', 1, 'full_text'],
    );

    const found = await search(ws, 'sunday delivery');
    assert.equal(found.status, 200, found.text);
    assert.equal(found.body.retrieval, 'full_text');
    assert.equal(found.body.chunks.length, 0, '"sunday" is not "sundays": words match whole');
    const sundays = await search(ws, 'Sundays?');
    assert.deepEqual(
      sundays.body.chunks.map((c) => [c.source_id, c.source_kind, c.source_title, c.heading, c.text, c.full_text_rank]),
      [
        [
          created.body.id,
          'qa',
          'Do you deliver on Sundays?',
          'Do you deliver on Sundays?',
          'Yes, between 9 and 13 in the city centre.',
          1,
        ],
      ],
    );
    const cited = sundays.body.chunks[0]!;
    assert.ok(cited.score > 0 && cited.vector_rank === null && cited.similarity === null);

    const changed = await ws.action<KnowledgeSource>('update-knowledge-source', {
      source_id: created.body.id,
      answer: 'No, only Monday to Saturday.',
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.title, 'Do you deliver on Sundays?', 'a field not given keeps its value');
    assert.equal((await search(ws, 'centre')).body.chunks.length, 0, 'the old answer is no longer found');
    const saturday = await search(ws, 'saturday');
    assert.equal(saturday.body.chunks[0]?.text, 'No, only Monday to Saturday.');
    assert.notEqual(saturday.body.chunks[0]?.id, cited.id, 'a changed chunk is a new one');

    const deleted = await ws.action<KnowledgeSource>('delete-knowledge-source', { source_id: created.body.id });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.title, 'Do you deliver on Sundays?', 'answers the source as it was');
    assert.deepEqual((await search(ws, 'saturday')).body.chunks, []);
    assert.deepEqual((await ws.action('list-knowledge-sources', {})).body, []);
  });

  test('create-knowledge-document › Markdown headings make each chunk’s path; get-knowledge-source shows text and chunks', async () => {
    const ws = await createWorkspace(server);
    const created = await ws.action<KnowledgeSource>('create-knowledge-document', {
      title: 'Returns policy',
      content: RETURNS,
    });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(
      [created.body.kind, created.body.format, created.body.file_name, created.body.chunk_count],
      ['document', 'markdown', null, 3],
    );
    const detail = await ws.action<KnowledgeSourceDetail>('get-knowledge-source', { source_id: created.body.id });
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.content, RETURNS);
    assert.deepEqual(
      detail.body.chunks.map((c) => [c.position, c.heading, c.text, c.embedded]),
      [
        [0, 'Returns', 'We take returns within 30 days of delivery.', false],
        [1, 'Returns › Refunds', 'A refund reaches your card within five working days.', false],
        [2, 'Returns › Exchanges', 'Swap a bouquet for another of the same price in any shop.', false],
      ],
    );
    // The heading and the document's title find a chunk too.
    const byHeading = await search(ws, 'exchanges');
    assert.deepEqual(
      byHeading.body.chunks.map((c) => c.id),
      [detail.body.chunks[2]!.id],
    );
    const byTitle = await search(ws, 'policy', 10);
    assert.equal(byTitle.body.chunks.length, 3);
  });

  test('update-knowledge-source › re-indexing keeps the ids of unchanged chunks and replaces the changed one', async () => {
    const ws = await createWorkspace(server);
    const created = await ws.action<KnowledgeSource>('create-knowledge-document', {
      title: 'Returns',
      content: RETURNS,
    });
    const before = (await ws.action<KnowledgeSourceDetail>('get-knowledge-source', { source_id: created.body.id }))
      .body;
    const edited = RETURNS.replace('five working days', 'three working days');
    const updated = await ws.action<KnowledgeSource>('update-knowledge-source', {
      source_id: created.body.id,
      content: edited,
    });
    assert.equal(updated.status, 200, updated.text);
    const after = (await ws.action<KnowledgeSourceDetail>('get-knowledge-source', { source_id: created.body.id })).body;
    assert.equal(after.chunks[0]!.id, before.chunks[0]!.id);
    assert.equal(after.chunks[2]!.id, before.chunks[2]!.id);
    assert.notEqual(after.chunks[1]!.id, before.chunks[1]!.id);
    assert.equal(after.chunks[1]!.text, 'A refund reaches your card within three working days.');
    assert.deepEqual((await search(ws, 'five')).body.chunks, []);
    assert.equal((await search(ws, 'three')).body.chunks[0]?.id, after.chunks[1]!.id);

    // Plain text now: one chunk, no headings.
    const plain = await ws.action<KnowledgeSource>('update-knowledge-source', {
      source_id: created.body.id,
      format: 'text',
    });
    assert.deepEqual([plain.body.format, plain.body.chunk_count], ['text', 1]);
  });

  test('create-knowledge-document › a .md or .txt file, titled by its name; its format by its extension', async () => {
    const ws = await createWorkspace(server);
    const markdown = await ws.action<KnowledgeSource>('create-knowledge-document', {
      file: { name: 'care-guide.md', data: base64('\uFEFF# Care\n\nChange the water every two days.') },
    });
    assert.equal(markdown.status, 200, markdown.text);
    assert.deepEqual(
      [markdown.body.title, markdown.body.file_name, markdown.body.format, markdown.body.excerpt],
      ['care-guide', 'care-guide.md', 'markdown', '# Care\n\nChange the water every two days.'],
    );
    const text = await ws.action<KnowledgeSource>('create-knowledge-document', {
      title: 'Opening hours',
      file: { name: 'HOURS.TXT', data: base64('# Not a heading\nOpen 9 to 18.') },
    });
    assert.equal(text.status, 200, text.text);
    assert.deepEqual([text.body.title, text.body.format], ['Opening hours', 'text']);
    const detail = await ws.action<KnowledgeSourceDetail>('get-knowledge-source', { source_id: text.body.id });
    assert.deepEqual(
      detail.body.chunks.map((c) => [c.heading, c.text]),
      [['', '# Not a heading\nOpen 9 to 18.']],
    );
    assert.equal((await search(ws, 'water')).body.chunks[0]?.heading, 'Care');
  });

  test('create-knowledge-document › past the size limit, another kind of file or not text: 400 naming the field, nothing stored', async () => {
    const ws = await createWorkspace(server);
    const settings = await ws.action<{ document_max_bytes: number }>('get-knowledge-settings', {});
    const limit = settings.body.document_max_bytes;
    assert.equal(limit, 1024 * 1024);
    const tooLarge = 'x'.repeat(limit + 1);
    const cases: [object, string, string, string][] = [
      [
        { title: 'Big', content: tooLarge },
        'content',
        'knowledge.document_too_large',
        'is larger than 1024 KiB: split the document into smaller ones',
      ],
      [
        { file: { name: 'big.txt', data: base64(tooLarge) } },
        'file',
        'knowledge.document_too_large',
        'is larger than 1024 KiB: split the document into smaller ones',
      ],
      [
        { file: { name: 'menu.pdf', data: base64('%PDF-1.7') } },
        'file',
        'knowledge.file_type',
        'must be a text (.txt) or Markdown (.md) file',
      ],
      [
        { file: { name: 'photo.md', data: base64(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])) } },
        'file',
        'knowledge.file_not_text',
        'is not text: save it as UTF-8 text (.txt) or Markdown (.md)',
      ],
      [
        { file: { name: 'latin1.txt', data: base64(Buffer.from([0x43, 0x61, 0x66, 0xe9])) } },
        'file',
        'knowledge.file_not_text',
        'is not text: save it as UTF-8 text (.txt) or Markdown (.md)',
      ],
      [
        { file: { name: 'notes.txt', data: 'not base64!' } },
        'file',
        'knowledge.file_not_text',
        'is not text: save it as UTF-8 text (.txt) or Markdown (.md)',
      ],
      [
        { title: 'Both', content: 'x', file: { name: 'a.txt', data: base64('y') } },
        'file',
        'knowledge.content_or_file',
        'give the text or a file, not both',
      ],
      [
        { title: 'Blank', content: '  \n ' },
        'content',
        'knowledge.content_empty',
        'is empty: write the document or upload a file',
      ],
      [{ title: 'Nothing' }, 'content', 'knowledge.content_empty', 'is empty: write the document or upload a file'],
      [{ title: '   ', content: 'Text' }, 'title', 'knowledge.title_empty', 'is empty: give the document a title'],
    ];
    for (const [body, field, code, message] of cases) {
      const res = await ws.action<Problem>('create-knowledge-document', body);
      assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.text.slice(0, 200)}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(res.body.errors, [
        { field, code, message, ...(code.endsWith('too_large') && { params: { limit: '1024 KiB' } }) },
      ]);
    }
    // A body far past the limit is refused before it is read.
    const huge = await ws.action<Problem>('create-knowledge-document', {
      title: 'Huge',
      content: 'x'.repeat(9 * limit),
    });
    assert.equal(huge.status, 413, huge.text.slice(0, 200));
    assert.equal(huge.body.code, 'payload_too_large');
    assert.deepEqual((await ws.action('list-knowledge-sources', {})).body, []);
  });

  test('create/update-knowledge-* › empty words, fields of another kind and the synced sources are 400s that change nothing', async () => {
    const ws = await createWorkspace(server);
    const empty = await ws.action<Problem>('create-knowledge-qa', { question: ' ', answer: 'x' });
    assert.deepEqual(empty.body.errors, [
      { field: 'question', code: 'knowledge.question_empty', message: 'is empty: write the question a customer asks' },
    ]);
    const qa = await ws.action<KnowledgeSource>('create-knowledge-qa', {
      question: 'Gift cards?',
      answer: 'Yes, from 10 €.',
    });
    const foreign = await ws.action<Problem>('update-knowledge-source', {
      source_id: qa.body.id,
      title: 'x',
      content: 'y',
    });
    assert.equal(foreign.status, 400, foreign.text);
    assert.deepEqual(
      foreign.body.errors.map((e) => [e.field, e.code]),
      [
        ['title', 'knowledge.not_for_kind'],
        ['content', 'knowledge.not_for_kind'],
      ],
    );
    await ws.action('update-knowledge-settings', { quick_replies: true });
    const [synced] = (await ws.action<KnowledgeSource[]>('list-knowledge-sources', { kind: 'quick_replies' })).body;
    const edit = await ws.action<Problem>('update-knowledge-source', { source_id: synced!.id, title: 'Mine' });
    assert.deepEqual(
      edit.body.errors.map((e) => [e.field, e.code]),
      [['source_id', 'knowledge.synced_source']],
    );
    const noWords = await search(ws, ' ?! … ');
    assert.equal(noWords.status, 400, noWords.text);
    assert.deepEqual(noWords.body, {
      ...noWords.body,
      errors: [{ field: 'query', code: 'knowledge.query_no_words', message: 'has no words to search for' }],
    });
    const listed = await ws.action<KnowledgeSource[]>('list-knowledge-sources', {});
    assert.deepEqual(
      listed.body.map((s) => [s.kind, s.title]),
      [
        ['qa', 'Gift cards?'],
        ['quick_replies', 'Quick replies'],
      ],
    );
  });

  test('knowledge › another workspace neither finds nor sees nor changes it (404 like an unknown id)', async () => {
    const owner = await createWorkspace(server);
    const stranger = await createWorkspace(server);
    const mine = await owner.action<KnowledgeSource>('create-knowledge-qa', {
      question: 'Secret recipe?',
      answer: 'Rosewater.',
    });
    assert.deepEqual((await search(stranger, 'rosewater secret recipe')).body.chunks, []);
    assert.deepEqual((await stranger.action('list-knowledge-sources', {})).body, []);
    for (const [action, body] of [
      ['get-knowledge-source', { source_id: mine.body.id }],
      ['update-knowledge-source', { source_id: mine.body.id, answer: 'Theirs' }],
      ['delete-knowledge-source', { source_id: mine.body.id }],
    ] as const) {
      const res = await stranger.action<Problem>(action, body);
      assert.equal(res.status, 404, `${action}: ${res.text}`);
    }
    assert.equal((await search(owner, 'rosewater')).body.chunks[0]?.text, 'Rosewater.');
  });

  test('knowledge › every role reads and searches; changing it needs automation; a read-only token only reads', async () => {
    const owner = await ownerSession(server);
    const qa = await owner.send<KnowledgeSource>('POST', '/api/v1/actions/create-knowledge-qa', {
      question: 'Vases?',
      answer: 'Glass vases, 12 €.',
    });
    assert.equal(qa.status, 200, qa.text);
    const agent = await joinedTeammate(server, owner, 'agent');
    const marketer = await joinedTeammate(server, owner, 'marketer');
    for (const [action, body] of [
      ['list-knowledge-sources', {}],
      ['get-knowledge-source', { source_id: qa.body.id }],
      ['get-knowledge-settings', {}],
      ['search-knowledge', { query: 'vases' }],
    ] as const) {
      const res = await agent.send('POST', `/api/v1/actions/${action}`, body);
      assert.equal(res.status, 200, `${action}: ${res.text}`);
    }
    for (const [action, body] of [
      ['create-knowledge-qa', { question: 'Q', answer: 'A' }],
      ['create-knowledge-document', { title: 'T', content: 'C' }],
      ['update-knowledge-source', { source_id: qa.body.id, answer: 'Changed' }],
      ['delete-knowledge-source', { source_id: qa.body.id }],
      ['update-knowledge-settings', { templates: true }],
    ] as const) {
      const refused = await agent.send<{ code: string }>('POST', `/api/v1/actions/${action}`, body);
      assert.equal(refused.status, 403, `${action}: ${refused.text}`);
      assert.equal(refused.body.code, 'permission_denied');
    }
    const byMarketer = await marketer.send('POST', '/api/v1/actions/update-knowledge-source', {
      source_id: qa.body.id,
      answer: 'Glass vases, 14 €.',
    });
    assert.equal(byMarketer.status, 200, byMarketer.text);

    const readOnly = await createWorkspace(server, { scope: 'read' });
    assert.equal((await search(readOnly, 'vases')).status, 200);
    const write = await readOnly.action<{ code: string }>('create-knowledge-qa', { question: 'Q', answer: 'A' });
    assert.equal(write.status, 403, write.text);
    assert.equal(write.body.code, 'insufficient_scope');
  });
});
