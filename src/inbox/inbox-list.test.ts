import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();

interface ListAnswer {
  conversations: { contact_id: string; phone: string }[];
}

/** A customer writes to the session's workspace through its simulator. */
const customerWrites = (session: DashboardSession, from: string, text: string) =>
  server.app.services.inbound.simulateInbound({ workspaceId: session.workspaceId }, { from, text });

const phones = async (session: DashboardSession, query: string) => {
  const response = await session.send<ListAnswer>('GET', `/api/dashboard/conversations?${query}`);
  assert.equal(response.status, 200, response.text);
  return response.body.conversations.map((c) => c.phone);
};

describe(`inbox list (${ENGINE})`, () => {
  test('search finds names, numbers and message text, only in the own workspace; the unread count is per workspace', async () => {
    const shop = await ownerSession(server);
    const other = await ownerSession(server);
    await customerWrites(shop, '+14155550601', 'My parcel 8812 never came');
    const thanks = await customerWrites(shop, '+14155550602', 'Thanks!');
    await customerWrites(other, '+14155550603', 'Parcel 8812 is mine too');

    assert.deepEqual(await phones(shop, 'q=PARCEL%208812'), ['+14155550601']);
    assert.deepEqual(await phones(shop, 'q=555-0602'), ['+14155550602']);
    assert.deepEqual(await phones(other, 'q=parcel'), ['+14155550603']);
    // LIKE's wildcards are searched for literally.
    assert.deepEqual(await phones(shop, 'q=%25'), []);

    const unread = async (session: DashboardSession) =>
      (await session.send<{ conversations: number }>('GET', '/api/dashboard/inbox/unread')).body;
    assert.deepEqual(await unread(shop), { conversations: 2 });
    await shop.send('POST', `/api/dashboard/conversations/${thanks.contact_id}/read`);
    assert.deepEqual(await unread(shop), { conversations: 1 });
    assert.deepEqual(await phones(shop, 'filter=unread'), ['+14155550601']);
    assert.deepEqual(await unread(other), { conversations: 1 });
  });

  test('conversations › bad filter, number or search is a 400 naming the field, in the one error shape', async () => {
    const shop = await ownerSession(server);
    for (const [query, field] of [
      ['filter=everything', 'filter'],
      ['channel_id=not-a-number', 'channel_id'],
      [`q=${'x'.repeat(201)}`, 'q'],
    ] as const) {
      const response = await shop.send<{ code: string; errors: { field: string }[] }>(
        'GET',
        `/api/dashboard/conversations?${query}`,
      );
      assert.equal(response.status, 400, query);
      assert.equal(response.body.code, 'validation_failed');
      assert.equal(response.body.errors[0]?.field, field, query);
    }
  });
});
