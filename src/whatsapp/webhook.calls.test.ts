import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import type { ConversationCall } from '../messages/message.schema.js';
import type { WorkspaceEvent } from '../workspace-events/event.schema.js';
import { callConnectWebhook, callStatusWebhook, callTerminateWebhook } from './webhook.calls-fixtures.js';

const { server, connect, postWebhook } = await startWhatsappServer();

const MINUTE = 60_000;
/** A fresh wa_id per test (German mobiles), so tests sharing a workspace never share a contact. */
const newWaId = () => `49151${String(randomInt(1e8)).padStart(8, '0')}`;
const newCallId = () => `wacid.HBgLMTY1MDM4Nzk0MzkVAgARGCA${randomInt(1e9)}`;

/** Posts Meta's body, signed; asserts Meta gets its 200 and returns Parley's outcome. */
async function deliver(body: object): Promise<Record<string, number>> {
  const response = await postWebhook<Record<string, number>>(body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function api<T>(session: DashboardSession, method: 'GET' | 'POST', path: string, body?: object) {
  const response = await session.send<T>(method, path, body);
  assert.equal(response.status, 200, `${path}: ${response.text}`);
  return response.body;
}

const contactOf = (session: DashboardSession, phone: string) =>
  api<{ id: string }>(session, 'POST', '/api/v1/actions/get-contact', { phone });

const callsOf = async (session: DashboardSession, contactId: string) =>
  (await api<{ calls: ConversationCall[] }>(session, 'GET', `/api/dashboard/conversations/${contactId}`)).calls;

/** A workspace's owner, with a number of its own on the stand-in. */
async function callingWorkspace() {
  const session = await ownerSession(server);
  const number = await connect(session.workspaceId);
  return { session, line: { phoneNumberId: number.phoneNumberId, wabaId: number.wabaId } };
}

describe(`WhatsApp calls (${ENGINE})`, () => {
  test('calls › a customer’s call is one entry in their conversation, built from its events whatever their order; no window, feed or automation', async () => {
    const { session, line } = await callingWorkspace();
    const customer = newWaId();
    const placed = new Date(Math.floor(server.clock.now().getTime() / 1000) * 1000 - 10 * MINUTE);
    const answered = { at: new Date(placed.getTime() + 5000), seconds: 95 };
    const step = { callId: newCallId(), customer, direction: 'USER_INITIATED' as const };
    const connectBody = callConnectWebhook(line, { ...step, at: placed });
    const terminateBody = callTerminateWebhook(line, {
      ...step,
      at: new Date(placed.getTime() + 100_000),
      status: 'COMPLETED',
      answered,
    });
    // Meta's terminate may come before the connect it follows; a retry changes nothing.
    assert.equal((await deliver(terminateBody)).calls, 1);
    assert.equal((await deliver(connectBody)).calls, 1);
    assert.equal((await deliver(connectBody)).calls, 0, 'Meta’s retry changes nothing');

    const contact = await contactOf(session, `+${customer}`);
    const [call, ...others] = await callsOf(session, contact.id);
    assert.deepEqual(others, []);
    assert.deepEqual(
      { ...call, id: undefined },
      {
        id: undefined,
        call_id: step.callId,
        direction: 'inbound',
        outcome: 'answered',
        placed_at: placed.toISOString().replace('Z', '+00:00'),
        started_at: answered.at.toISOString().replace('Z', '+00:00'),
        ended_at: new Date(answered.at.getTime() + 95_000).toISOString().replace('Z', '+00:00'),
        duration_seconds: 95,
        error: null,
      },
    );

    // A call is no message: it opens no window and feeds no trigger.
    const refused = await session.send('POST', '/api/v1/actions/send-text-message', {
      phone: `+${customer}`,
      message: 'Thanks for calling',
    });
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(await api(session, 'GET', '/api/v1/triggers/new-message-received'), []);
    const messages = await api<unknown[]>(session, 'POST', '/api/v1/actions/list-messages', { phone: `+${customer}` });
    assert.deepEqual(messages, []);
    // Each change is in the event log too, as Meta sent it.
    const events = await api<WorkspaceEvent[]>(session, 'POST', '/api/v1/actions/list-workspace-events', {});
    assert.deepEqual(
      events.map((event) => event.kind),
      ['calls', 'calls', 'calls'],
    );
  });

  test('calls › the business’s calls: rejected, missed, failed with Meta’s error; another workspace sees none', async () => {
    const { session, line } = await callingWorkspace();
    const customer = newWaId();
    const at = (minutes: number) => new Date(server.clock.now().getTime() - minutes * MINUTE);
    const outbound = (callId: string) => ({ callId, customer, direction: 'BUSINESS_INITIATED' as const });
    const [rejected, missed, failed] = [newCallId(), newCallId(), newCallId()];
    for (const body of [
      callConnectWebhook(line, { ...outbound(rejected), at: at(30) }),
      callStatusWebhook(line, { callId: rejected, customer, at: at(30), status: 'RINGING' }),
      callTerminateWebhook(line, { ...outbound(rejected), at: at(29), status: 'COMPLETED' }),
      callStatusWebhook(line, { callId: rejected, customer, at: at(29), status: 'REJECTED' }),
      callConnectWebhook(line, { ...outbound(missed), at: at(20) }),
      callTerminateWebhook(line, { ...outbound(missed), at: at(19), status: 'COMPLETED' }),
      callTerminateWebhook(line, {
        ...outbound(failed),
        at: at(10),
        status: 'FAILED',
        error: { code: 138006, title: 'Lack of call permission' },
      }),
    ]) {
      assert.equal((await deliver(body)).calls, 1);
    }
    const contact = await contactOf(session, `+${customer}`);
    const calls = await callsOf(session, contact.id);
    assert.deepEqual(
      calls.map((call) => [
        call.call_id,
        call.direction,
        call.outcome,
        call.duration_seconds,
        call.error?.code ?? null,
      ]),
      [
        [rejected, 'outbound', 'rejected', null, null],
        [missed, 'outbound', 'missed', null, null],
        [failed, 'outbound', 'failed', null, 138006],
      ],
    );
    const ringing = newCallId();
    await deliver(callStatusWebhook(line, { callId: ringing, customer, at: at(1), status: 'RINGING' }));
    await deliver(callStatusWebhook(line, { callId: ringing, customer, at: at(0), status: 'ACCEPTED' }));
    assert.equal((await callsOf(session, contact.id)).at(-1)?.outcome, 'ongoing');

    const stranger = await ownerSession(server);
    const read = await stranger.send('GET', `/api/dashboard/conversations/${contact.id}`);
    assert.equal(read.status, 404, read.text);
  });
});
