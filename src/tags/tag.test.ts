import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { tagRepository } from './tag.repository.js';
import { TAG_LIST_CAP, type Tag } from './tag.schema.js';

const server = await startServer();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

let phoneSuffix = 1000;
/** Creates the tags the way integrations do: by tagging a contact. */
async function tagContact(ws: TestWorkspace, tags: string[]): Promise<void> {
  const res = await ws.action('create-contact', { phone: `+1415555${phoneSuffix++}`, tags });
  assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
}

const listNames = async (ws: TestWorkspace, body: object) => {
  const res = await ws.action<Tag[]>('list-tags', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.map((t) => t.name);
};

describe(`tags (${ENGINE})`, () => {
  test('list-tags › lists every tag alphabetically (ignoring case) when name is absent or ""', async () => {
    const ws = await createWorkspace(server);
    await tagContact(ws, ['vip', 'Newsletter']);
    await tagContact(ws, ['Zeta', 'beta', 'VIP']);
    const all = ['beta', 'Newsletter', 'vip', 'Zeta'];
    assert.deepEqual(await listNames(ws, {}), all);
    assert.deepEqual(await listNames(ws, { name: '' }), all);
  });

  test('list-tags › returns each tag with its id, name as first written, and created_at', async () => {
    const ws = await createWorkspace(server);
    const createdAt = server.clock.now().toISOString().replace('Z', '+00:00');
    await tagContact(ws, ['Black Friday']);
    await tagContact(ws, ['black friday']);
    const res = await ws.action<Tag[]>('list-tags', {});
    assert.equal(res.body.length, 1, 'tag names compare case-insensitively');
    const [tag] = res.body;
    assert.deepEqual(Object.keys(tag!).sort(), ['created_at', 'id', 'name']);
    assert.equal(tag!.name, 'Black Friday');
    assert.match(tag!.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(tag!.created_at, createdAt);
    assert.match(tag!.created_at, TIMESTAMP);
  });

  test('list-tags › name is a case-insensitive substring', async () => {
    const ws = await createWorkspace(server);
    await tagContact(ws, ['Newsletter', 'news-fr', 'vip', 'beta', 'Écoles']);
    assert.deepEqual(await listNames(ws, { name: 'NEWS' }), ['news-fr', 'Newsletter']);
    assert.deepEqual(await listNames(ws, { name: 'letter' }), ['Newsletter']);
    assert.deepEqual(await listNames(ws, { name: 'V' }), ['vip']);
    assert.deepEqual(await listNames(ws, { name: 'écoles' }), ['Écoles'], 'beyond ASCII too');
    assert.deepEqual(await listNames(ws, { name: 'absent' }), []);
  });

  test('list-tags › LIKE wildcards % and _ (and the escape character) are matched literally', async () => {
    const ws = await createWorkspace(server);
    await tagContact(ws, ['100%', '100 percent', 'a_b', 'axb', 'back\\slash', 'plain']);
    assert.deepEqual(await listNames(ws, { name: '%' }), ['100%']);
    assert.deepEqual(await listNames(ws, { name: '0%' }), ['100%']);
    assert.deepEqual(await listNames(ws, { name: '_' }), ['a_b']);
    assert.deepEqual(await listNames(ws, { name: 'a_b' }), ['a_b']);
    assert.deepEqual(await listNames(ws, { name: '\\' }), ['back\\slash']);
    assert.deepEqual(await listNames(ws, { name: '%_%' }), []);
  });

  test('list-tags › a workspace sees only its own tags', async () => {
    const mine = await createWorkspace(server);
    const theirs = await createWorkspace(server);
    await tagContact(mine, ['mine']);
    await tagContact(theirs, ['theirs', 'mine-too']);
    assert.deepEqual(await listNames(mine, {}), ['mine']);
    assert.deepEqual(await listNames(mine, { name: 'theirs' }), []);
    assert.deepEqual(await listNames(theirs, { name: 'mine' }), ['mine-too']);
  });

  test('list-tags › a fresh workspace has no tags', async () => {
    const ws = await createWorkspace(server);
    assert.deepEqual(await listNames(ws, {}), []);
  });

  test('list-tags › returns at most the server cap (1000), the first ones alphabetically', async () => {
    const ws = await createWorkspace(server);
    const { db, newId, clock } = server.app.services.deps;
    const names = Array.from({ length: TAG_LIST_CAP + 1 }, (_, i) => `tag-${String(i).padStart(4, '0')}`);
    await tagRepository(db).ensure(ws.workspaceId, names.reverse(), newId, clock.now().toISOString());
    const listed = await listNames(ws, {});
    assert.equal(TAG_LIST_CAP, 1000);
    assert.equal(listed.length, 1000);
    assert.equal(listed[0], 'tag-0000');
    assert.equal(listed[999], 'tag-0999');
    assert.deepEqual(await listNames(ws, { name: '1000' }), ['tag-1000'], 'a filter reaches past the cap');
  });

  test('list-tags › a name that is not a string is a 400 naming the field', async () => {
    const ws = await createWorkspace(server);
    for (const name of [42, null, ['vip']]) {
      const res = await ws.action<{ code: string; errors: { field: string }[] }>('list-tags', { name });
      assert.equal(res.status, 400, JSON.stringify(name));
      assert.equal(res.body.code, 'validation_failed');
      assert.equal(res.body.errors[0]?.field, 'name');
    }
  });

  test('rename-tag › contacts keep the tag under the new name; a name another tag has is a 409', async () => {
    const ws = await createWorkspace(server);
    await tagContact(ws, ['vip', 'fr']);
    const renamed = await ws.action<Tag>('rename-tag', { tag: 'VIP', name: 'Gold' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.name, 'Gold');
    assert.deepEqual(await listNames(ws, {}), ['fr', 'Gold']);
    const tagged = await ws.action<unknown[]>('search-contacts', { tag: 'gold' });
    assert.equal(tagged.body.length, 1, 'the contact has the tag under its new name');
    assert.equal((await ws.action('rename-tag', { tag: 'gold', name: 'GOLD' })).status, 200, 'a change of case');
    const taken = await ws.action<{ code: string; errors: object[] }>('rename-tag', {
      tag: 'gold',
      name: 'FR',
    });
    assert.deepEqual(
      [taken.status, taken.body.code, taken.body.errors],
      [409, 'conflict', [{ field: 'name', message: 'is the name of another tag', code: 'tags.tag_name_taken' }]],
    );
    const unknown = await ws.action<{ code: string }>('rename-tag', { tag: 'nope', name: 'x' });
    assert.deepEqual([unknown.status, unknown.body.code], [404, 'not_found']);
    assert.equal((await ws.action('rename-tag', { tag: 'fr', name: '' })).status, 400);
  });

  test('delete-tag › removes the tag from every contact; another workspace’s tag is not found', async () => {
    const ws = await createWorkspace(server);
    const other = await createWorkspace(server);
    await tagContact(ws, ['vip', 'fr']);
    await tagContact(other, ['vip']);
    const deleted = await ws.action<{ deleted: boolean; name: string }>('delete-tag', { tag: 'VIP' });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual([deleted.body.deleted, deleted.body.name], [true, 'vip']);
    assert.deepEqual(await listNames(ws, {}), ['fr']);
    const contacts = await ws.action<{ tags: string[] }[]>('search-contacts', {});
    assert.deepEqual(
      contacts.body.map((c) => c.tags),
      [['fr']],
    );
    assert.deepEqual(await listNames(other, {}), ['vip'], 'the other workspace keeps its own tag');
    assert.equal((await ws.action('delete-tag', { tag: 'vip' })).status, 404);
    const theirs = await ws.action('rename-tag', { tag: 'vip', name: 'mine' });
    assert.equal(theirs.status, 404, 'a tag of another workspace answers like an unknown one');
  });
});
