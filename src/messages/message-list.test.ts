import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner } from '../../test/browser.js';
import { logInOverHttp } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Contact } from '../contacts/contact.schema.js';
import type { ListedMessage, Message } from './message.schema.js';

const server = await startServer();

interface Problem {
  code: string;
  errors?: { field: string }[];
}

describe(`list-messages (${ENGINE})`, () => {
  test('list-messages › returns both directions, newest first, at most `limit`', async () => {
    const ws = await createWorkspace(server);
    const phone = '+14155550120';
    const texts = ['first', 'second', 'third'];
    for (const text of texts) {
      server.clock.advance(1_000);
      assert.equal((await ws.action('simulate-inbound-message', { phone, text })).status, 200);
    }
    server.clock.advance(1_000);
    const reply = await ws.action<Message>('send-text-message', { phone, message: 'answer' });
    assert.equal(reply.status, 200, reply.text);

    const all = await ws.action<Message[]>('list-messages', { phone });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.map((message) => [message.direction, message.content.body]),
      [['outbound', 'answer'], ...[...texts].reverse().map((text) => ['inbound', text])],
    );
    const latest = await ws.action<Message[]>('list-messages', { contact_id: reply.body.contact_id, limit: 2 });
    assert.deepEqual(
      latest.body.map((message) => message.id),
      all.body.slice(0, 2).map((message) => message.id),
    );
  });

  test('list-messages › names who sent each outbound message; never lists a private note', async () => {
    const owner = await createOwner(server, 'Senders');
    const session = await logInOverHttp(server, owner);
    const api = await ownerApi(server, owner);
    const phone = '+14155550124';
    const inbound = await api.action<Message>('simulate-inbound-message', { phone, text: 'hello' });
    const { contact_id } = inbound.body;
    server.clock.advance(1_000);
    const byMember = await session.send('POST', '/api/v1/actions/send-text-message', { contact_id, message: 'member' });
    assert.equal(byMember.status, 200, byMember.text);
    const note = await session.send('POST', `/api/dashboard/conversations/${contact_id}/notes`, { body: 'staff only' });
    assert.equal(note.status, 200, note.text);
    server.clock.advance(1_000);
    assert.equal((await api.action('send-text-message', { contact_id, message: 'token' })).status, 200);

    const listed = await api.action<ListedMessage[]>('list-messages', { contact_id });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.map((message) => [message.content.body, message.sender]),
      [
        ['token', { type: 'api', id: api.tokenId, name: 'test' }],
        ['member', { type: 'user', id: owner.userId, name: owner.email }],
        ['hello', null],
      ],
    );
    assert.doesNotMatch(listed.text, /staff only/);
  });

  test('list-messages › a contact without messages has an empty list', async () => {
    const ws = await createWorkspace(server);
    const contact = await ws.action<Contact>('create-contact', { phone: '+14155550121' });
    const response = await ws.action<Message[]>('list-messages', { contact_id: contact.body.id });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
  });

  test("list-messages › another workspace's contact is a 404", async () => {
    const owner = await createWorkspace(server);
    const other = await createWorkspace(server);
    const message = await owner.action<Message>('simulate-inbound-message', { phone: '+14155550122', text: 'hi' });
    const response = await other.action<Problem>('list-messages', { contact_id: message.body.contact_id });
    assert.equal(response.status, 404);
    assert.equal(response.body.code, 'not_found');
    assert.equal((await other.action<Problem>('list-messages', { phone: '+14155550122' })).status, 404);
  });

  test('list-messages › refuses a limit outside 1–100 or no contact with 400', async () => {
    const ws = await createWorkspace(server);
    for (const [body, field] of [
      [{ phone: '+14155550123', limit: 101 }, 'limit'],
      [{ phone: '+14155550123', limit: 0 }, 'limit'],
      [{}, 'contact_id'],
    ] as const) {
      const response = await ws.action<Problem>('list-messages', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.errors?.[0]?.field, field);
    }
  });
});
