import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asClient, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer, type HttpResponse } from '../../test/server.js';
import type { Contact } from '../contacts/contact.schema.js';

const server = await startServer();

interface Problem {
  code: string;
  status: number;
  retry_after?: number;
}

const limitHeaders = (res: HttpResponse) => ({
  limit: Number(res.headers['x-ratelimit-limit']),
  remaining: Number(res.headers['x-ratelimit-remaining']),
});

/** Another token of the same workspace. */
async function secondToken(ws: TestWorkspace): Promise<TestWorkspace> {
  const issued = await server.app.services.tokens.create({
    workspaceId: ws.workspaceId,
    userId: ws.userId,
    name: 'two',
  });
  return asClient(server.http, { ...ws, token: issued.token, tokenId: issued.id });
}

describe(`rate limits (${ENGINE})`, () => {
  test('X-RateLimit › every API response carries the limit and what remains, errors included', async () => {
    const ws = await createWorkspace(server);
    const reader = await createWorkspace(server, { scope: 'read' });
    const responses: [string, HttpResponse][] = [
      ['200 me', await ws.get('/v1/me')],
      ['201 create-contact', await ws.action('create-contact', { phone: '+14155550100' })],
      ['400 validation', await ws.action('create-contact', { phone: 12 })],
      [
        '400 invalid json',
        await server.http.send('POST', '/api/v1/actions/search-contacts', {
          token: ws.token,
          rawBody: '{',
          headers: { 'content-type': 'application/json' },
        }),
      ],
      ['404 not_found', await ws.action('get-contact', { phone: '+14155550199' })],
      ['415', await server.http.send('POST', '/api/v1/actions/search-contacts', { token: ws.token, rawBody: 'x' })],
      ['401', await server.http.send('GET', '/api/v1/me', { token: 'parley_nope' })],
      ['403 insufficient_scope', await reader.action('create-contact', { phone: '+14155550100' })],
    ];
    for (const [name, res] of responses) {
      const { limit, remaining } = limitHeaders(res);
      assert.ok(
        Number.isInteger(limit) && limit > 0,
        `${name}: X-RateLimit-Limit ${String(res.headers['x-ratelimit-limit'])}`,
      );
      assert.ok(Number.isInteger(remaining) && remaining >= 0 && remaining < limit, `${name}: X-RateLimit-Remaining`);
    }
  });

  test('X-RateLimit › the default is 120 requests per minute per token, counting down', async () => {
    const ws = await createWorkspace(server);
    const first = await ws.get<{ workspace: { rate_limit_per_minute: number } }>('/v1/me');
    assert.equal(first.body.workspace.rate_limit_per_minute, 120);
    assert.deepEqual(limitHeaders(first), { limit: 120, remaining: 119 });
    assert.deepEqual(limitHeaders(await ws.action('search-contacts', {})), { limit: 120, remaining: 118 });
  });

  test('429 › past the per-token limit a request is rate_limited with Retry-After, and does nothing', async () => {
    const ws = await createWorkspace(server, { rateLimitPerMinute: 3 });
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await ws.action('search-contacts', {});
      assert.equal(res.status, 200);
      remaining.push(limitHeaders(res).remaining);
    }
    assert.deepEqual(remaining, [2, 1, 0]);

    const limited = await ws.action<Problem>('create-contact', { phone: '+14155550101' });
    assert.equal(limited.status, 429);
    assert.match(String(limited.headers['content-type']), /^application\/problem\+json/);
    assert.equal(limited.body.code, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(limited.body.retry_after, retryAfter);
    assert.deepEqual(limitHeaders(limited), { limit: 3, remaining: 0 });
    assert.equal((await ws.get('/v1/me')).status, 429, 'reads are limited too');

    server.clock.advance(60_000);
    const contacts = await ws.action<Contact[]>('search-contacts', {});
    assert.deepEqual(contacts.body, [], 'the limited create-contact wrote nothing');
  });

  test('429 › the limit resets after a minute', async () => {
    const ws = await createWorkspace(server, { rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++) await ws.get('/v1/me');
    const limited = await ws.get('/v1/me');
    assert.equal(limited.status, 429);
    server.clock.advance(Number(limited.headers['retry-after']) * 1000 - 1000);
    assert.equal((await ws.get('/v1/me')).status, 429, 'not before the window ends');
    server.clock.advance(60_000);
    const again = await ws.get('/v1/me');
    assert.equal(again.status, 200);
    assert.deepEqual(limitHeaders(again), { limit: 3, remaining: 2 });
  });

  test('429 › the budget is per token: other tokens and other workspaces are unaffected', async () => {
    const ws = await createWorkspace(server, { rateLimitPerMinute: 3 });
    const sibling = await secondToken(ws);
    const stranger = await createWorkspace(server, { rateLimitPerMinute: 3 });
    for (let i = 0; i < 4; i++) await ws.get('/v1/me');
    assert.equal((await ws.get('/v1/me')).status, 429);
    assert.equal((await sibling.get('/v1/me')).status, 200);
    assert.equal((await stranger.get('/v1/me')).status, 200);
  });

  test('429 › a read-only token refused a write still spends its budget', async () => {
    const reader = await createWorkspace(server, { scope: 'read', rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++) {
      assert.equal((await reader.action('create-contact', { phone: '+14155550102' })).status, 403);
    }
    assert.equal((await reader.get('/v1/me')).status, 429);
  });
});
