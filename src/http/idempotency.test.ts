import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { ownerSession } from '../../test/dashboard-session.js';
import { asClient, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Contact } from '../contacts/contact.schema.js';

const server = await startServer();
const DAY_MS = 24 * 60 * 60 * 1000;

interface Problem {
  code: string;
  errors?: { field: string }[];
}

const { services } = server.app;

/** Another API token of the workspace's owner: another caller with the same rights. */
async function secondToken(ws: TestWorkspace): Promise<TestWorkspace> {
  const issued = await services.tokens.create({ workspaceId: ws.workspaceId, userId: ws.userId, name: 'second' });
  return asClient(server.http, { ...ws, token: issued.token, tokenId: issued.id });
}

/** Every idempotency row of a workspace, as stored (the test reads the table only to prove what is absent). */
async function storedKeys(workspaceId: string) {
  return services.deps.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', workspaceId).execute();
}

const key = () => `retry-${randomUUID()}`;
const withKey = (idempotencyKey: string) => ({ 'idempotency-key': idempotencyKey });

describe(`idempotency (${ENGINE})`, () => {
  test('Idempotency-Key › a retry returns the stored first response without doing the work again', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    const body = { phone: '+14155550100', name: 'Ada', tags: 'vip' };
    const first = await ws.action<Contact>('create-contact', body, withKey(k));
    assert.equal(first.status, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined, 'a first response is not marked as replayed');

    // Edited in between: a real second create-contact (an upsert) would answer 200 and rename it back.
    await ws.action('update-contact', { contact_id: first.body.id, name: 'Ada Lovelace' });
    server.clock.advance(60_000);
    const retry = await ws.action<Contact>('create-contact', body, withKey(k));
    assert.equal(retry.status, 201);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.match(String(retry.headers['content-type']), /^application\/json/);
    assert.equal(retry.text, first.text, 'the very same body');

    const stored = await ws.action<Contact>('get-contact', { contact_id: first.body.id });
    assert.equal(stored.body.name, 'Ada Lovelace', 'the edit made in between is not overwritten');
    assert.equal((await ws.action<Contact[]>('search-contacts', {})).body.length, 1);
  });

  test('Idempotency-Key › a stored error is replayed with its status and problem shape', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    const body = { phone: '+14155550101', name: 'Grace' };
    const first = await ws.action<Problem>('update-contact', body, withKey(k));
    assert.equal(first.status, 404);
    await ws.action('create-contact', { phone: '+14155550101' });
    const retry = await ws.action<Problem>('update-contact', body, withKey(k));
    assert.equal(retry.status, 404);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.match(String(retry.headers['content-type']), /^application\/problem\+json/);
    assert.equal(retry.text, first.text);
    const contact = await ws.action<Contact>('get-contact', { phone: '+14155550101' });
    assert.equal(contact.body.name, null, 'the replayed update did not run');
  });

  test('Idempotency-Key › the same key with a different body is 422 idempotency_key_reused and writes nothing', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    assert.equal((await ws.action('create-contact', { phone: '+14155550102' }, withKey(k))).status, 201);
    const reused = await ws.action<Problem>('create-contact', { phone: '+14155550103' }, withKey(k));
    assert.equal(reused.status, 422);
    assert.match(String(reused.headers['content-type']), /^application\/problem\+json/);
    assert.equal(reused.body.code, 'idempotency_key_reused');
    const otherEndpoint = await ws.action<Problem>('search-contacts', {}, withKey(k));
    assert.equal(otherEndpoint.status, 422, 'the key is bound to its endpoint too');
    assert.equal(otherEndpoint.body.code, 'idempotency_key_reused');
    const contacts = await ws.action<Contact[]>('search-contacts', {});
    assert.deepEqual(
      contacts.body.map((c) => c.phone),
      ['+14155550102'],
    );
  });

  test('Idempotency-Key › after 24 hours the key is fresh and the request runs again', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    const body = { phone: '+14155550104', name: 'Ada' };
    const first = await ws.action<Contact>('create-contact', body, withKey(k));
    await ws.action('update-contact', { contact_id: first.body.id, name: 'Renamed' });

    server.clock.advance(DAY_MS - 60_000);
    const within = await ws.action<Contact>('create-contact', body, withKey(k));
    assert.equal(within.headers['idempotent-replayed'], 'true', 'still replayed just under 24 h');

    server.clock.advance(2 * 60_000);
    const later = await ws.action<Contact>('create-contact', body, withKey(k));
    assert.equal(later.status, 200, 'ran again: the contact exists now, so the upsert answers 200');
    assert.equal(later.headers['idempotent-replayed'], undefined);
    assert.equal(later.body.name, 'Ada');
    const changed = await ws.action<Contact>('create-contact', { ...body, name: 'Other' }, withKey(k));
    assert.equal(changed.status, 422, 'the fresh use is stored in turn');
  });

  test('Idempotency-Key › keys are per workspace', async () => {
    const mine = await createWorkspace(server);
    const theirs = await createWorkspace(server);
    const k = key();
    const a = await mine.action<Contact>('create-contact', { phone: '+14155550105', name: 'Mine' }, withKey(k));
    const b = await theirs.action<Contact>('create-contact', { phone: '+14155550106', name: 'Theirs' }, withKey(k));
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal(b.headers['idempotent-replayed'], undefined);
    assert.equal(b.body.name, 'Theirs');
    assert.notEqual(b.body.id, a.body.id);
  });

  test('Idempotency-Key › keys are per caller: another token sending the same key runs as its own request', async () => {
    const mine = await createWorkspace(server);
    const other = await secondToken(mine);
    const k = key();
    const body = { phone: '+14155550110', name: 'Ada' };
    const first = await mine.action<Contact>('create-contact', body, withKey(k));
    assert.equal(first.status, 201);
    await mine.action('update-contact', { contact_id: first.body.id, name: 'Renamed' });

    const theirs = await other.action<Contact>('create-contact', body, withKey(k));
    assert.equal(theirs.headers['idempotent-replayed'], undefined, "not the first caller's stored response");
    assert.equal(theirs.status, 200, 'ran: the contact exists, so the upsert answers 200');
    assert.equal(theirs.body.name, 'Ada');
    const otherBody = await other.action<Contact>('create-contact', { phone: '+14155550111' }, withKey(k));
    assert.equal(otherBody.status, 422, 'the key is now theirs too, bound to their first request');
    const replayed = await mine.action<Contact>('create-contact', body, withKey(k));
    assert.equal(replayed.headers['idempotent-replayed'], 'true', 'the first caller still gets its own response');
    assert.equal(replayed.text, first.text);
  });

  test("Idempotency-Key › a dashboard session and its user's token are different callers", async () => {
    const session = await ownerSession(server);
    const k = key();
    const viaSession = await session.send<Contact>(
      'POST',
      '/api/v1/actions/create-contact',
      { phone: '+14155550112' },
      withKey(k),
    );
    assert.equal(viaSession.status, 201, viaSession.text);
    const { workspaceId, userId } = session;
    const issued = await services.tokens.create({ workspaceId, userId, name: 'api' });
    const viaToken = await server.http.send<Contact>('POST', '/api/v1/actions/create-contact', {
      token: issued.token,
      body: { phone: '+14155550113' },
      headers: withKey(k),
    });
    assert.equal(viaToken.status, 201, viaToken.text);
    assert.equal(viaToken.headers['idempotent-replayed'], undefined);
  });

  test("Idempotency-Key › a new webhook's secret is not stored: the retry is a 409 without it, and nothing runs twice", async () => {
    const ws = await createWorkspace(server);
    const k = key();
    const body = { url: 'https://203.0.113.10/hook', events: ['new-message-received'] };
    const created = await ws.action<{ id: string; secret: string }>('create-webhook', body, withKey(k));
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.secret, /^whsec_/);

    const retry = await ws.action<Problem & { status: number }>('create-webhook', body, withKey(k));
    assert.equal(retry.status, 409);
    assert.match(String(retry.headers['content-type']), /^application\/problem\+json/);
    assert.equal(retry.body.code, 'idempotency_secret_withheld');
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.ok(!retry.text.includes(created.body.secret), 'the secret is not shown again');
    assert.equal((await ws.action<unknown[]>('list-webhooks')).body.length, 1, 'one webhook');
    const reused = await ws.action<Problem>(
      'create-webhook',
      { ...body, url: 'https://203.0.113.11/hook' },
      withKey(k),
    );
    assert.equal(reused.body.code, 'idempotency_key_reused', 'the key stays bound to its request');

    const rows = await storedKeys(ws.workspaceId);
    assert.equal(rows.length, 1);
    assert.deepEqual([rows[0]!.status_code, rows[0]!.response_body], [200, null]);
    assert.ok(!JSON.stringify(rows).includes(created.body.secret.slice('whsec_'.length)), 'the row holds no secret');
  });

  test('Idempotency-Key › a refused request on a secret-bearing route is stored and replayed as usual', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    const body = { url: 'https://10.1.2.3/hook', events: ['new-message-received'] };
    const refused = await ws.action<Problem>('create-webhook', body, withKey(k));
    assert.equal(refused.status, 400, refused.text);
    const retry = await ws.action<Problem>('create-webhook', body, withKey(k));
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.text, refused.text);
  });

  test('Idempotency-Key › a dashboard token and an invitation are not stored: their retries are 409s without them', async () => {
    const session = await ownerSession(server);
    const tokenKey = key();
    const issued = await session.send<{ token: string }>(
      'POST',
      '/api/dashboard/tokens',
      { name: 'ci' },
      withKey(tokenKey),
    );
    assert.equal(issued.status, 200, issued.text);
    const tokenRetry = await session.send<Problem>('POST', '/api/dashboard/tokens', { name: 'ci' }, withKey(tokenKey));
    assert.equal(tokenRetry.status, 409);
    assert.equal(tokenRetry.body.code, 'idempotency_secret_withheld');
    assert.ok(!tokenRetry.text.includes(issued.body.token));
    assert.equal((await session.send<unknown[]>('GET', '/api/dashboard/tokens')).body.length, 1, 'one token minted');

    const inviteKey = key();
    const invite = { email: `member-${randomUUID()}@example.com`, role: 'member' };
    const invited = await session.send<{ token: string }>('POST', '/api/dashboard/invites', invite, withKey(inviteKey));
    assert.equal(invited.status, 200, invited.text);
    const inviteRetry = await session.send<Problem>('POST', '/api/dashboard/invites', invite, withKey(inviteKey));
    assert.equal(inviteRetry.status, 409);
    assert.equal(inviteRetry.body.code, 'idempotency_secret_withheld');
    assert.ok(!inviteRetry.text.includes(invited.body.token));

    const stored = JSON.stringify(await storedKeys(session.workspaceId));
    assert.ok(!stored.includes(issued.body.token.slice('parley_'.length)), 'no row holds the API token');
    assert.ok(!stored.includes(invited.body.token), 'no row holds the invitation token');
  });

  test('Idempotency-Key › an invalid key is a 400 naming the header, and nothing is written', async () => {
    const ws = await createWorkspace(server);
    for (const bad of ['k'.repeat(300), 'has space', '']) {
      const res = await ws.action<Problem>('create-contact', { phone: '+14155550107' }, withKey(bad));
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(
        res.body.errors?.map((e) => e.field),
        ['Idempotency-Key'],
      );
    }
    assert.deepEqual((await ws.action('search-contacts', {})).body, []);
    const longest = await ws.action('create-contact', { phone: '+14155550107' }, withKey('k'.repeat(255)));
    assert.equal(longest.status, 201, '255 characters is allowed');
  });

  test('Idempotency-Key › a request refused by validation does not use up the key', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    assert.equal((await ws.action('create-contact', { phone: 12 }, withKey(k))).status, 400);
    const fixed = await ws.action('create-contact', { phone: '+14155550108' }, withKey(k));
    assert.equal(fixed.status, 201);
    assert.equal(fixed.headers['idempotent-replayed'], undefined);
  });

  test('Idempotency-Key › a claim left by a request that died holds the key for a minute, then frees it', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    const body = { phone: '+14155550104', name: 'Orphan' };
    // What a crash between claiming the key and storing the response leaves behind.
    await server.app.services.deps.db
      .insertInto('idempotency_keys')
      .values({
        workspace_id: ws.workspaceId,
        caller: ws.tokenId,
        key: k,
        fingerprint: 'left by a crashed request',
        created_at: server.clock.now().toISOString(),
      })
      .execute();
    const soon = await ws.action<Problem>('create-contact', body, withKey(k));
    assert.equal(soon.status, 422, 'a different fingerprint is still a reused key while the claim is fresh');
    server.clock.advance(61_000);
    const later = await ws.action<Contact>('create-contact', body, withKey(k));
    assert.equal(later.status, 201);
    assert.equal(later.body.name, 'Orphan');
  });

  test('Idempotency-Key › concurrent duplicates do the work once', async () => {
    const ws = await createWorkspace(server);
    const k = key();
    const body = { phone: '+14155550109', tags: 'a' };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => ws.action<Contact & Problem>('create-contact', body, withKey(k))),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length >= 1, true, statuses.join());
    for (const res of results) {
      if (res.status === 409) assert.equal(res.body.code, 'idempotency_request_in_progress');
      else assert.equal(res.status, 201, res.text);
    }
    const executed = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    assert.equal(executed.length, 1, 'exactly one request did the work');
    assert.equal((await ws.action<Contact[]>('search-contacts', {})).body.length, 1);
  });
});
