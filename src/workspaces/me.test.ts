import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { asClient, createWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

interface Me {
  user: { id: string; email: string; name: string; role: string };
  workspace: {
    id: string;
    name: string;
    poll_interval_seconds: number;
    rate_limit_per_minute: number;
    created_at: string;
  };
  token: { id: string; scope: 'full' | 'read' };
}

describe(`me (${ENGINE})`, () => {
  test('me › returns the token’s user, workspace and token', async () => {
    const suffix = randomUUID().slice(0, 8);
    const createdAt = server.clock.now().toISOString().replace('Z', '+00:00');
    const { workspace, user } = await server.app.services.workspaces.setup({
      name: `Acme ${suffix}`,
      email: `Owner-${suffix}@Example.com`,
      password: 'correct horse battery',
    });
    const issued = await server.app.services.tokens.create({ workspaceId: workspace.id, userId: user.id, name: 'zap' });
    const ws = asClient(server.http, {
      workspaceId: workspace.id,
      userId: user.id,
      token: issued.token,
      tokenId: issued.id,
    });
    const res = await ws.get<Me>('/v1/me');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      user: { id: user.id, email: `owner-${suffix}@example.com`, name: `owner-${suffix}@example.com`, role: 'owner' },
      workspace: {
        id: workspace.id,
        name: `Acme ${suffix}`,
        poll_interval_seconds: 30,
        rate_limit_per_minute: 120,
        created_at: createdAt,
      },
      token: { id: issued.id, scope: 'full', mode: 'direct' },
    });
    assert.match(res.body.workspace.created_at, TIMESTAMP);
  });

  test('me › shows a raised polling rate limit and request limit', async () => {
    const ws = await createWorkspace(server, { pollIntervalSeconds: 5, rateLimitPerMinute: 600 });
    const res = await ws.get<Me>('/v1/me');
    assert.deepEqual([res.body.workspace.poll_interval_seconds, res.body.workspace.rate_limit_per_minute], [5, 600]);
  });

  test('me › a read-only token is reported as read', async () => {
    const ws = await createWorkspace(server, { scope: 'read' });
    const res = await ws.get<Me>('/v1/me');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.token, { id: ws.tokenId, scope: 'read', mode: 'direct' });
  });

  test('me › each token sees its own workspace', async () => {
    const a = await createWorkspace(server);
    const b = await createWorkspace(server);
    const [meA, meB] = [(await a.get<Me>('/v1/me')).body, (await b.get<Me>('/v1/me')).body];
    assert.deepEqual([meA.workspace.id, meA.user.id], [a.workspaceId, a.userId]);
    assert.deepEqual([meB.workspace.id, meB.user.id], [b.workspaceId, b.userId]);
  });

  test('me › the legacy /api/zapier/me answers exactly like /api/v1/me', async () => {
    const ws = await createWorkspace(server);
    const v1 = await ws.get<Me>('/v1/me');
    const legacy = await ws.get<Me>('/zapier/me');
    assert.equal(legacy.status, 200);
    assert.equal(legacy.text, v1.text);
  });

  test('me › as a credential test: 401 unauthorized without a token, with an unknown or a revoked one', async () => {
    const ws = await createWorkspace(server);
    await server.app.services.tokens.revoke(ws.tokenId);
    const unknown = `parley_${'A'.repeat(43)}`;
    for (const path of ['/api/v1/me', '/api/zapier/me']) {
      for (const [label, token] of [
        ['no token', undefined],
        ['an unknown token', unknown],
        ['a revoked token', ws.token],
      ] as const) {
        const res = await server.http.send<{ code: string }>('GET', path, token ? { token } : {});
        assert.equal(res.status, 401, `${path} with ${label}`);
        assert.equal(res.body.code, 'unauthorized');
        assert.match(String(res.headers['www-authenticate']), /^Bearer/);
      }
    }
  });
});
