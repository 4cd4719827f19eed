import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { asClient, createTemplate, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer, type HttpResponse } from '../../test/server.js';
import type { Contact } from '../contacts/contact.schema.js';

const server = await startServer();

interface Problem {
  code: string;
  status: number;
  detail: string;
}

/** Asserts a 401 in the problem shape with a Bearer challenge, and that it does not echo the credential. */
function assertUnauthorized(res: HttpResponse, credential: string): void {
  assert.equal(res.status, 401, res.text);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.match(String(res.headers['www-authenticate']), /^Bearer realm="parley"/);
  assert.equal((res.body as Problem).code, 'unauthorized');
  assert.equal((res.body as Problem).status, 401);
  if (credential.length > 8) assert.ok(!res.text.includes(credential), 'the credential is not echoed');
}

/** A second token for the same workspace and user, with the given scope. */
async function tokenFor(ws: TestWorkspace, scope: 'full' | 'read'): Promise<TestWorkspace> {
  const issued = await server.app.services.tokens.create({
    workspaceId: ws.workspaceId,
    userId: ws.userId,
    name: `${scope} token`,
    scope,
  });
  return asClient(server.http, { ...ws, token: issued.token, tokenId: issued.id });
}

async function lastUsedAt(tokenId: string): Promise<string | null> {
  const row = await server.app.services.deps.db
    .selectFrom('api_tokens')
    .select('last_used_at')
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow();
  return row.last_used_at === null ? null : new Date(row.last_used_at).toISOString();
}

const get = (path: string, authorization?: string) =>
  server.http.send('GET', path, { ...(authorization !== undefined && { headers: { authorization } }) });

describe(`auth (${ENGINE})`, () => {
  test('tokens › a request without Authorization is 401 with a Bearer challenge', async () => {
    assertUnauthorized(await get('/api/v1/me'), '');
    const post = await server.http.send('POST', '/api/v1/actions/create-contact', { body: { phone: '+14155550100' } });
    assertUnauthorized(post, '');
  });

  test('tokens › malformed, non-Bearer and unknown tokens are 401', async () => {
    const ws = await createWorkspace(server);
    const unknown = `parley_${randomBytes(32).toString('base64url')}`;
    for (const authorization of [
      `Basic ${Buffer.from('user:pass').toString('base64')}`,
      'Bearer',
      'Bearer ',
      'Bearer not-a-parley-token',
      `Bearer ${ws.token.slice(0, -1)}`,
      `Bearer ${ws.token} extra`,
      `Token ${ws.token}`,
      `Bearer ${unknown}`,
      ws.token,
    ]) {
      assertUnauthorized(await get('/api/v1/me', authorization), ws.token);
    }
  });

  test('tokens › the scheme name is case-insensitive', async () => {
    const ws = await createWorkspace(server);
    assert.equal((await get('/api/v1/me', `bearer ${ws.token}`)).status, 200);
    assert.equal((await get('/api/v1/me', `BEARER  ${ws.token}`)).status, 200);
  });

  test('tokens › a revoked token is 401 at once; the workspace’s other tokens keep working', async () => {
    const ws = await createWorkspace(server);
    const other = await tokenFor(ws, 'full');
    assert.equal((await ws.get('/v1/me')).status, 200);
    await server.app.services.tokens.revoke(ws.tokenId);
    assertUnauthorized(await ws.get('/v1/me'), ws.token);
    assertUnauthorized(await ws.action('create-contact', { phone: '+14155550100' }), ws.token);
    assert.equal((await other.get('/v1/me')).status, 200);
    assert.deepEqual((await other.action('search-contacts', {})).body, [], 'the refused write wrote nothing');
  });

  test('tokens › a revoked token gets the very 401 an unknown token gets', async () => {
    const ws = await createWorkspace(server);
    await server.app.services.tokens.revoke(ws.tokenId);
    const unknown = `parley_${randomBytes(32).toString('base64url')}`;
    const answers = [await get('/api/v1/me', `Bearer ${ws.token}`), await get('/api/v1/me', `Bearer ${unknown}`)];
    const [revoked, guessed] = answers.map((res) => {
      const { status, code, title, detail } = res.body as Problem & { title: string };
      return { status, code, title, detail, challenge: res.headers['www-authenticate'] };
    });
    assertUnauthorized(answers[0]!, ws.token);
    assert.deepEqual(revoked, guessed);
  });

  test('tokens › every documented operation refuses a request without a token', async () => {
    const doc = await server.http.send<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/api/v1/openapi.json',
    );
    const operations = Object.entries(doc.body.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => [method.toUpperCase() as 'GET' | 'POST', `/api${path}`] as const),
    );
    assert.ok(operations.length > 20);
    for (const [i, [method, path]] of operations.entries()) {
      // One address may send 120 anonymous requests a minute (auth.ts): the sweep moves on a minute per 100.
      if (i > 0 && i % 100 === 0) server.clock.advance(60_000);
      const res = await server.http.send(method, path, method === 'POST' ? { body: {} } : {});
      assertUnauthorized(res, '');
    }
  });

  test('scopes › a read-only token may call every read: me, contacts, tags, templates, triggers, dropdowns', async () => {
    const ws = await createWorkspace(server);
    const reader = await tokenFor(ws, 'read');
    const contact = await ws.action<Contact>('create-contact', { phone: '+14155550110', tags: 'vip' });
    const template = await createTemplate(server.app.services, ws.workspaceId);
    const reads: [string, () => Promise<HttpResponse>][] = [
      ['me', () => reader.get('/v1/me')],
      ['get-contact', () => reader.action('get-contact', { contact_id: contact.body.id })],
      ['search-contacts', () => reader.action('search-contacts', { query: '555' })],
      ['list-tags', () => reader.action('list-tags', {})],
      ['get-template', () => reader.action('get-template', { template_id: template.id })],
      ['list-templates', () => reader.action('list-templates', {})],
      ['new-message-received', () => reader.get('/v1/triggers/new-message-received')],
      ['new-campaign-sent', () => reader.get('/v1/triggers/new-campaign-sent')],
      ['new-flow-triggered', () => reader.get('/v1/triggers/new-flow-triggered')],
      ['new-sequence-triggered', () => reader.get('/v1/triggers/new-sequence-triggered')],
      ['dropdowns/templates', () => reader.get('/v1/dropdowns/templates')],
    ];
    for (const [name, call] of reads) {
      const res = await call();
      assert.equal(res.status, 200, `${name}: ${res.text}`);
    }
    const me = await reader.get<{ token: { scope: string } }>('/v1/me');
    assert.equal(me.body.token.scope, 'read');
  });

  test('scopes › a read-only token is refused every write with 403 insufficient_scope, changing nothing', async () => {
    const ws = await createWorkspace(server);
    const reader = await tokenFor(ws, 'read');
    const contact = await ws.action<Contact>('create-contact', { phone: '+14155550120', name: 'Ada', tags: 'vip' });
    const writes: [string, object][] = [
      ['create-contact', { phone: '+14155550121', name: 'New' }],
      ['update-contact', { contact_id: contact.body.id, name: 'Changed' }],
      ['add-tag', { contact_id: contact.body.id, tag: 'added' }],
      ['remove-tag', { contact_id: contact.body.id, tag: 'vip' }],
    ];
    for (const [action, body] of writes) {
      const res = await reader.action<Problem>(action, body);
      assert.equal(res.status, 403, `${action}: ${res.text}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.body.code, 'insufficient_scope');
      assert.match(res.body.detail, /read-only/);
    }
    const after = await ws.action<Contact[]>('search-contacts', {});
    assert.equal(after.body.length, 1, 'create-contact created nothing');
    assert.equal(after.body[0]?.name, 'Ada');
    assert.deepEqual(after.body[0]?.tags, ['vip']);
    assert.deepEqual(
      (await ws.action<{ name: string }[]>('list-tags', {})).body.map((t) => t.name),
      ['vip'],
      'add-tag created no tag',
    );
  });

  test('last_used_at › is recorded when a token is used, and refreshed on later use', async () => {
    const ws = await createWorkspace(server);
    assert.equal(await lastUsedAt(ws.tokenId), null, 'a token never used has no last_used_at');
    const firstUse = server.clock.now().toISOString();
    assert.equal((await ws.get('/v1/me')).status, 200);
    assert.equal(await lastUsedAt(ws.tokenId), firstUse);

    server.clock.advance(5 * 60_000);
    const laterUse = server.clock.now().toISOString();
    await ws.action('search-contacts', {});
    assert.equal(await lastUsedAt(ws.tokenId), laterUse);
  });

  test('last_used_at › a refused token is not marked as used', async () => {
    const ws = await createWorkspace(server);
    await server.app.services.tokens.revoke(ws.tokenId);
    assertUnauthorized(await ws.get('/v1/me'), ws.token);
    assert.equal(await lastUsedAt(ws.tokenId), null);
  });
});
