import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Contact } from '../src/contacts/contact.schema.js';
import type { Template } from '../src/templates/template.schema.js';
import {
  createCampaign,
  createFlow,
  createSequence,
  createWhatsappFlow,
  enrolInSequence,
  insertContact,
  recordFlowAnswer,
  startFlowRun,
} from './automation-factories.js';
import { createTemplate, createWorkspace, recordInboundMessage, type TestWorkspace } from './factories.js';
import { ENGINE, startServer, type HttpResponse, type TestServer } from './server.js';

const server = await startServer();

interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; code?: string; params?: Record<string, string | number> }[];
}
type FeedRecord = { id: string; created_at: string };

const FEEDS = [
  'new-message-received',
  'new-campaign-sent',
  'new-flow-triggered',
  'new-sequence-triggered',
  'new-whatsapp-flow-answer',
] as const;
const ids = (records: { id: string }[]) => records.map((r) => r.id);
const ascending = (values: string[]) => [...values].sort();

/** A path with its query string; undefined parameters are left out. */
function withQuery(path: string, query: { [name: string]: string | number | null | undefined }): string {
  const params = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] != null);
  return params.length === 0 ? path : `${path}?${new URLSearchParams(params.map(([k, v]) => [k, String(v)]))}`;
}

/** POST an action with query parameters, as `ws`. */
function action<T>(ws: TestWorkspace, name: string, body: object, query: Parameters<typeof withQuery>[1] = {}) {
  return server.http.send<T>('POST', withQuery(`/api/v1/actions/${name}`, query), { token: ws.token, body });
}

/** GET a trigger feed with query parameters, as `ws`. */
function feed<T>(ws: TestWorkspace, name: string, query: Parameters<typeof withQuery>[1] = {}) {
  return server.http.send<T>('GET', withQuery(`/api/v1/triggers/${name}`, query), { token: ws.token });
}

/** Follows next_cursor from the first page to the last; `onPage` runs after each page. */
async function pageThrough<T>(
  request: (cursor: string | undefined) => Promise<HttpResponse<Page<T>>>,
  onPage: (page: Page<T>) => Promise<void> = async () => {},
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const res = await request(cursor);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    pages.push(res.body.data);
    await onPage(res.body);
    cursor = res.body.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

/** Contacts written straight into the table in batches (10,000 through the API would take minutes). */
async function seedContacts(target: TestServer, workspaceId: string, count: number): Promise<string[]> {
  const { db, newId, clock } = target.app.services.deps;
  const at = clock.now().toISOString();
  const created: string[] = [];
  for (let from = 0; from < count; from += 500) {
    const rows = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({
      id: newId(),
      workspace_id: workspaceId,
      phone: `+1415${2_000_000 + from + i}`,
      name: `Seeded ${from + i}`,
      email: null,
      custom_attributes: '{}',
      opted_out_at: null,
      last_message_at: null,
      last_inbound_at: null,
      created_at: at,
      updated_at: at,
    }));
    await db.insertInto('contacts').values(rows).execute();
    created.push(...rows.map((row) => row.id));
  }
  return created;
}

/** Flips one character in the middle of a cursor (still base64url, no longer what was signed). */
function tamper(cursor: string): string {
  const i = Math.floor(cursor.length / 2);
  return cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
}

/** `rule`: why, as the field problem's code (`common.cursor_…`). */
function assertInvalidCursor(res: HttpResponse, label: string, rule: string): void {
  assert.equal(res.status, 400, `${label}: ${res.text}`);
  assert.equal((res.body as Problem).code, 'invalid_cursor', label);
  assert.equal((res.body as Problem).errors?.[0]?.field, 'cursor', label);
  assert.equal((res.body as Problem).errors?.[0]?.code, `common.${rule}`, label);
}

describe(`cursor pagination (${ENGINE})`, () => {
  test('search-contacts › 10,000 contacts paged while others are added and updated: each exactly once', async () => {
    const ws = await createWorkspace(server, { rateLimitPerMinute: 100_000 });
    const existing = await seedContacts(server, ws.workspaceId, 10_000);
    let round = 0;
    const added: string[] = [];
    // Between pages, and during the next page's request, contacts change in ways that would move
    // them in any order but id: messages (last_message_at), renames and tags (updated_at), new ones.
    const churn = async () => {
      round += 1;
      const pick = (k: number) => existing[(round * 7919 + k * 104_729) % existing.length]!;
      const writes: Promise<unknown>[] = [];
      for (let k = 0; k < 5; k++) {
        writes.push(recordInboundMessage(server, ws.workspaceId, pick(k)));
        writes.push(ws.action('update-contact', { contact_id: pick(k + 5), name: `Renamed ${round}.${k}` }));
        writes.push(ws.action('add-tag', { contact_id: pick(k + 10), tag: `round-${round}` }));
      }
      writes.push(
        ws.action<Contact>('create-contact', { phone: `+1415${7_000_000 + round}` }).then((res) => {
          assert.equal(res.status, 201);
          added.push(res.body.id);
        }),
      );
      await Promise.all(writes);
    };
    const pages = await pageThrough<Contact>(
      (cursor) =>
        Promise.all([
          action<Page<Contact>>(ws, 'search-contacts', {}, { paginate: 'cursor', limit: 500, cursor }),
          churn(),
        ]).then(([res]) => res),
      churn,
    );

    const seen = pages.flat().map((c) => c.id);
    const seenOnce = new Set(seen);
    assert.equal(seenOnce.size, seen.length, 'no contact appears twice');
    assert.deepEqual(seen, ascending(seen), 'pages run in id order');
    const unseen = existing.filter((id) => !seenOnce.has(id));
    assert.deepEqual(unseen, [], 'every contact that existed when paging began appears');
    const known = new Set([...existing, ...added]);
    assert.ok(
      seen.every((id) => known.has(id)),
      'nothing but contacts of the workspace',
    );
    assert.ok(
      pages.slice(0, 20).every((page) => page.length === 500),
      'full pages until the last',
    );
  });

  test('search-contacts › the default page is 50 contacts; filters apply to every page', async () => {
    const ws = await createWorkspace(server);
    for (let i = 0; i < 12; i++) {
      const res = await ws.action('create-contact', {
        phone: `+1415${3_000_000 + i}`,
        name: i % 2 ? `Ada ${i}` : `Grace ${i}`,
        email: i % 3 === 0 ? 'shared@example.com' : `c${i}@example.com`,
        tags: i % 4 === 0 ? ['vip', 'Alpha'] : [],
      });
      assert.equal(res.status, 201);
    }
    const all = await action<Page<Contact>>(ws, 'search-contacts', {}, { paginate: 'cursor' });
    assert.equal(all.body.data.length, 12);
    assert.equal(all.body.next_cursor, null, 'one page holds them all');
    const plain = await ws.action<Contact[]>('search-contacts', {});
    const byId = (list: Contact[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
    assert.deepEqual(all.body.data, byId(plain.body), 'the same contacts as the plain search, tags included');
    const crowded = await createWorkspace(server);
    await seedContacts(server, crowded.workspaceId, 51);
    const pages = await pageThrough<Contact>((cursor) =>
      action(crowded, 'search-contacts', {}, { paginate: 'cursor', cursor }),
    );
    assert.deepEqual(
      pages.map((page) => page.length),
      [50, 1],
      'pages of 50 by default, as the plain search',
    );

    const cases: [object, (c: Contact) => boolean][] = [
      [{ query: 'ADA' }, (c) => c.name!.startsWith('Ada')],
      [{ tag: 'VIP' }, (c) => c.tags.includes('vip')],
      [{ email: 'Shared@Example.com' }, (c) => c.email === 'shared@example.com'],
      [{ query: 'grace', tag: 'vip' }, (c) => c.name!.startsWith('Grace') && c.tags.includes('vip')],
      [{ tag: 'unknown' }, () => false],
    ];
    for (const [filters, matches] of cases) {
      const pages = await pageThrough<Contact>((cursor) =>
        action<Page<Contact>>(ws, 'search-contacts', filters, { paginate: 'cursor', limit: 2, cursor }),
      );
      const expected = all.body.data.filter(matches).map((c) => c.id);
      assert.deepEqual(ids(pages.flat()), expected, JSON.stringify(filters));
      assert.ok(
        pages.every((page, i) => page.length === 2 || i === pages.length - 1),
        `${JSON.stringify(filters)}: pages of 2`,
      );
    }
  });

  test('list-templates › pages in id order with name and status filters', async () => {
    const ws = await createWorkspace(server);
    const created: Template[] = [];
    for (let i = 0; i < 7; i++) {
      created.push(
        await createTemplate(server.app.services, ws.workspaceId, {
          name: `${i % 2 ? 'promo' : 'receipt'}_${i}`,
          translations: [{ language: 'en_US', status: i < 4 ? 'APPROVED' : 'PENDING', body: `Hello ${i}` }],
        }),
      );
    }
    const request = (body: object) => (cursor: string | undefined) =>
      action<Page<Template>>(ws, 'list-templates', body, { paginate: 'cursor', limit: 3, cursor });
    const pages = await pageThrough(request({}));
    assert.deepEqual(
      pages.map((page) => page.length),
      [3, 3, 1],
    );
    assert.deepEqual(ids(pages.flat()), ascending(ids(created)));
    assert.deepEqual(
      pages.flat()[0],
      created.find((t) => t.id === pages[0]![0]!.id),
      'the same records as get-template',
    );

    const promos = (await pageThrough(request({ name: 'PROMO', status: 'pending' }))).flat();
    assert.deepEqual(
      promos.map((t) => t.name),
      ['promo_5'],
    );
  });

  test('list-tags › pages in id order with the name filter', async () => {
    const ws = await createWorkspace(server);
    const names = Array.from({ length: 9 }, (_, i) => `${i % 3 ? 'team' : 'lead'}-${i}`);
    const res = await ws.action('create-contact', { phone: '+14155550100', tags: names });
    assert.equal(res.status, 201);
    const plain = await ws.action<{ id: string; name: string }[]>('list-tags', {});
    const pages = await pageThrough<{ id: string; name: string }>((cursor) =>
      action(ws, 'list-tags', {}, { paginate: 'cursor', limit: 4, cursor }),
    );
    assert.deepEqual(
      pages.map((page) => page.length),
      [4, 4, 1],
    );
    assert.deepEqual(ids(pages.flat()), ascending(ids(plain.body)), 'the same tags, in id order');
    const leads = await action<Page<{ name: string }>>(ws, 'list-tags', { name: 'LEAD' }, { paginate: 'cursor' });
    assert.deepEqual(leads.body.data.map((t) => t.name).sort(), ['lead-0', 'lead-3', 'lead-6']);
    assert.equal(leads.body.next_cursor, null);
  });

  test('triggers › each feed pages newest first across same-millisecond ties, filters applied', async () => {
    const ws = await createWorkspace(server, { pollIntervalSeconds: 0, rateLimitPerMinute: 100_000 });
    const contact = await insertContact(server, ws.workspaceId);
    const [flow, otherFlow] = [await createFlow(server, ws.workspaceId), await createFlow(server, ws.workspaceId)];
    const [sequence, otherSequence] = [
      await createSequence(server, ws.workspaceId),
      await createSequence(server, ws.workspaceId),
    ];
    const [form, otherForm] = [
      await createWhatsappFlow(server, ws.workspaceId),
      await createWhatsappFlow(server, ws.workspaceId),
    ];
    const inserted: { [feed in (typeof FEEDS)[number]]: string[] } = {
      'new-message-received': [],
      'new-campaign-sent': [],
      'new-flow-triggered': [],
      'new-sequence-triggered': [],
      'new-whatsapp-flow-answer': [],
    };
    for (let i = 0; i < 7; i++) {
      if (i % 3 === 0) server.clock.advance(1); // three records per millisecond
      const messageId = await recordInboundMessage(server, ws.workspaceId, contact, { type: i % 2 ? 'image' : 'text' });
      inserted['new-message-received'].push(messageId);
      inserted['new-campaign-sent'].push(await createCampaign(server, ws.workspaceId, { sent: true }));
      inserted['new-flow-triggered'].push(
        await startFlowRun(server, ws.workspaceId, i % 2 ? otherFlow : flow, { contactId: contact }),
      );
      inserted['new-sequence-triggered'].push(
        await enrolInSequence(server, ws.workspaceId, i % 2 ? otherSequence : sequence, { contactId: contact }),
      );
      inserted['new-whatsapp-flow-answer'].push(
        await recordFlowAnswer(server, ws.workspaceId, i % 2 ? otherForm : form, { contactId: contact, messageId }),
      );
    }
    for (const name of FEEDS) {
      const pages = await pageThrough<FeedRecord>((cursor) => feed(ws, name, { paginate: 'cursor', limit: 3, cursor }));
      assert.deepEqual(
        pages.map((page) => page.length),
        [3, 3, 1],
        name,
      );
      const plain = await feed<FeedRecord[]>(ws, name);
      assert.deepEqual(ids(pages.flat()), ids(plain.body), `${name}: the plain feed's records and order`);
      assert.deepEqual(ids(pages.flat()), [...inserted[name]].reverse(), `${name}: newest first`);
    }
    const even = (list: string[]) => list.filter((_, i) => i % 2 === 0).reverse();
    const filtered: [string, object, string[]][] = [
      ['new-message-received', { message_type: 'text' }, even(inserted['new-message-received'])],
      ['new-flow-triggered', { flow_id: flow.toUpperCase() }, even(inserted['new-flow-triggered'])],
      ['new-sequence-triggered', { sequence_id: sequence }, even(inserted['new-sequence-triggered'])],
      ['new-whatsapp-flow-answer', { whatsapp_flow_id: form }, even(inserted['new-whatsapp-flow-answer'])],
    ];
    for (const [name, filter, expected] of filtered) {
      const pages = await pageThrough<FeedRecord>((cursor) =>
        feed(ws, name, { ...filter, paginate: 'cursor', limit: 2, cursor }),
      );
      assert.deepEqual(ids(pages.flat()), expected, `${name} ${JSON.stringify(filter)}`);
    }
    const legacy = await server.http.send<Page<FeedRecord>>(
      'GET',
      '/api/zapier/triggers/new-campaign-sent?paginate=cursor&limit=1',
      { token: ws.token },
    );
    assert.deepEqual(ids(legacy.body.data), inserted['new-campaign-sent'].slice(-1), 'the legacy path pages too');
  });

  test('triggers › a follow-up page is not a poll; it counts against the token’s request budget', async () => {
    const ws = await createWorkspace(server, { pollIntervalSeconds: 30, rateLimitPerMinute: 4 });
    const contact = await insertContact(server, ws.workspaceId);
    for (let i = 0; i < 4; i++) await recordInboundMessage(server, ws.workspaceId, contact);
    const first = await feed<Page<FeedRecord>>(ws, 'new-message-received', { paginate: 'cursor', limit: 1 });
    assert.equal(first.status, 200);
    const poll = await feed<Problem>(ws, 'new-message-received', { paginate: 'cursor', limit: 1 });
    assert.equal(poll.status, 429, 'a first page is a poll');
    assert.equal(poll.body.code, 'poll_too_frequent');

    let cursor = first.body.next_cursor!;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const next = await feed<Page<FeedRecord>>(ws, 'new-message-received', { paginate: 'cursor', limit: 1, cursor });
      statuses.push(next.status);
      cursor = next.body.next_cursor ?? cursor;
    }
    // The budget is 4 a minute; polls do not use it (the refused one included), follow-up pages do.
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  });

  test('cursors › altered, foreign or garbage cursors are refused with 400 invalid_cursor', async () => {
    const ws = await createWorkspace(server, { pollIntervalSeconds: 0 });
    const other = await createWorkspace(server, { pollIntervalSeconds: 0 });
    for (const owner of [ws, other]) {
      for (let i = 0; i < 3; i++) await owner.action('create-contact', { phone: `+1415${4_000_000 + i}`, tags: ['a'] });
    }
    const search = (who: TestWorkspace, body: object, cursor: string) =>
      action(who, 'search-contacts', body, { paginate: 'cursor', limit: 1, cursor });
    const first = await action<Page<Contact>>(ws, 'search-contacts', { tag: 'a' }, { paginate: 'cursor', limit: 1 });
    const cursor = first.body.next_cursor!;
    assert.match(cursor, /^[A-Za-z0-9_-]+$/, 'base64url');
    assert.equal((await search(ws, { tag: 'a' }, cursor)).status, 200, 'the cursor itself works');

    const altered = 'cursor_altered';
    assertInvalidCursor(await search(ws, { tag: 'a' }, tamper(cursor)), 'one character changed', altered);
    assertInvalidCursor(await search(ws, { tag: 'a' }, cursor.slice(0, -2)), 'truncated', altered);
    assertInvalidCursor(await search(ws, { tag: 'a' }, 'bm90IGEgY3Vyc29y'), 'garbage', altered);
    assertInvalidCursor(await search(ws, { tag: 'a' }, randomBytes(120).toString('base64url')), 'random', altered);
    assertInvalidCursor(await search(other, { tag: 'a' }, cursor), 'another workspace', 'cursor_other_workspace');
    assertInvalidCursor(await search(ws, { tag: 'b' }, cursor), 'other filters', 'cursor_other_filters');
    assertInvalidCursor(await search(ws, {}, cursor), 'filters dropped', 'cursor_other_filters');
    const tags = await action<Problem>(ws, 'list-tags', {}, { paginate: 'cursor', cursor });
    assertInvalidCursor(tags, 'another endpoint', 'cursor_other_endpoint');
    assert.deepEqual(tags.body.errors?.[0]?.params, { endpoint: 'search-contacts' });
    assertInvalidCursor(
      await feed(ws, 'new-flow-triggered', { paginate: 'cursor', cursor }),
      'a feed',
      'cursor_other_endpoint',
    );
  });

  test('paging parameters › limits and misuse are 400s; without paginate the responses stay plain', async () => {
    const ws = await createWorkspace(server, { pollIntervalSeconds: 0 });
    await ws.action('create-contact', { phone: '+14155550100', tags: ['a'] });
    const refused: [string, Promise<HttpResponse>][] = [
      ['limit 501', action(ws, 'search-contacts', {}, { paginate: 'cursor', limit: 501 })],
      ['limit 0', action(ws, 'list-tags', {}, { paginate: 'cursor', limit: 0 })],
      ['limit not a number', action(ws, 'list-templates', {}, { paginate: 'cursor', limit: 'ten' })],
      ['limit 501 on a feed', feed(ws, 'new-campaign-sent', { paginate: 'cursor', limit: 501 })],
      ['limit without paginate', action(ws, 'search-contacts', {}, { limit: 10 })],
      ['cursor without paginate', feed(ws, 'new-message-received', { cursor: 'abc' })],
      ['another paginate value', action(ws, 'list-tags', {}, { paginate: 'offset' })],
      ['an empty paginate', feed(ws, 'new-sequence-triggered', { paginate: '' })],
    ];
    for (const [label, pending] of refused) {
      const res = await pending;
      assert.equal(res.status, 400, `${label}: ${res.text}`);
      assert.equal((res.body as Problem).code, 'validation_failed', label);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, label);
    }
    const limit = await action<Problem>(ws, 'search-contacts', {}, { paginate: 'cursor', limit: 501 });
    assert.match(limit.body.detail, /limit: must be an integer from 1 to 500/);
    assert.deepEqual(limit.body.errors?.[0]?.params, { max: 500 });
    assert.equal(limit.body.errors?.[0]?.code, 'requests.page_limit');
    const stray = await action<Problem>(ws, 'list-tags', {}, { cursor: 'abc' });
    assert.match(stray.body.detail, /cursor: applies only with paginate=cursor/);
    assert.equal(stray.body.errors?.[0]?.code, 'requests.only_with_cursor_paging');

    const max = await action<Page<Contact>>(ws, 'search-contacts', {}, { paginate: 'cursor', limit: 500 });
    assert.equal(max.status, 200, 'limit 500 is the largest page');
    for (const res of [
      await ws.action('search-contacts', {}),
      await ws.action('list-tags', {}),
      await ws.action('list-templates', {}),
      await ws.get('/v1/triggers/new-message-received'),
    ]) {
      assert.equal(res.status, 200);
      assert.ok(Array.isArray(res.body), 'a plain array, as the spec says');
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    }
  });

  test('paging parameters › an Idempotency-Key covers them: another page under the same key is a 422', async () => {
    const ws = await createWorkspace(server);
    for (let i = 0; i < 3; i++) await ws.action('create-contact', { phone: `+1415${6_000_000 + i}` });
    const send = (query: Parameters<typeof withQuery>[1]) =>
      server.http.send<Page<Contact>>('POST', withQuery('/api/v1/actions/search-contacts', query), {
        token: ws.token,
        body: {},
        headers: { 'idempotency-key': 'page-key' },
      });
    const first = await send({ paginate: 'cursor', limit: 1 });
    assert.equal(first.status, 200);
    const replay = await send({ paginate: 'cursor', limit: 1 });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.text, first.text);
    const next = await send({ paginate: 'cursor', limit: 1, cursor: first.body.next_cursor });
    assert.equal(next.status, 422, 'not the first page replayed');
  });

  test('cursors › a cursor from one server works on another with the same key and database, not another key', async () => {
    const ws = await createWorkspace(server);
    for (let i = 0; i < 3; i++) await ws.action('create-contact', { phone: `+1415${5_000_000 + i}` });
    const shared = {
      DATA_DIR: server.config.dataDir,
      ...(server.env.DATABASE_URL && { DATABASE_URL: server.env.DATABASE_URL }),
    };
    const twin = await startServer(shared);
    const stranger = await startServer({ ...shared, PARLEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    const first = await action<Page<Contact>>(ws, 'search-contacts', {}, { paginate: 'cursor', limit: 2 });
    const request = (target: TestServer) =>
      target.http.send<Page<Contact>>(
        'POST',
        withQuery('/api/v1/actions/search-contacts', {
          paginate: 'cursor',
          limit: 2,
          cursor: first.body.next_cursor,
        }),
        { token: ws.token, body: {} },
      );
    const next = await request(twin);
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.data.length, 1);
    assert.equal(next.body.next_cursor, null);
    assertInvalidCursor(await request(stranger), 'a server with another key', 'cursor_altered');
  });
});
