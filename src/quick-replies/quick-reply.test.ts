import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { QuickReply } from './quick-reply.schema.js';

const server = await startServer();

describe(`quick replies (${ENGINE})`, () => {
  test('create/list/update/delete-quick-reply › a saved answer under a shortcut, found by its words', async () => {
    const ws = await createWorkspace(server);
    const created = await ws.action<QuickReply>('create-quick-reply', {
      shortcut: '/Hours',
      body: 'We are open 9–17, Monday to Friday.',
    });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.shortcut, 'hours', 'stored without its "/", in lower case');
    await ws.action('create-quick-reply', { shortcut: 'address', body: 'Bakery Lane 1, Berlin' });

    const listed = await ws.action<QuickReply[]>('list-quick-replies', {});
    assert.deepEqual(
      listed.body.map((q) => q.shortcut),
      ['address', 'hours'],
    );
    const found = await ws.action<QuickReply[]>('list-quick-replies', { query: 'BERLIN' });
    assert.deepEqual(
      found.body.map((q) => q.shortcut),
      ['address'],
    );

    const updated = await ws.action<QuickReply>('update-quick-reply', {
      quick_reply_id: created.body.id,
      body: 'Open 9–18 now.',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.shortcut, 'hours', 'a field not given keeps its value');
    assert.equal(updated.body.body, 'Open 9–18 now.');

    const deleted = await ws.action<QuickReply>('delete-quick-reply', { quick_reply_id: created.body.id });
    assert.equal(deleted.body.body, 'Open 9–18 now.', 'answers the quick reply as it was');
    const after = await ws.action<QuickReply[]>('list-quick-replies', {});
    assert.deepEqual(
      after.body.map((q) => q.shortcut),
      ['address'],
    );
  });

  test('create/update-quick-reply › a taken shortcut is 409, an unusable one or an empty answer 400, and nothing changes', async () => {
    const ws = await createWorkspace(server);
    const first = await ws.action<QuickReply>('create-quick-reply', { shortcut: 'thanks', body: 'Thank you!' });
    const other = await ws.action<QuickReply>('create-quick-reply', { shortcut: 'bye', body: 'Bye!' });
    const taken = await ws.action<{ code: string; errors: object[] }>('create-quick-reply', {
      shortcut: 'THANKS',
      body: 'Again',
    });
    assert.equal(taken.status, 409, taken.text);
    const takenProblem = {
      field: 'shortcut',
      message: 'is taken: another quick reply uses /thanks',
      code: 'quick_replies.shortcut_taken',
      params: { shortcut: 'thanks' },
    };
    assert.deepEqual(taken.body.errors, [takenProblem]);
    const renamed = await ws.action<{ errors: object[] }>('update-quick-reply', {
      quick_reply_id: other.body.id,
      shortcut: 'thanks',
    });
    assert.equal(renamed.status, 409, renamed.text);
    assert.deepEqual(renamed.body.errors, [takenProblem]);
    const unusable = {
      field: 'shortcut',
      message: 'may have up to 32 letters, digits, "-" or "_", and no spaces (e.g. "hours")',
      code: 'quick_replies.shortcut_format',
    };
    for (const [body, problem] of [
      [{ shortcut: 'two words', body: 'x' }, unusable],
      [{ shortcut: '/', body: 'x' }, unusable],
      [
        { shortcut: 'fine', body: '   ' },
        { field: 'body', message: 'is empty: write the answer it inserts', code: 'quick_replies.body_empty' },
      ],
    ] as const) {
      const res = await ws.action<{ errors: object[] }>('create-quick-reply', body);
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body.errors, [problem], JSON.stringify(body));
    }
    const listed = await ws.action<QuickReply[]>('list-quick-replies', {});
    assert.deepEqual(listed.body.map((q) => [q.shortcut, q.body]).sort(), [
      ['bye', 'Bye!'],
      ['thanks', 'Thank you!'],
    ]);
    assert.equal(first.status, 200);
  });

  test('quick replies › another workspace neither sees nor changes them (404 like an unknown id)', async () => {
    const owner = await createWorkspace(server);
    const stranger = await createWorkspace(server);
    const mine = await owner.action<QuickReply>('create-quick-reply', { shortcut: 'secret', body: 'Only ours' });
    assert.deepEqual((await stranger.action<QuickReply[]>('list-quick-replies', {})).body, []);
    for (const [action, body] of [
      ['update-quick-reply', { quick_reply_id: mine.body.id, body: 'Theirs now' }],
      ['delete-quick-reply', { quick_reply_id: mine.body.id }],
    ] as const) {
      const res = await stranger.action(action, body);
      assert.equal(res.status, 404, res.text);
    }
    // The same shortcut is free in another workspace.
    const theirs = await stranger.action('create-quick-reply', { shortcut: 'secret', body: 'Theirs' });
    assert.equal(theirs.status, 200, theirs.text);
    const kept = await owner.action<QuickReply[]>('list-quick-replies', {});
    assert.deepEqual(
      kept.body.map((q) => q.body),
      ['Only ours'],
    );
  });
});
