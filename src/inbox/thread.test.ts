import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { createTemplate } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { InboxMessage } from './inbox.presenter.js';
import type { ConversationNote } from './notes.js';

const server = await startServer();
const { scheduler } = server.app.services;

interface Thread {
  messages: InboxMessage[];
  notes: ConversationNote[];
  next_before: string | null;
}

const action = async <T>(session: DashboardSession, name: string, body: object) => {
  const response = await session.send<T>('POST', `/api/v1/actions/${name}`, body);
  assert.equal(response.status, 200, `${name}: ${response.text}`);
  return response.body;
};
const threadOf = async (session: DashboardSession, contactId: string, before?: string) => {
  const query = before ? `?before=${encodeURIComponent(before)}` : '';
  const response = await session.send<Thread>('GET', `/api/dashboard/conversations/${contactId}${query}`);
  assert.equal(response.status, 200, response.text);
  return response.body;
};
/** A customer writing in on the workspace's simulator; returns the contact's id. */
const customerWrites = async (session: DashboardSession, phone: string, text: string) =>
  (await action<{ contact_id: string }>(session, 'simulate-inbound-message', { phone, text })).contact_id;

describe(`inbox thread (${ENGINE})`, () => {
  test('thread › campaign and sequence messages name them, an opt-out confirmation Parley, a member’s reply the member', async () => {
    const session = await ownerSession(server);
    const template = await createTemplate(server.app.services, session.workspaceId);
    const contactId = await customerWrites(session, '+4915112348001', 'Hello');
    await action(session, 'add-tag', { contact_id: contactId, tag: 'vip' });
    await action(session, 'create-campaign', {
      name: 'Spring sale',
      template_id: template.id,
      variables: ['friend', 'SPRING'],
      audience: { tag: 'vip' },
    });
    const drip = await action<{ id: string }>(session, 'save-sequence', {
      name: 'Onboarding',
      steps: [{ action: { type: 'send_template', template_id: template.id, variables: ['friend', 'WELCOME'] } }],
    });
    await action(session, 'trigger-sequence', { sequence_id: drip.id, contact_id: contactId });
    await scheduler.runDue(session.workspaceId);
    await action(session, 'send-text-message', { contact_id: contactId, message: 'Welcome!' });
    await customerWrites(session, '+4915112348001', 'STOP');

    const { messages } = await threadOf(session, contactId);
    const senders = messages.map((m) => [m.direction, m.sender && [m.sender.type, m.sender.name]]);
    assert.deepEqual(senders, [
      ['inbound', null],
      ['outbound', ['campaign', 'Spring sale']],
      ['outbound', ['sequence', 'Onboarding']],
      ['outbound', ['user', session.email]],
      ['inbound', null],
      ['outbound', ['system', '']],
    ]);
  });

  test('notes › written by staff, shown on the page of their stretch of time; empty is a 400 naming the field', async () => {
    const session = await ownerSession(server);
    const contactId = await customerWrites(session, '+4915112348002', 'Message 1');
    const note = (body: string) => session.send('POST', `/api/dashboard/conversations/${contactId}/notes`, { body });
    server.clock.advance(1000);
    assert.equal((await note('Early note')).status, 200);
    for (let n = 2; n <= 60; n++) {
      server.clock.advance(1000);
      await customerWrites(session, '+4915112348002', `Message ${n}`);
    }
    server.clock.advance(1000);
    assert.equal((await note('Late note')).status, 200);

    const newest = await threadOf(session, contactId);
    assert.deepEqual(
      newest.notes.map((n) => [n.body, n.author?.name]),
      [['Late note', session.email]],
    );
    const older = await threadOf(session, contactId, newest.next_before!);
    assert.deepEqual(
      older.notes.map((n) => n.body),
      ['Early note'],
    );

    const empty = await note('   ');
    assert.equal(empty.status, 400, empty.text);
    assert.equal((empty.body as { errors: { field: string }[] }).errors[0]?.field, 'body');
  });

  test('notes › another workspace can neither write nor read them (404 like an unknown contact)', async () => {
    const owner = await ownerSession(server);
    const stranger = await ownerSession(server);
    const contactId = await customerWrites(owner, '+4915112348003', 'Private matter');
    await owner.send('POST', `/api/dashboard/conversations/${contactId}/notes`, { body: 'Owner only' });
    const written = await stranger.send('POST', `/api/dashboard/conversations/${contactId}/notes`, { body: 'Theirs' });
    assert.equal(written.status, 404, written.text);
    const read = await stranger.send('GET', `/api/dashboard/conversations/${contactId}`);
    assert.equal(read.status, 404, read.text);
    const { notes } = await threadOf(owner, contactId);
    assert.deepEqual(
      notes.map((n) => n.body),
      ['Owner only'],
    );
  });
});
