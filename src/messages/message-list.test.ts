import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Contact } from '../contacts/contact.schema.js';
import type { Message } from './message.schema.js';

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
