import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTemplate, createWorkspace } from '../../test/factories.js';
import type { RecordedRequest } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Message } from './message.schema.js';
import { createSendBreaker, FIRST_PAUSE_MS, MAX_PAUSE_MS, TRIP_AFTER, verdictOf } from './send-breaker.js';

const GRACE_SECONDS = 60;
const { graph, server, cloudWorkspace, connect, postWebhook } = await startWhatsappServer({
  outbox: true,
  env: { OUTBOX_GRACE_SECONDS: String(GRACE_SECONDS) },
});
const { outbox, scheduler } = server.app.services;

/** Waits for `done` to hold, checking every 50 ms, for at most two minutes (a shared machine may be slow). */
async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const ofNumber = (number: Pick<CloudWorkspace, 'phoneNumberId'>) => (request: RecordedRequest) =>
  request.path === `/${API_VERSION}/${number.phoneNumberId}/messages`;
const isText = (request: RecordedRequest) => (request.body as { type?: string }).type === 'text';
const callbackOf = (request: RecordedRequest) =>
  (request.body as { biz_opaque_callback_data: string }).biz_opaque_callback_data;

/** Queues `count` template messages through the API, each to a customer of its own; returns their ids. */
async function burst(cloud: CloudWorkspace, count: number): Promise<string[]> {
  const template = await createTemplate(server.app.services, cloud.ws.workspaceId);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const queued = await cloud.ws.action<Message>('send-template-message', {
      phone: `+1415${2_000_000 + i}`,
      template_id: template.id,
      variables: [`Customer ${i}`, `ORD-${i}`],
    });
    assert.equal(queued.status, 200, queued.text);
    ids.push(queued.body.id);
  }
  return ids;
}

async function statusesOf(cloud: CloudWorkspace, ids: string[]): Promise<string[]> {
  const statuses: string[] = [];
  for (const id of ids) {
    const response = await cloud.ws.action<Message>('get-message', { message_id: id });
    assert.equal(response.status, 200, response.text);
    statuses.push(response.body.status);
  }
  return statuses;
}

/** The message ids Meta accepted from one number more than once. */
function acceptedTwice(cloud: CloudWorkspace): string[] {
  const ids = graph.accepted.filter(ofNumber(cloud)).map(callbackOf);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}

describe(`outbox lanes (${ENGINE})`, () => {
  test('a number whose sends hang at Meta holds back no other workspace’s number; its messages go once when it answers again', async () => {
    const hanging = await cloudWorkspace();
    const healthy = await cloudWorkspace();
    const count = 40;
    graph.holdNumber(hanging.phoneNumberId);

    const hangingIds = await burst(hanging, count);
    await until('the hanging number’s sends to reach Meta', () => graph.heldOpen().some(ofNumber(hanging)));
    const healthyIds = await burst(healthy, count);

    await until(
      `all ${count} sends of the healthy number to be accepted`,
      () => graph.accepted.filter(ofNumber(healthy)).length === count,
    );
    const stillOpen = graph.heldOpen().filter(ofNumber(hanging)).length;
    assert.ok(stillOpen > 0, 'the hanging number’s requests were still outstanding');
    assert.equal(graph.accepted.filter(ofNumber(hanging)).length, 0, 'the hanging number had no send completed');

    // Parley gives up on the hanging requests (its Graph timeout): their outcome is unknown, and the
    // number's circuit breaker pauses it, so nothing more is sent to it meanwhile.
    await until('Parley to give up on the hanging requests', () => !graph.heldOpen().some(ofNumber(hanging)));
    await outbox.idle();
    const tried = graph.held.filter(ofNumber(hanging)).length;
    assert.ok(tried < count, `the paused number was not sent all ${count} messages (${tried} tried)`);

    // The number answers again; after the grace period for unknown outcomes every message goes, once.
    graph.release();
    server.clock.advance((GRACE_SECONDS + 1) * 1000);
    outbox.wake();
    await until(`all ${count} messages of the recovered number to be sent`, () => {
      outbox.wake();
      return graph.accepted.filter(ofNumber(hanging)).length >= count;
    });
    await outbox.idle();
    assert.deepEqual(await statusesOf(hanging, hangingIds), Array<string>(count).fill('sent'));
    assert.deepEqual(await statusesOf(healthy, healthyIds), Array<string>(count).fill('sent'));
    assert.deepEqual(acceptedTwice(hanging), [], 'nothing was sent twice from the recovered number');
    assert.deepEqual(acceptedTwice(healthy), [], 'nothing was sent twice from the healthy number');
    assert.deepEqual(
      graph.accepted.filter(ofNumber(hanging)).map(callbackOf).sort(),
      [...hangingIds].sort(),
      'Meta accepted exactly the recovered number’s messages',
    );
  });
});

describe(`a number's lane under load (${ENGINE})`, () => {
  test('a reply sent while a campaign is queued on the same number reaches Meta before the campaign’s backlog', async () => {
    const ws = await createWorkspace(server);
    const { phoneNumberId } = await connect(ws.workspaceId, { messagesPerSecond: 10 });
    const sends = () => graph.accepted.filter(ofNumber({ phoneNumberId }));
    const customer = '+14155550100';
    const inbound = inboundTextWebhook({
      phoneNumberId,
      from: customer.slice(1),
      name: 'Ana',
      wamid: 'wamid.LANE1',
      text: 'Hi',
    });
    assert.equal((await postWebhook(inbound)).status, 200);
    const recipients: string[] = [];
    for (let i = 0; i < 40; i++) {
      const created = await ws.action<{ id: string }>('create-contact', {
        phone: `+1415333${String(i).padStart(4, '0')}`,
      });
      assert.equal(created.status, 201, created.text);
      recipients.push(created.body.id);
    }
    const template = await createTemplate(server.app.services, ws.workspaceId, { category: 'MARKETING' });
    const campaign = await ws.action('create-campaign', {
      name: 'Backlog',
      template_id: template.id,
      variables: ['Ana', 'ORD-1'],
      audience: { contact_ids: recipients },
    });
    assert.equal(campaign.status, 200, campaign.text);
    await scheduler.runDue(ws.workspaceId);
    outbox.wake();
    await until('the campaign to start sending', () => sends().length >= 3);

    const reply = await ws.action('send-text-message', { phone: customer, message: 'Your order left today' });
    assert.equal(reply.status, 200, reply.text);
    await until('the reply to reach Meta', () => sends().some(isText));
    const before = sends().findIndex(isText);
    // At 10 a second the lane holds two seconds of the campaign (20 messages) and the queue the rest.
    assert.ok(before < 10, `the reply waited behind ${before} campaign messages`);
    await until('the whole campaign to be sent', () => sends().length === 41);
  });

  test('a number whose Meta answers slowly gets more sends in flight as answers come, up to a second’s worth', async () => {
    const ws = await createWorkspace(server, { rateLimitPerMinute: 100_000 });
    const number = await connect(ws.workspaceId, { messagesPerSecond: 400 });
    const cloud = { ws, ...number };
    const count = 300;
    // The backlog is queued first, the outbox stopped: sends held while the API queued the rest would pass
    // the Graph client's 10 s timeout on a slow machine, and their retries wait for the test's manual clock.
    await outbox.stop();
    const ids = await burst(cloud, count);
    graph.holdNumber(cloud.phoneNumberId);
    outbox.start(server.app.server.log);
    // Meta answers every 300 ms what it holds: a slow number, not a hanging one. What arrives between
    // two answers is what Parley had in flight at once.
    let mostOpen = 0;
    await until(`Meta to accept all ${count}`, async () => {
      if (graph.accepted.filter(ofNumber(cloud)).length >= count) return true;
      const heldBefore = graph.held.filter(ofNumber(cloud)).length;
      await sleep(300);
      mostOpen = Math.max(mostOpen, graph.held.filter(ofNumber(cloud)).length - heldBefore);
      graph.release();
      graph.holdNumber(cloud.phoneNumberId);
      return false;
    });
    graph.release();
    assert.ok(mostOpen > 32, `at most ${mostOpen} sends were in flight at once`);
    assert.ok(mostOpen <= 400, `${mostOpen} sends were in flight at once, more than a second's worth`);
    await outbox.idle();
    assert.deepEqual(acceptedTwice(cloud), [], 'nothing was sent twice');
    assert.deepEqual(await statusesOf(cloud, ids), Array<string>(count).fill('sent'));
  });
});

describe('send breaker', () => {
  const trouble = verdictOf({ outcome: 'unknown', error: { code: null, title: 'timeout', details: null } });
  const ok = verdictOf({ outcome: 'accepted', providerMessageId: 'wamid.1' });

  test('opens after consecutive troubles, probes once after the pause, doubles the pause while trouble lasts', () => {
    const breaker = createSendBreaker();
    for (let i = 1; i < TRIP_AFTER; i++) assert.equal(breaker.record(trouble, 0), null);
    assert.equal(breaker.record(trouble, 0), FIRST_PAUSE_MS);
    assert.equal(breaker.allowance(FIRST_PAUSE_MS - 1, 32), 0, 'paused');
    assert.equal(breaker.record(trouble, 1), null, 'troubles during the pause do not extend it');
    assert.equal(breaker.allowance(FIRST_PAUSE_MS, 32), 1, 'one probe after the pause');
    assert.equal(breaker.record(trouble, FIRST_PAUSE_MS), 2 * FIRST_PAUSE_MS, 'a failed probe doubles the pause');
    assert.equal(breaker.pausedUntil(FIRST_PAUSE_MS), 3 * FIRST_PAUSE_MS);
    assert.equal(breaker.record(ok, 3 * FIRST_PAUSE_MS), null);
    assert.equal(breaker.allowance(3 * FIRST_PAUSE_MS, 32), 32, 'a probe answered closes it');
    assert.ok(breaker.quiet);
  });

  test('an answer between troubles resets the count; throttling says nothing of the number; the pause is capped', () => {
    const breaker = createSendBreaker();
    const throttled = verdictOf({
      outcome: 'retry',
      error: { code: 130429, title: 'Rate limit hit', details: null },
      afterMs: null,
      throttled: true,
    });
    assert.equal(throttled, 'neutral');
    for (let round = 0; round < 3; round++) {
      for (let i = 1; i < TRIP_AFTER; i++) breaker.record(trouble, 0);
      breaker.record(throttled, 0);
      breaker.record(ok, 0);
    }
    assert.equal(breaker.allowance(0, 32), 32);
    let at = 0;
    let pause = 0;
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < TRIP_AFTER; j++) pause = breaker.record(trouble, at) ?? pause;
      at = breaker.pausedUntil(at) ?? at;
    }
    assert.equal(pause, MAX_PAUSE_MS);
  });
});
