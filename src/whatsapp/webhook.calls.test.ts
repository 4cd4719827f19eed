import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import type { Contact } from '../contacts/contact.schema.js';
import type { ConversationCall } from '../messages/message.schema.js';
import type { WorkspaceEvent } from '../workspace-events/event.schema.js';
import {
  callConnectWebhook,
  callPermissionReplyWebhook,
  callStatusWebhook,
  callTerminateWebhook,
} from './webhook.calls-fixtures.js';
import { inboundTextWebhook } from './webhook.fixtures.js';

const { graph, server, connect, postWebhook } = await startWhatsappServer({ outbox: true });

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

  test('call permission › the request is sent as Meta documents it; the customer’s answer is kept on the message and the contact', async () => {
    const { session, line } = await callingWorkspace();
    const customer = newWaId();
    const phone = `+${customer}`;
    const now = () => new Date(Math.floor(server.clock.now().getTime() / 1000) * 1000);
    const asked = now();
    await deliver(
      inboundTextWebhook({ phoneNumberId: line.phoneNumberId, from: customer, text: 'Call me?', timestamp: asked }),
    );

    const request = { phone, type: 'call_permission_request', body: 'May we call you about order 1042?' };
    const withHeader = await session.send('POST', '/api/v1/actions/send-interactive-message', {
      ...request,
      header: 'Hi',
    });
    assert.equal(withHeader.status, 400, withHeader.text);
    assert.match((withHeader.body as { detail: string }).detail, /header/);
    const queued = await api<{ id: string }>(session, 'POST', '/api/v1/actions/send-interactive-message', request);
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();
    const sent = graph.requests.filter((r) => r.path === `/${API_VERSION}/${line.phoneNumberId}/messages`).at(-1);
    const { biz_opaque_callback_data: callback, ...meta } = sent?.body as Record<string, unknown>;
    assert.equal(callback, queued.id);
    // Meta's "Obtain user call permissions": a free-form interactive call permission request.
    assert.deepEqual(meta, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'interactive',
      interactive: {
        type: 'call_permission_request',
        body: { text: 'May we call you about order 1042?' },
        action: { name: 'call_permission_request' },
      },
    });

    const expires = new Date(asked.getTime() + 7 * 24 * 60 * MINUTE);
    const accept = { customer, wamid: 'wamid.PERMIT1', at: now(), response: 'accept' as const, expires };
    assert.equal((await deliver(callPermissionReplyWebhook(line, accept))).messages, 1);
    const permissionOf = async () =>
      (await api<Contact>(session, 'POST', '/api/v1/actions/get-contact', { phone })).call_permission;
    const iso = (date: Date) => date.toISOString().replace('Z', '+00:00');
    assert.deepEqual(await permissionOf(), {
      response: 'accept',
      permanent: false,
      expires_at: iso(expires),
      answered_at: iso(accept.at),
      source: 'user_action',
    });
    const messages = await api<{ content: Record<string, unknown> }[]>(
      session,
      'POST',
      '/api/v1/actions/list-messages',
      { phone },
    );
    assert.deepEqual(
      messages[0]?.content.call_permission_reply,
      {
        response: 'accept',
        is_permanent: false,
        expiration_timestamp: Math.floor(expires.getTime() / 1000),
        response_source: 'user_action',
      },
      'the reply is kept whole on the message',
    );

    // A late delivery of an older answer changes nothing; a newer one replaces it.
    const older = {
      customer,
      wamid: 'wamid.PERMIT0',
      at: new Date(accept.at.getTime() - 60_000),
      response: 'reject' as const,
    };
    await deliver(callPermissionReplyWebhook(line, older));
    assert.equal((await permissionOf())?.response, 'accept');
    server.clock.advance(MINUTE);
    const declined = { customer, wamid: 'wamid.PERMIT2', at: now(), response: 'reject' as const };
    await deliver(callPermissionReplyWebhook(line, declined));
    assert.deepEqual(await permissionOf(), {
      response: 'reject',
      permanent: false,
      expires_at: null,
      answered_at: iso(declined.at),
      source: 'user_action',
    });
  });

  test('voice call button › a template with Meta’s VOICE_CALL button is synced, submitted and sent', async () => {
    const { session, line } = await callingWorkspace();
    // Meta's "Send WhatsApp call button messages": a template button of type VOICE_CALL, no parameters.
    const buttons = [{ type: 'VOICE_CALL', text: 'Call on WhatsApp' }];
    graph.setTemplates(line.wabaId, [
      {
        id: '1100400500600',
        name: 'call_us',
        language: 'en',
        status: 'APPROVED',
        category: 'MARKETING',
        components: [
          { type: 'BODY', text: 'You can call us on WhatsApp now for faster service!' },
          { type: 'BUTTONS', buttons },
        ],
      },
    ]);
    assert.deepEqual(await server.app.services.templateSync.sync({ workspaceId: session.workspaceId }), {
      templates: 1,
      translations: 1,
      skipped: [],
    });
    const created = await session.send('POST', '/api/v1/actions/create-template', {
      name: 'call_us_again',
      category: 'MARKETING',
      translations: [{ language: 'en', body: 'Questions? Call us.', buttons }],
    });
    assert.equal(created.status, 200, created.text);
    const submitted = [...graph.submittedTemplates.values()].find((t) => t.name === 'call_us_again');
    assert.deepEqual(submitted?.components.at(-1), { type: 'BUTTONS', buttons });

    const templates = await api<{ id: string; name: string }[]>(session, 'POST', '/api/v1/actions/list-templates', {});
    const queued = await api<{ id: string }>(session, 'POST', '/api/v1/actions/send-template-message', {
      phone: `+${newWaId()}`,
      template_id: templates.find((template) => template.name === 'call_us')?.id,
      language: 'en',
    });
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();
    const sent = graph.requests.filter((r) => r.path === `/${API_VERSION}/${line.phoneNumberId}/messages`).at(-1);
    const body = sent?.body as { template: unknown; biz_opaque_callback_data: string };
    assert.equal(body.biz_opaque_callback_data, queued.id);
    assert.deepEqual(body.template, { name: 'call_us', language: { code: 'en' } });
  });
});
