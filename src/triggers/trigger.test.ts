import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createCampaign,
  createFlow,
  createSequence,
  enrolInSequence,
  insertContact,
  markCampaignSent,
  recordOutboundMessage,
  startFlowRun,
} from '../../test/automation-factories.js';
import { createTemplate, createWorkspace, recordInboundMessage, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { CampaignRecord, FlowRecord, MessageRecord, SequenceRecord } from './trigger.schema.js';

const server = await startServer();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';
const FEEDS = ['new-message-received', 'new-campaign-sent', 'new-flow-triggered', 'new-sequence-triggered'] as const;

interface Problem {
  code: string;
  detail: string;
  retry_after?: number;
  poll_interval_seconds?: number;
  errors?: { field: string; message: string }[];
}

const now = () => server.clock.now().toISOString().replace('Z', '+00:00');

/** A workspace whose polls are not rate limited (interval 0, a large budget), for tests that poll repeatedly. */
async function unlimitedWorkspace(): Promise<TestWorkspace> {
  return createWorkspace(server, { pollIntervalSeconds: 0, rateLimitPerMinute: 100_000 });
}

async function poll<T>(ws: TestWorkspace, path: string): Promise<T[]> {
  const res = await ws.get<T[]>(`/v1/triggers/${path}`);
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const ids = (records: { id: string }[]) => records.map((r) => r.id);

/**
 * An integration that follows the spec's polling rule over HTTP: process records from the top
 * until the last seen id, then remember the first id of the batch. `seen` is in arrival order.
 */
function poller(ws: TestWorkspace, path: string) {
  let lastSeen: string | null = null;
  const seen: string[] = [];
  return {
    seen,
    async poll(): Promise<string[]> {
      const records = await poll<{ id: string }>(ws, path);
      const batch: string[] = [];
      for (const record of records) {
        if (record.id === lastSeen) break;
        batch.push(record.id);
      }
      if (records[0]) lastSeen = records[0].id;
      batch.reverse();
      seen.push(...batch);
      return batch;
    },
  };
}

describe(`triggers (${ENGINE})`, () => {
  test('new-message-received › inbound messages, newest first, carrying the contact’s details', async () => {
    const ws = await unlimitedWorkspace();
    const ada = await insertContact(server, ws.workspaceId, {
      phone: '+14155550100',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    const anonymous = await insertContact(server, ws.workspaceId, { phone: '+447911123456', name: null });
    const first = await recordInboundMessage(server, ws.workspaceId, ada, { content: { body: 'first' } });
    server.clock.advance(1000);
    await recordOutboundMessage(server, ws.workspaceId, ada);
    const second = await recordInboundMessage(server, ws.workspaceId, anonymous, { content: { body: 'second' } });
    server.clock.advance(1000);
    const thirdAt = now();
    const third = await recordInboundMessage(server, ws.workspaceId, ada, {
      content: { body: 'third' },
      wamid: 'wamid.THIRD',
    });

    const records = await poll<MessageRecord>(ws, 'new-message-received');
    assert.deepEqual(ids(records), [third, second, first], 'outbound messages are not in the feed');
    assert.deepEqual(records[0], {
      id: third,
      type: 'text',
      text: 'third',
      content: { body: 'third' },
      contact_id: ada,
      contact_phone: '+14155550100',
      contact_name: 'Ada Lovelace',
      contact_email: 'ada@example.com',
      provider_message_id: 'wamid.THIRD',
      reply_to_message_id: null,
      sent_at: null,
      created_at: thirdAt,
    });
    assert.deepEqual(
      [records[1]?.contact_phone, records[1]?.contact_name, records[1]?.contact_email],
      ['+447911123456', null, null],
    );
    for (const record of records) assert.match(record.created_at, TIMESTAMP);
  });

  test('new-message-received › a record shows the contact as it was when the message arrived', async () => {
    const ws = await unlimitedWorkspace();
    const contact = await insertContact(server, ws.workspaceId, { phone: '+14155550101', name: 'Before' });
    const message = await recordInboundMessage(server, ws.workspaceId, contact);
    const renamed = await ws.action('update-contact', { contact_id: contact, name: 'After' });
    assert.equal(renamed.status, 200);
    const [record] = await poll<MessageRecord>(ws, 'new-message-received');
    assert.equal(record?.id, message);
    assert.equal(record?.contact_name, 'Before', 'a trigger record is an event: it is not rewritten later');
  });

  test('new-message-received › text is the body, caption or tapped title; content is passed through', async () => {
    const ws = await unlimitedWorkspace();
    const contact = await insertContact(server, ws.workspaceId);
    const cases: { type: string; content: Record<string, unknown>; text: string | null }[] = [
      { type: 'text', content: { body: 'Where is my order?' }, text: 'Where is my order?' },
      {
        type: 'image',
        content: { id: 'media-1', mime_type: 'image/jpeg', sha256: 'abc', caption: 'The broken part' },
        text: 'The broken part',
      },
      { type: 'document', content: { id: 'media-2', mime_type: 'application/pdf', filename: 'a.pdf' }, text: null },
      {
        type: 'interactive',
        content: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } },
        text: 'Yes please',
      },
      {
        type: 'interactive',
        content: { type: 'list_reply', list_reply: { id: 'r2', title: 'Tuesday', description: 'PM' } },
        text: 'Tuesday',
      },
      { type: 'button', content: { payload: 'STOP', text: 'Stop promotions' }, text: 'Stop promotions' },
      {
        type: 'location',
        content: { latitude: 51.5074, longitude: -0.1278, name: 'Office', address: '1 Main St' },
        text: null,
      },
      { type: 'reaction', content: { message_id: 'wamid.X', emoji: '👍' }, text: '👍' },
    ];
    for (const c of cases) {
      await recordInboundMessage(server, ws.workspaceId, contact, { type: c.type, content: c.content });
    }
    const records = await poll<MessageRecord>(ws, 'new-message-received');
    assert.deepEqual(
      records.map((r) => ({ type: r.type, content: r.content, text: r.text })),
      cases.reverse(),
    );
  });

  test('new-message-received › message_type filters in the query string; "" is no filter', async () => {
    const ws = await unlimitedWorkspace();
    const contact = await insertContact(server, ws.workspaceId);
    const text = await recordInboundMessage(server, ws.workspaceId, contact, { type: 'text' });
    const image = await recordInboundMessage(server, ws.workspaceId, contact, {
      type: 'image',
      content: { id: 'm', mime_type: 'image/png' },
    });
    const text2 = await recordInboundMessage(server, ws.workspaceId, contact, { type: 'text' });
    assert.deepEqual(ids(await poll(ws, 'new-message-received?message_type=text')), [text2, text]);
    assert.deepEqual(ids(await poll(ws, 'new-message-received?message_type=image')), [image]);
    assert.deepEqual(ids(await poll(ws, 'new-message-received?message_type=audio')), []);
    assert.deepEqual(ids(await poll(ws, 'new-message-received?message_type=')), [text2, image, text]);
  });

  test('new-message-received › an unknown message_type is a 400 naming the parameter', async () => {
    const ws = await unlimitedWorkspace();
    for (const query of ['message_type=sms', 'message_type=TEXTS', 'message_type=text&message_type=image']) {
      const res = await ws.get<Problem>(`/v1/triggers/new-message-received?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'validation_failed');
      assert.match(res.body.errors?.[0]?.field ?? '', /message_type/, JSON.stringify(res.body));
    }
  });

  test('new-campaign-sent › sent campaigns only, newest send first, named with their template', async () => {
    const ws = await unlimitedWorkspace();
    const template = await createTemplate(server.app.services, ws.workspaceId, { name: 'spring_sale' });
    const createdAt = now();
    const early = await createCampaign(server, ws.workspaceId, { name: 'Created first', templateId: template.id });
    await createCampaign(server, ws.workspaceId, { name: 'Still a draft' });
    server.clock.advance(1000);
    const sentFirst = await createCampaign(server, ws.workspaceId, { name: 'Sent first', sent: true });
    server.clock.advance(1000);
    const sentAt = now();
    await markCampaignSent(server, early);

    const records = await poll<CampaignRecord>(ws, 'new-campaign-sent');
    assert.deepEqual(ids(records), [early, sentFirst], 'ordered by when they were sent, drafts left out');
    assert.deepEqual(records[0], {
      id: early,
      name: 'Created first',
      status: 'sent',
      template_id: template.id,
      template_name: 'spring_sale',
      campaign_created_at: createdAt,
      created_at: sentAt,
    });
    assert.deepEqual([records[1]?.template_id, records[1]?.template_name], [null, null]);
  });

  test('new-flow-triggered › flow runs newest first with flow, contact, status and context', async () => {
    const ws = await unlimitedWorkspace();
    const onboarding = await createFlow(server, ws.workspaceId, { name: 'Onboarding' });
    const support = await createFlow(server, ws.workspaceId, { name: 'Support bot' });
    const grace = await insertContact(server, ws.workspaceId, {
      phone: '+14155550123',
      name: 'Grace',
      email: 'grace@example.com',
    });
    const first = await startFlowRun(server, ws.workspaceId, onboarding);
    server.clock.advance(1000);
    const second = await startFlowRun(server, ws.workspaceId, support);
    server.clock.advance(1000);
    const lastAt = now();
    const last = await startFlowRun(server, ws.workspaceId, onboarding, {
      contactId: grace,
      status: 'completed',
      context: { order_id: 'ORD-1', items: [1, 2], nested: { vip: true } },
    });

    const records = await poll<FlowRecord>(ws, 'new-flow-triggered');
    assert.deepEqual(ids(records), [last, second, first]);
    assert.deepEqual(records[0], {
      id: last,
      flow_id: onboarding,
      flow_name: 'Onboarding',
      contact_id: grace,
      contact_phone: '+14155550123',
      contact_name: 'Grace',
      contact_email: 'grace@example.com',
      status: 'completed',
      context: { order_id: 'ORD-1', items: [1, 2], nested: { vip: true } },
      created_at: lastAt,
    });
    assert.deepEqual(ids(await poll(ws, `new-flow-triggered?flow_id=${onboarding}`)), [last, first]);
    assert.deepEqual(ids(await poll(ws, `new-flow-triggered?flow_id=${support}`)), [second]);
    assert.deepEqual(ids(await poll(ws, `new-flow-triggered?flow_id=${onboarding.toUpperCase()}`)), [last, first]);
    assert.deepEqual(ids(await poll(ws, 'new-flow-triggered?flow_id=')), [last, second, first]);
    assert.deepEqual(ids(await poll(ws, `new-flow-triggered?flow_id=${UNKNOWN_ID}`)), []);
  });

  test('new-sequence-triggered › enrolments newest first with sequence, contact, status and context', async () => {
    const ws = await unlimitedWorkspace();
    const welcome = await createSequence(server, ws.workspaceId, { name: 'Welcome series' });
    const winback = await createSequence(server, ws.workspaceId, { name: 'Win-back' });
    const alan = await insertContact(server, ws.workspaceId, { phone: '+14155550124', name: 'Alan', email: null });
    const first = await enrolInSequence(server, ws.workspaceId, winback);
    server.clock.advance(1000);
    const lastAt = now();
    const last = await enrolInSequence(server, ws.workspaceId, welcome, {
      contactId: alan,
      status: 'active',
      context: { source: 'zapier' },
    });

    const records = await poll<SequenceRecord>(ws, 'new-sequence-triggered');
    assert.deepEqual(ids(records), [last, first]);
    assert.deepEqual(records[0], {
      id: last,
      sequence_id: welcome,
      sequence_name: 'Welcome series',
      contact_id: alan,
      contact_phone: '+14155550124',
      contact_name: 'Alan',
      contact_email: null,
      status: 'active',
      context: { source: 'zapier' },
      created_at: lastAt,
    });
    assert.deepEqual(ids(await poll(ws, `new-sequence-triggered?sequence_id=${welcome}`)), [last]);
    assert.deepEqual(ids(await poll(ws, `new-sequence-triggered?sequence_id=${winback}`)), [first]);
    assert.deepEqual(ids(await poll(ws, 'new-sequence-triggered?sequence_id=')), [last, first]);
    assert.deepEqual(ids(await poll(ws, `new-sequence-triggered?sequence_id=${UNKNOWN_ID}`)), []);
  });

  test('new-flow-triggered / new-sequence-triggered › a filter id that is not a UUID is a 400', async () => {
    const ws = await unlimitedWorkspace();
    for (const query of [
      'new-sequence-triggered?sequence_id=welcome',
      'new-sequence-triggered?sequence_id=42',
      `new-sequence-triggered?sequence_id=urn:uuid:${UNKNOWN_ID}`,
      'new-flow-triggered?flow_id=onboarding',
      `new-flow-triggered?flow_id=${UNKNOWN_ID}x`,
      `new-flow-triggered?flow_id=urn:uuid:${UNKNOWN_ID}`,
    ]) {
      const res = await ws.get<Problem>(`/v1/triggers/${query}`);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.match(res.body.errors?.[0]?.field ?? '', /(sequence|flow)_id/, JSON.stringify(res.body));
    }
  });

  test('triggers › every feed returns at most 100 records: the newest', async () => {
    const ws = await unlimitedWorkspace();
    const contact = await insertContact(server, ws.workspaceId);
    const flow = await createFlow(server, ws.workspaceId);
    const sequence = await createSequence(server, ws.workspaceId);
    const inserted: Record<(typeof FEEDS)[number], string[]> = {
      'new-message-received': [],
      'new-campaign-sent': [],
      'new-flow-triggered': [],
      'new-sequence-triggered': [],
    };
    for (let i = 0; i < 101; i++) {
      // Ten records per millisecond: the cut must follow the tie-break too, not only the time.
      if (i % 10 === 0) server.clock.advance(1);
      inserted['new-message-received'].push(await recordInboundMessage(server, ws.workspaceId, contact));
      inserted['new-campaign-sent'].push(await createCampaign(server, ws.workspaceId, { sent: true }));
      inserted['new-flow-triggered'].push(await startFlowRun(server, ws.workspaceId, flow, { contactId: contact }));
      inserted['new-sequence-triggered'].push(
        await enrolInSequence(server, ws.workspaceId, sequence, { contactId: contact }),
      );
    }
    for (const feed of FEEDS) {
      const records = await poll<{ id: string; created_at: string }>(ws, feed);
      assert.equal(records.length, 100, feed);
      assert.deepEqual(ids(records), inserted[feed].slice(1).reverse(), `${feed}: the oldest one is dropped`);
      const times = records.map((r) => r.created_at);
      assert.deepEqual(times, [...times].sort().reverse(), `${feed}: created_at descending`);
    }
  });

  test('triggers › the polling rule sees every record exactly once, in order, across same-millisecond ties', async () => {
    const ws = await unlimitedWorkspace();
    const contacts = [await insertContact(server, ws.workspaceId), await insertContact(server, ws.workspaceId)];
    const flow = await createFlow(server, ws.workspaceId);
    const sequence = await createSequence(server, ws.workspaceId);
    const add: Record<(typeof FEEDS)[number], (i: number) => Promise<string>> = {
      'new-message-received': (i) => recordInboundMessage(server, ws.workspaceId, contacts[i % 2]!),
      'new-campaign-sent': () => createCampaign(server, ws.workspaceId, { sent: true }),
      'new-flow-triggered': (i) => startFlowRun(server, ws.workspaceId, flow, { contactId: contacts[i % 2]! }),
      'new-sequence-triggered': (i) =>
        enrolInSequence(server, ws.workspaceId, sequence, { contactId: contacts[i % 2]! }),
    };
    const pollers = FEEDS.map((feed) => ({ feed, client: poller(ws, feed), inserted: [] as string[] }));
    const insertBatch = async (size: number) => {
      for (let i = 0; i < size; i++) {
        for (const p of pollers) p.inserted.push(await add[p.feed](i));
      }
    };
    const pollAll = async () => {
      const batches: string[][] = [];
      for (const p of pollers) batches.push(await p.client.poll());
      return batches;
    };

    assert.deepEqual(await pollAll(), [[], [], [], []], 'nothing yet');
    server.clock.advance(1);
    await insertBatch(3);
    for (const [i, batch] of (await pollAll()).entries()) assert.equal(batch.length, 3, pollers[i]!.feed);
    await insertBatch(4); // the same millisecond as the batch already seen
    for (const [i, batch] of (await pollAll()).entries()) assert.equal(batch.length, 4, pollers[i]!.feed);
    assert.deepEqual(await pollAll(), [[], [], [], []], 'a poll with nothing new processes nothing');
    server.clock.advance(1);
    await insertBatch(2);
    await pollAll();
    await insertBatch(1); // the same millisecond again
    await pollAll();

    for (const p of pollers) {
      assert.equal(p.inserted.length, 10);
      assert.deepEqual(p.client.seen, p.inserted, `${p.feed}: every record exactly once, in order`);
    }
  });

  test('triggers › the polling rule holds for a filtered feed while other types arrive in the same millisecond', async () => {
    const ws = await unlimitedWorkspace();
    const contact = await insertContact(server, ws.workspaceId);
    const texts = poller(ws, 'new-message-received?message_type=text');
    const everything = poller(ws, 'new-message-received');
    const insertedTexts: string[] = [];
    const insertedAll: string[] = [];
    server.clock.advance(1);
    for (let round = 0; round < 3; round++) {
      for (const type of ['image', 'text', 'text', 'audio']) {
        const id = await recordInboundMessage(server, ws.workspaceId, contact, {
          type,
          content: type === 'text' ? { body: `round ${round}` } : { id: 'media', mime_type: 'audio/ogg' },
        });
        insertedAll.push(id);
        if (type === 'text') insertedTexts.push(id);
      }
      await texts.poll();
      await everything.poll();
    }
    assert.deepEqual(texts.seen, insertedTexts);
    assert.deepEqual(everything.seen, insertedAll);
  });

  test('triggers › a workspace sees only its own records, and a foreign flow or sequence id finds nothing', async () => {
    const mine = await unlimitedWorkspace();
    const theirs = await unlimitedWorkspace();
    const contact = await insertContact(server, theirs.workspaceId);
    const flow = await createFlow(server, theirs.workspaceId);
    const sequence = await createSequence(server, theirs.workspaceId);
    await recordInboundMessage(server, theirs.workspaceId, contact);
    await createCampaign(server, theirs.workspaceId, { sent: true });
    await startFlowRun(server, theirs.workspaceId, flow);
    await enrolInSequence(server, theirs.workspaceId, sequence);
    for (const feed of FEEDS) {
      assert.deepEqual(await poll(mine, feed), [], feed);
      assert.equal((await poll(theirs, feed)).length, 1, feed);
    }
    assert.deepEqual(await poll(mine, `new-flow-triggered?flow_id=${flow}`), []);
    assert.deepEqual(await poll(mine, `new-sequence-triggered?sequence_id=${sequence}`), []);
  });

  test('triggers › the legacy /api/zapier/triggers/<name> paths answer the same as /api/v1', async () => {
    const ws = await unlimitedWorkspace();
    const contact = await insertContact(server, ws.workspaceId, { name: 'Legacy', email: 'legacy@example.com' });
    const flow = await createFlow(server, ws.workspaceId);
    const sequence = await createSequence(server, ws.workspaceId);
    await recordInboundMessage(server, ws.workspaceId, contact);
    await recordInboundMessage(server, ws.workspaceId, contact, { type: 'image', content: { id: 'x', caption: 'c' } });
    await createCampaign(server, ws.workspaceId, { sent: true });
    await startFlowRun(server, ws.workspaceId, flow, { contactId: contact, context: { a: 1 } });
    await enrolInSequence(server, ws.workspaceId, sequence, { contactId: contact });
    for (const path of [
      ...FEEDS,
      'new-message-received?message_type=image',
      `new-flow-triggered?flow_id=${flow}`,
      `new-sequence-triggered?sequence_id=${sequence}`,
    ]) {
      const v1 = await ws.get(`/v1/triggers/${path}`);
      const legacy = await ws.get(`/zapier/triggers/${path}`);
      assert.equal(legacy.status, 200, path);
      assert.equal(legacy.text, v1.text, path);
      assert.ok((v1.body as unknown[]).length > 0, `${path} has records to compare`);
    }
    const invalid = await ws.get<Problem>('/zapier/triggers/new-message-received?message_type=sms');
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, 'validation_failed');
  });

  test('poll interval › a second poll within the interval is a 429 poll_too_frequent with Retry-After', async () => {
    const ws = await createWorkspace(server);
    assert.equal((await ws.get('/v1/triggers/new-message-received')).status, 200);
    const refused = await ws.get<Problem>('/v1/triggers/new-message-received');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '30');
    assert.equal(refused.body.code, 'poll_too_frequent');
    assert.equal(refused.body.retry_after, 30);
    assert.equal(refused.body.poll_interval_seconds, 30);

    server.clock.advance(20_000);
    const later = await ws.get<Problem>('/v1/triggers/new-message-received');
    assert.equal(later.status, 429);
    assert.equal(later.headers['retry-after'], '10', 'Retry-After counts down');
    server.clock.advance(10_000);
    assert.equal((await ws.get('/v1/triggers/new-message-received')).status, 200, 'allowed again after 30 s');
    assert.equal((await ws.get('/v1/triggers/new-message-received')).status, 429, 'and limited again');
  });

  test('poll interval › the v1 path and the legacy path share one budget per token', async () => {
    const ws = await createWorkspace(server);
    assert.equal((await ws.get('/v1/triggers/new-flow-triggered')).status, 200);
    assert.equal((await ws.get('/zapier/triggers/new-flow-triggered')).status, 429);
    server.clock.advance(30_000);
    assert.equal((await ws.get('/zapier/triggers/new-flow-triggered')).status, 200);
    const v1 = await ws.get<Problem>('/v1/triggers/new-flow-triggered');
    assert.equal(v1.status, 429);
    assert.equal(v1.body.code, 'poll_too_frequent');
  });

  test('poll interval › each feed has its own interval; other endpoints are not affected', async () => {
    const ws = await createWorkspace(server);
    for (const feed of FEEDS) assert.equal((await ws.get(`/v1/triggers/${feed}`)).status, 200, feed);
    for (const feed of FEEDS) assert.equal((await ws.get(`/v1/triggers/${feed}`)).status, 429, feed);
    assert.equal((await ws.get('/v1/me')).status, 200);
    assert.equal((await ws.action('list-tags', {})).status, 200);
  });

  test('poll interval › a workspace with a raised rate limit is limited to its own interval', async () => {
    const ws = await createWorkspace(server, { pollIntervalSeconds: 5 });
    assert.equal((await ws.get('/v1/triggers/new-sequence-triggered')).status, 200);
    const refused = await ws.get<Problem>('/v1/triggers/new-sequence-triggered');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '5');
    assert.equal(refused.body.poll_interval_seconds, 5);
    server.clock.advance(5_000);
    assert.equal((await ws.get('/v1/triggers/new-sequence-triggered')).status, 200);
  });

  test('poll interval › interval 0 means no interval; polls then spend the per-token request budget', async () => {
    const ws = await createWorkspace(server, { pollIntervalSeconds: 0, rateLimitPerMinute: 10 });
    for (let i = 0; i < 5; i++) {
      assert.equal((await ws.get('/v1/triggers/new-campaign-sent')).status, 200, `poll ${i + 1}`);
      assert.equal((await ws.get('/zapier/triggers/new-campaign-sent')).status, 200, `legacy poll ${i + 1}`);
    }
    const limited = await ws.get<{ code: string }>('/v1/triggers/new-campaign-sent');
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'rate_limited');
    assert.equal(limited.headers['x-ratelimit-limit'], '10');
  });

  test('poll interval › HEAD is not served on a feed, so it cannot use up the interval', async () => {
    const ws = await createWorkspace(server);
    const head = await server.http.send('HEAD', '/api/v1/triggers/new-message-received', { token: ws.token });
    assert.ok(head.status === 404 || head.status === 405, `HEAD answered ${head.status}`);
    assert.equal((await ws.get('/v1/triggers/new-message-received')).status, 200);
  });

  test('poll interval › a malformed poll (400) does not use up the interval', async () => {
    const ws = await createWorkspace(server);
    assert.equal((await ws.get('/v1/triggers/new-message-received?message_type=sms')).status, 400);
    assert.equal((await ws.get('/v1/triggers/new-message-received?message_type=text')).status, 200);
  });

  test('poll interval › the interval is counted per token', async () => {
    const ws = await createWorkspace(server);
    const other = await server.app.services.tokens.create({
      workspaceId: ws.workspaceId,
      userId: ws.userId,
      name: 'second integration',
    });
    assert.equal((await ws.get('/v1/triggers/new-message-received')).status, 200);
    const second = await server.http.send('GET', '/api/v1/triggers/new-message-received', { token: other.token });
    assert.equal(second.status, 200, 'another token of the workspace has its own budget');
    assert.equal((await ws.get('/v1/triggers/new-message-received')).status, 429);
  });
});
