import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace, recordInboundMessage } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Contact } from './contact.schema.js';

const server = await startServer();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

describe(`contacts (${ENGINE})`, () => {
  test('create-contact › creates with E.164 phone, comma-separated tags and metadata (201)', async () => {
    const ws = await createWorkspace(server);
    const res = await ws.action<Contact>('create-contact', {
      phone: '+1 (415) 555-0100',
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      tags: 'vip, fr',
      metadata: { plan: 'pro', seats: 3 },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.phone, '+14155550100');
    assert.equal(res.body.email, 'ada@example.com');
    assert.deepEqual(res.body.tags, ['fr', 'vip']);
    assert.deepEqual(res.body.custom_attributes, { plan: 'pro', seats: 3 });
    assert.equal(res.body.last_message_at, null);
    assert.match(res.body.created_at, TIMESTAMP);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
  });

  test('create-contact › is an upsert keyed by phone: formatting variants are the same contact', async () => {
    const ws = await createWorkspace(server);
    const first = await ws.action<Contact>('create-contact', { phone: '+14155550101', name: 'Ada', tags: ['a'] });
    const second = await ws.action<Contact>('create-contact', {
      phone: '+1 415-555-0101',
      email: 'ada@example.com',
      tags: 'b',
      metadata: { x: 1 },
    });
    assert.equal(second.status, 200);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.body.name, 'Ada', 'absent fields are kept');
    assert.equal(second.body.email, 'ada@example.com');
    assert.deepEqual(second.body.tags, ['a', 'b'], 'tags are added on upsert');
  });

  test('create-contact › rejects an invalid phone with 400 naming the field, writing nothing', async () => {
    const ws = await createWorkspace(server);
    const res = await ws.action('create-contact', { phone: '12', name: 'Nobody' });
    assert.equal(res.status, 400);
    assert.equal((res.body as { code: string }).code, 'validation_failed');
    assert.deepEqual((res.body as { errors: object[] }).errors, [
      {
        field: 'phone',
        message: 'must be a valid international phone number, e.g. +14155550100',
        code: 'contacts.phone_format',
      },
    ]);
    const search = await ws.action<Contact[]>('search-contacts', {});
    assert.deepEqual(search.body, []);
  });

  test('create-contact › rejects wrong types and a missing phone with 400', async () => {
    const ws = await createWorkspace(server);
    for (const body of [{ name: 'No phone' }, { phone: 14155550100 }, { phone: '+14155550100', metadata: 'x' }]) {
      const res = await ws.action('create-contact', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((res.body as { code: string }).code, 'validation_failed');
    }
  });

  test('update-contact › by phone or id; only present fields; "" clears; tags replace; metadata merges', async () => {
    const ws = await createWorkspace(server);
    const created = await ws.action<Contact>('create-contact', {
      phone: '+447911123456',
      name: 'Grace',
      email: 'grace@example.com',
      tags: 'a,b',
      metadata: { keep: 1, drop: 2 },
    });
    const byPhone = await ws.action<Contact>('update-contact', {
      phone: '+44 7911 123456',
      email: '',
      tags: 'c',
      metadata: { drop: null, added: true },
    });
    assert.equal(byPhone.status, 200);
    assert.equal(byPhone.body.name, 'Grace');
    assert.equal(byPhone.body.email, null);
    assert.deepEqual(byPhone.body.tags, ['c']);
    assert.deepEqual(byPhone.body.custom_attributes, { keep: 1, added: true });

    const byId = await ws.action<Contact>('update-contact', {
      contact_id: created.body.id,
      phone: '+447911123457',
      name: '',
    });
    assert.equal(byId.body.phone, '+447911123457', 'with contact_id, phone changes the number');
    assert.equal(byId.body.name, null);
  });

  test('update-contact › 404 for an unknown contact, 409 when the new phone is taken', async () => {
    const ws = await createWorkspace(server);
    const missing = await ws.action('update-contact', { phone: '+14155550199', name: 'x' });
    assert.equal(missing.status, 404);
    assert.equal((missing.body as { code: string }).code, 'not_found');
    const a = await ws.action<Contact>('create-contact', { phone: '+14155550111' });
    await ws.action('create-contact', { phone: '+14155550112' });
    const clash = await ws.action('update-contact', { contact_id: a.body.id, phone: '+14155550112' });
    assert.equal(clash.status, 409);
    const neither = await ws.action('update-contact', { name: 'x' });
    assert.equal(neither.status, 400);
  });

  test('get-contact › by id, phone or email; exactly one key', async () => {
    const ws = await createWorkspace(server);
    const created = await ws.action<Contact>('create-contact', {
      phone: '+33612345678',
      email: 'marie@example.fr',
      tags: 'vip, Fleurs, abonnée',
      metadata: { ville: 'Lyon' },
    });
    for (const body of [
      { contact_id: created.body.id },
      { phone: '0033 6 12 34 56 78' },
      { email: 'MARIE@example.fr' },
    ]) {
      const res = await ws.action<Contact>('get-contact', body);
      assert.equal(res.status, 200, JSON.stringify(body));
      // Every key answers the whole contact, its tags alphabetical, as create-contact showed it.
      assert.deepEqual(res.body, created.body, JSON.stringify(body));
    }
    assert.deepEqual(created.body.tags, ['abonnée', 'Fleurs', 'vip']);
    const none = await ws.action('get-contact', {});
    assert.equal(none.status, 400);
    const two = await ws.action('get-contact', { phone: '+33612345678', email: 'marie@example.fr' });
    assert.equal(two.status, 400);
    const emptyIgnored = await ws.action<Contact>('get-contact', { contact_id: '', phone: '+33612345678' });
    assert.equal(emptyIgnored.status, 200, 'empty strings from integration tools count as absent');
    const unknown = await ws.action('get-contact', { email: 'nobody@example.fr' });
    assert.equal(unknown.status, 404);
    for (const body of [{ contact_id: '0190a7e8-0000-7000-8000-000000000000' }, { phone: '+33699999999' }]) {
      assert.equal((await ws.action('get-contact', body)).status, 404, JSON.stringify(body));
    }
  });

  test('add-tag / remove-tag › create unknown tags, are idempotent, accept contact_id or phone', async () => {
    const ws = await createWorkspace(server);
    const created = await ws.action<Contact>('create-contact', { phone: '+14155550120' });
    const added = await ws.action<Contact>('add-tag', { phone: '+14155550120', tag: 'Newsletter' });
    assert.deepEqual(added.body.tags, ['Newsletter']);
    const again = await ws.action<Contact>('add-tag', { contact_id: created.body.id, tag: 'newsletter' });
    assert.deepEqual(again.body.tags, ['Newsletter'], 'tag names compare case-insensitively');
    const removed = await ws.action<Contact>('remove-tag', { contact_id: created.body.id, tag: 'NEWSLETTER' });
    assert.deepEqual(removed.body.tags, []);
    const absent = await ws.action<Contact>('remove-tag', { contact_id: created.body.id, tag: 'never-existed' });
    assert.equal(absent.status, 200);
    const unknownContact = await ws.action('add-tag', { phone: '+14155550999', tag: 'x' });
    assert.equal(unknownContact.status, 404);
  });

  test('search-contacts › substring of name, phone or email; AND filters; "" is no filter', async () => {
    const ws = await createWorkspace(server);
    await ws.action('create-contact', {
      phone: '+14155550130',
      name: 'Ada Lovelace',
      email: 'ada@math.org',
      tags: 'vip',
    });
    await ws.action('create-contact', { phone: '+14155550131', name: 'Alan Turing', email: 'alan@math.org' });
    await ws.action('create-contact', {
      phone: '+442071838750',
      name: 'Grace Hopper',
      email: 'grace@navy.mil',
      tags: 'vip',
    });
    const names = async (body: object) =>
      (await ws.action<Contact[]>('search-contacts', body)).body.map((c) => c.name).sort();

    assert.deepEqual(await names({ query: 'LOVE' }), ['Ada Lovelace']);
    assert.deepEqual(await names({ query: 'math.org' }), ['Ada Lovelace', 'Alan Turing']);
    assert.deepEqual(await names({ query: '2071838' }), ['Grace Hopper'], 'phone substring');
    assert.deepEqual(await names({ query: '(415) 555-013' }), ['Ada Lovelace', 'Alan Turing'], 'formatted phone query');
    assert.deepEqual(await names({ query: 'ac' }), ['Ada Lovelace', 'Grace Hopper'], 'two-character query');
    assert.deepEqual(await names({ tag: 'VIP' }), ['Ada Lovelace', 'Grace Hopper']);
    assert.deepEqual(await names({ query: 'math', tag: 'vip' }), ['Ada Lovelace'], 'filters combine with AND');
    assert.deepEqual(await names({ email: 'ALAN@math.org' }), ['Alan Turing']);
    assert.deepEqual(await names({ query: '', tag: '', email: '' }), ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    assert.deepEqual(await names({ tag: 'no-such-tag' }), []);
    assert.deepEqual(await names({ query: '100%_' }), [], 'LIKE wildcards are literal');
  });

  test('search-contacts › digits match phones in order, and names or emails that hold them', async () => {
    const ws = await createWorkspace(server);
    const gramOrder = await ws.action<Contact>('create-contact', { phone: '+14152341234', name: 'Gram Order' });
    await ws.action('create-contact', { phone: '+14155550132', name: 'Bob', email: 'bob1985@example.org' });
    const names = async (query: string) =>
      (await ws.action<Contact[]>('search-contacts', { query })).body.map((c) => c.name).sort();

    assert.deepEqual(await names('2341234'), ['Gram Order']);
    // +14152341234 holds both 1234 and 2341, but not 12341.
    assert.deepEqual(await names('12341'), []);
    assert.deepEqual(await names('1985'), ['Bob'], 'digits inside an email');
    assert.deepEqual(await names('+1 415'), ['Bob', 'Gram Order']);
    assert.deepEqual(await names('234'), ['Gram Order'], 'three digits');
    assert.deepEqual(await names('+14'), ['Bob', 'Gram Order'], 'a plus and two digits');

    const moved = await ws.action('update-contact', { contact_id: gramOrder.body.id, phone: '+14159876543' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(await names('2341234'), [], 'the old number is no longer indexed');
    assert.deepEqual(await names('9876543'), ['Gram Order']);
  });

  test('search-contacts › newest conversation first, never-messaged last, at most 50; by a tag too', async () => {
    const ws = await createWorkspace(server);
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      const phone = `+1415555${String(1000 + i)}`;
      const res = await ws.action<Contact>('create-contact', { phone, name: `C${i}`, tags: ['club'] });
      ids.push(res.body.id);
    }
    // Tagged before they wrote: the tag's links follow each contact's latest message.
    await recordInboundMessage(server, ws.workspaceId, ids[3]!);
    server.clock.advance(1000);
    await recordInboundMessage(server, ws.workspaceId, ids[7]!);
    for (const filter of [{}, { tag: 'club' }]) {
      const res = await ws.action<Contact[]>('search-contacts', filter);
      assert.equal(res.body.length, 50);
      assert.deepEqual(
        res.body.slice(0, 2).map((c) => c.name),
        ['C7', 'C3'],
      );
      assert.ok(res.body.slice(2).every((c) => c.last_message_at === null));
      assert.match(res.body[0]!.last_message_at!, TIMESTAMP);
    }
  });

  test('search-contacts › a substring matching thousands still returns the 50 newest conversations', async () => {
    const ws = await createWorkspace(server);
    const { db, newId } = server.app.services.deps;
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    const rows = Array.from({ length: 5200 }, (_, i) => ({
      id: newId(),
      workspace_id: ws.workspaceId,
      phone: `+1415${String(2000000 + i)}`,
      name: `Common Smith ${i}`,
      email: null,
      custom_attributes: '{}',
      opted_out_at: null,
      // Every third contact has talked to us, the newest being the highest i.
      last_message_at: i % 3 === 0 ? new Date(base + i * 1000).toISOString() : null,
      last_inbound_at: null,
      created_at: new Date(base).toISOString(),
      updated_at: new Date(base).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('contacts')
        .values(rows.slice(i, i + 500))
        .execute();
    const res = await ws.action<Contact[]>('search-contacts', { query: 'mon smi' });
    assert.equal(res.body.length, 50);
    assert.deepEqual(
      res.body.slice(0, 3).map((c) => c.name),
      ['Common Smith 5199', 'Common Smith 5196', 'Common Smith 5193'],
    );
    const fragment = await ws.action<Contact[]>('search-contacts', { query: 'MIT' });
    assert.deepEqual(
      fragment.body.map((c) => c.name),
      res.body.map((c) => c.name),
    );
    const rare = await ws.action<Contact[]>('search-contacts', { query: 'Smith 4242' });
    assert.deepEqual(
      rare.body.map((c) => c.name),
      ['Common Smith 4242'],
    );
    const everyPhone = await ws.action<Contact[]>('search-contacts', { query: '+1 415' });
    assert.equal(everyPhone.body.length, 50);
    assert.equal(everyPhone.body[0]!.name, 'Common Smith 5199');
    const onePhone = await ws.action<Contact[]>('search-contacts', { query: '200-4242' });
    assert.deepEqual(
      onePhone.body.map((c) => c.name),
      ['Common Smith 4242'],
    );
  });

  test('search-contacts › a tag held by thousands or by a few, alone or with a substring: the 50 newest', async () => {
    const ws = await createWorkspace(server);
    const { db, newId } = server.app.services.deps;
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    // Past the full-text index's threshold (2,000 matches); links are written as tagging writes them, with
    // their contact's last_message_at.
    const contacts = Array.from({ length: 5200 }, (_, i) => ({
      id: newId(),
      workspace_id: ws.workspaceId,
      phone: `+1415${String(3000000 + i)}`,
      name: i % 2 === 0 ? `Even Kowalski ${i}` : `Odd Nowak ${i}`,
      email: null,
      custom_attributes: '{}',
      opted_out_at: null,
      last_message_at: i % 5 === 0 ? null : new Date(base + i * 1000).toISOString(),
      last_inbound_at: null,
      created_at: new Date(base).toISOString(),
      updated_at: new Date(base).toISOString(),
    }));
    const at = new Date(base).toISOString();
    const tags = { common: newId(), rare: newId() };
    await db
      .insertInto('tags')
      .values([
        { id: tags.common, workspace_id: ws.workspaceId, name: 'Customer', name_key: 'customer', created_at: at },
        { id: tags.rare, workspace_id: ws.workspaceId, name: 'VIP', name_key: 'vip', created_at: at },
      ])
      .execute();
    const holders = { common: (i: number) => i % 4 < 2, rare: (i: number) => i % 87 === 0 };
    const links = contacts.flatMap((contact, i) =>
      [
        ...(holders.common(i) ? [{ tag_id: tags.common }] : []),
        ...(holders.rare(i) ? [{ tag_id: tags.rare }] : []),
      ].map((link) => ({ ...link, contact_id: contact.id, created_at: at, last_message_at: contact.last_message_at })),
    );
    for (let i = 0; i < contacts.length; i += 500)
      await db
        .insertInto('contacts')
        .values(contacts.slice(i, i + 500))
        .execute();
    for (let i = 0; i < links.length; i += 500)
      await db
        .insertInto('contact_tags')
        .values(links.slice(i, i + 500))
        .execute();
    // The expected order: newest conversation first, never-messaged last, then the newest id.
    const newest = (keep: (i: number) => boolean) =>
      contacts
        .map((contact, i) => ({ ...contact, i }))
        .filter(({ i }) => keep(i))
        .sort((a, b) =>
          a.last_message_at === b.last_message_at
            ? b.id.localeCompare(a.id)
            : a.last_message_at === null
              ? 1
              : b.last_message_at === null
                ? -1
                : b.last_message_at.localeCompare(a.last_message_at),
        )
        .slice(0, 50)
        .map((contact) => contact.name);
    const cases: [Record<string, string>, (i: number) => boolean][] = [
      [{ tag: 'customer' }, holders.common],
      [{ tag: 'vip' }, holders.rare],
      [{ tag: 'customer', query: 'kowalski' }, (i) => holders.common(i) && i % 2 === 0],
      [{ tag: 'VIP', query: 'nowak' }, (i) => holders.rare(i) && i % 2 === 1],
      [{ tag: 'vip', query: 'kowalski 52' }, (i) => holders.rare(i) && i % 2 === 0 && String(i).startsWith('52')],
    ];
    for (const [filters, keep] of cases) {
      const res = await ws.action<Contact[]>('search-contacts', filters);
      assert.deepEqual(
        res.body.map((c) => c.name),
        newest(keep),
        JSON.stringify(filters),
      );
    }
  });

  test('contacts › a foreign workspace id answers exactly like an unknown one', async () => {
    const mine = await createWorkspace(server);
    const theirs = await createWorkspace(server);
    const foreign = await theirs.action<Contact>('create-contact', { phone: '+14155550140', name: 'Secret' });
    const viaId = await mine.action<{ code: string; detail: string }>('get-contact', { contact_id: foreign.body.id });
    const unknown = await mine.action<{ code: string; detail: string }>('get-contact', {
      contact_id: '01900000-0000-7000-8000-000000000000',
    });
    assert.equal(viaId.status, 404);
    assert.deepEqual([viaId.body.code, viaId.body.detail], [unknown.body.code, unknown.body.detail]);
    assert.equal((await mine.action('get-contact', { phone: '+14155550140' })).status, 404);
    assert.deepEqual((await mine.action<Contact[]>('search-contacts', { query: 'Secret' })).body, []);
    assert.equal((await mine.action('add-tag', { contact_id: foreign.body.id, tag: 'x' })).status, 404);
    const still = await theirs.action<Contact>('get-contact', { contact_id: foreign.body.id });
    assert.deepEqual(still.body.tags, [], 'nothing changed in the other workspace');
  });
});
