/**
 * Real Parley processes (`node --import tsx src/main.ts`, what `npm start` runs) on the real clock:
 * killed with SIGKILL in the middle of a sequence and a campaign and restarted, and two of them
 * sharing one database. What a user relies on: nothing queued is lost, no step runs twice, and
 * Meta receives a message twice only when the crash left its fate unknown.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { Campaign } from '../src/campaigns/campaign.schema.js';
import type { Sequence } from '../src/sequences/sequence.schema.js';
import { toStoredTimestamp } from '../src/shared/time.js';
import { asClient, createTemplate, createWorkspace, type TestWorkspace } from './factories.js';
import { startGraphStandIn, type RecordedRequest } from './graph-stand-in.js';
import { standbyParleyProcess, startParleyProcess, type ParleyProcess } from './parley-process.js';
import { ENGINE } from './server.js';
import { API_VERSION, APP_SECRET, startWhatsappServer } from './whatsapp.js';
import { signBody } from '../src/whatsapp/webhook.fixtures.js';
import { newContactRow } from '../src/contacts/contact.repository.js';

// The in-process server is only the test's handle on the database (its outbox and scheduler are
// stopped); the child processes share its DATA_DIR (certificate, secret key, SQLite file) and database.
const { graph, server } = await startWhatsappServer();
const { services } = server.app;
const { db } = services.deps;
const certificate = server.app.tls!.cert;

const DEADLINE_MS = 60_000;
/** Long enough for a dead process's last bytes and last commit to land before the test looks. */
const SETTLE_MS = 300;

interface Cloud {
  ws: TestWorkspace;
  phoneNumberId: string;
}

interface Contact {
  id: string;
  phone: string;
}

/** A workspace whose channel is WhatsApp Cloud at Parley's pace `messagesPerSecond`, with room for many API calls. */
async function cloudWorkspace(messagesPerSecond: number): Promise<Cloud> {
  const ws = await createWorkspace(server, { rateLimitPerMinute: 100_000 });
  // The stand-ins' shared token: the processes' own stand-ins accept what this one confirmed.
  const { phoneNumberId, wabaId, accessToken } = graph.addPhoneNumber();
  await services.channels.useWhatsappCloud(
    { workspaceId: ws.workspaceId },
    { phoneNumberId, wabaId, accessToken, messagesPerSecond },
  );
  return { ws, phoneNumberId };
}

/** Contacts written straight into the table (hundreds of API calls would only be slow). */
async function insertContacts(workspaceId: string, count: number): Promise<Contact[]> {
  const at = toStoredTimestamp(new Date());
  const rows = Array.from({ length: count }, (_, i) =>
    newContactRow({
      id: services.deps.newId(),
      workspaceId,
      phone: `+1415${2_000_000 + i}`,
      name: `Customer ${i}`,
      email: null,
      customAttributes: '{}',
      at,
    }),
  );
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('contacts')
      .values(rows.slice(i, i + 200))
      .execute();
  }
  return rows.map(({ id, phone }) => ({ id, phone }));
}

/** A sequence of `send_template` steps, one template each, after the given delays. */
async function saveSequence(ws: TestWorkspace, delays: string[]): Promise<{ sequence: Sequence; templates: string[] }> {
  const templates: string[] = [];
  const steps = [];
  for (const [i, delay] of delays.entries()) {
    const template = await createTemplate(services, ws.workspaceId, { name: `step_${i}_${randomInt(1e9)}` });
    templates.push(template.name);
    steps.push({
      delay,
      action: { type: 'send_template', template_id: template.id, variables: ['{{contact.name}}', `step ${i}`] },
    });
  }
  const response = await ws.action<Sequence>('save-sequence', { name: `Drip ${randomInt(1e9)}`, steps });
  assert.equal(response.status, 200, response.text);
  return { sequence: response.body, templates };
}

/** Enrols the contacts through the API, a few calls at a time, spread over the given processes. */
async function enrol(clients: TestWorkspace[], sequenceId: string, contacts: Contact[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < contacts.length; i = next++) {
      const response = await clients[i % clients.length]!.action('trigger-sequence', {
        sequence_id: sequenceId,
        contact_id: contacts[i]!.id,
      });
      assert.equal(response.status, 200, response.text);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

/** `phone|template`: one message of one step (or of the campaign) to one contact. */
const keyOf = (phone: string, template: string) => `${phone}|${template}`;

/** The message sends a stand-in received for this number, as keys, in arrival order. */
function sendsOf(requests: RecordedRequest[], cloud: Cloud): string[] {
  return requests
    .filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
    .map((r) => r.body as { to: string; template: { name: string } })
    .map((body) => keyOf(body.to, body.template.name));
}

/** The workspace's outbound message rows, as keys with their status. */
async function messageRows(workspaceId: string): Promise<{ key: string; status: string }[]> {
  const rows = await db
    .selectFrom('messages as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select(['c.phone', 'm.content', 'm.status'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.direction', '=', 'outbound')
    .execute();
  return rows.map((row) => ({
    key: keyOf(row.phone, (JSON.parse(row.content) as { template_name: string }).template_name),
    status: row.status,
  }));
}

/**
 * How `keys` differ from `expected` (each expected once): those missing, those there more than
 * once (as `key ×n`) and those not expected at all, so a failure names the messages concerned.
 */
function differences(keys: string[], expected: string[]) {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  const wanted = new Set(expected);
  return {
    missing: expected.filter((key) => !counts.has(key)),
    repeated: [...counts].filter(([, n]) => n > 1).map(([key, n]) => `${key} ×${n}`),
    unexpected: [...counts.keys()].filter((key) => !wanted.has(key)),
  };
}

const none = { missing: [], repeated: [], unexpected: [] };

/** Where the workspace's automation stands: enrolments and messages by status, and its campaigns' statuses. */
async function progress(workspaceId: string) {
  const byStatus = async (table: 'sequence_enrolments' | 'messages') =>
    Object.fromEntries(
      (
        await db
          .selectFrom(table)
          .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
          .where('workspace_id', '=', workspaceId)
          .groupBy('status')
          .execute()
      ).map((row) => [row.status, Number(row.n)]),
    ) as Record<string, number>;
  const campaigns = await db.selectFrom('campaigns').select('status').where('workspace_id', '=', workspaceId).execute();
  return {
    enrolments: await byStatus('sequence_enrolments'),
    messages: await byStatus('messages'),
    campaigns: campaigns.map((row) => row.status),
  };
}

type Progress = Awaited<ReturnType<typeof progress>>;

/** Probes until `done`; fails with the last probe's answer at the deadline. */
async function poll<T>(what: string, probe: () => Promise<T>, done: (state: T) => boolean): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const state = await probe();
    if (done(state)) return state;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(state)}`);
    await sleep(50);
  }
}

const finished = (enrolments: number) => (state: Progress) =>
  state.enrolments.completed === enrolments &&
  !state.messages.queued &&
  state.campaigns.every((status) => status === 'sent');

/**
 * What the real lease (60 s) would do after a crash, without waiting for it: the sends and jobs the
 * dead process had claimed become due again. Parley itself then resends and reruns them.
 */
async function expireLeases(workspaceId: string): Promise<void> {
  const now = toStoredTimestamp(new Date());
  await db
    .updateTable('messages')
    .set({ next_attempt_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'queued')
    .where('next_attempt_at', '>', now)
    .execute();
  await db
    .updateTable('jobs')
    .set({ leased_until: null })
    .where('workspace_id', '=', workspaceId)
    .where('leased_until', 'is not', null)
    .execute();
}

/** Error lines the processes logged, reported with the results (a retried job logs one, for instance). */
const errorsOf = (processes: ParleyProcess[]) =>
  processes.flatMap((p) =>
    p.logs.filter((line) => line.level >= 50).map((line) => `${p.name}: ${JSON.stringify(line)}`),
  );

/** Waits until the dead process's sends are held and its work is mid-way, as the kill test needs. */
async function midway(workspaceId: string, sequenceId: string): Promise<void> {
  await poll(
    'held sends, the campaign dispatched and every enrolment past its second step',
    async () => ({
      held: graph.held.length,
      campaigns: (await progress(workspaceId)).campaigns,
      behind: (
        await db
          .selectFrom('sequence_enrolments')
          .select('id')
          .where('sequence_id', '=', sequenceId)
          .where('step_index', '<', 2)
          .execute()
      ).length,
    }),
    (state) => state.held > 0 && state.campaigns[0] === 'sending' && state.behind === 0,
  );
}

/**
 * What a killed process left: the sends Meta received, those held unanswered, and those whose fate
 * the process never learnt (held, or answered but not yet recorded as sent): only these may go twice.
 */
async function whatTheKillLeft(cloud: Cloud) {
  await sleep(SETTLE_MS);
  const sends = sendsOf(graph.requests, cloud);
  const recordedSent = new Set(
    (await messageRows(cloud.ws.workspaceId)).filter((row) => row.status === 'sent').map((row) => row.key),
  );
  return {
    sends,
    held: sendsOf(graph.held, cloud),
    fateUnknown: new Set(sends.filter((key) => !recordedSent.has(key))),
    state: await progress(cloud.ws.workspaceId),
  };
}

/** Parley's records: exactly the expected messages (one row each), every one sent. */
async function assertOneSentMessageEach(workspaceId: string, expected: string[]): Promise<void> {
  const rows = await messageRows(workspaceId);
  assert.deepEqual(
    differences(
      rows.map((row) => row.key),
      expected,
    ),
    none,
    'one message row per step and contact, and per recipient',
  );
  assert.deepEqual(
    rows.filter((row) => row.status !== 'sent'),
    [],
    'every message sent',
  );
}

describe(`real processes (${ENGINE})`, () => {
  test('SIGKILL mid-sequence and mid-campaign, then a restart: nothing lost, no step twice, only sends in flight resent', async (t) => {
    const first = startParleyProcess('first', server.env, certificate);
    // The process that restarts after the kill loads its code meanwhile; it opens the database only then.
    const standby = standbyParleyProcess('restarted', server.env, certificate);
    const cloud = await cloudWorkspace(100);
    const { workspaceId } = cloud.ws;
    const contacts = await insertContacts(workspaceId, 300);
    const enrolled = contacts.slice(0, 40);
    const campaignTemplate = await createTemplate(services, workspaceId, { name: `spring_${randomInt(1e9)}` });
    const api = asClient((await first).http, cloud.ws);
    const { sequence, templates } = await saveSequence(api, ['PT0S', 'PT1S', 'PT1S', 'PT0S', 'PT1S']);

    // Meta answers 60 sends, then stops answering: the sends after those are in flight at the kill.
    graph.holdMessagesAfter(60);
    await enrol([api], sequence.id, enrolled);
    const created = await api.action<Campaign>('create-campaign', {
      name: 'Spring',
      template_id: campaignTemplate.id,
      variables: ['{{contact.name}}', 'SPRING'],
      audience: { contact_ids: contacts.map((c) => c.id) },
    });
    assert.equal(created.status, 200, created.text);
    await midway(workspaceId, sequence.id);
    await (await first).kill();

    const left = await whatTheKillLeft(cloud);
    assert.ok((left.state.enrolments.active ?? 0) > 0, `mid-sequence at the kill: ${JSON.stringify(left.state)}`);
    assert.ok((left.state.messages.queued ?? 0) > 0, `mid-campaign at the kill: ${JSON.stringify(left.state)}`);
    assert.ok(left.held.length > 0, 'sends were in flight at the kill');
    for (const key of left.held) assert.ok(left.fateUnknown.has(key), `${key} was held, so not recorded as sent`);
    assert.deepEqual(differences(left.sends, left.sends).repeated, [], 'nothing went to Meta twice before the kill');

    graph.release();
    await expireLeases(workspaceId);
    const restarted = await standby.start();
    await poll('the restarted process to finish', () => progress(workspaceId), finished(enrolled.length));

    const expected = [
      ...enrolled.flatMap((c) => templates.map((template) => keyOf(c.phone, template))),
      ...contacts.map((c) => keyOf(c.phone, campaignTemplate.name)),
    ].sort();
    await assertOneSentMessageEach(workspaceId, expected);
    const again = asClient(restarted.http, cloud.ws);
    const fetched = await again.action<Sequence>('get-sequence', { sequence_id: sequence.id });
    assert.deepEqual(fetched.body.enrolments, { active: 0, waiting: 0, completed: 40, exited: 0, failed: 0 });
    const campaign = await again.action<Campaign>('get-campaign', { campaign_id: created.body.id });
    assert.deepEqual(
      [campaign.body.status, campaign.body.counts.recipients, campaign.body.counts.sent],
      ['sent', 300, 300],
    );

    // What Meta saw: every message, once, but for those the kill left unknown: these exactly twice.
    const seen = differences(sendsOf(graph.requests, cloud), expected);
    assert.deepEqual(
      { ...seen, repeated: seen.repeated.sort() },
      { ...none, repeated: [...left.fateUnknown].sort().map((key) => `${key} ×2`) },
      'every message reached Meta once, and those whose fate the kill left unknown twice',
    );
    t.diagnostic(
      `at the kill: ${left.sends.length} sends had reached Meta, ${left.held.length} of them held unanswered, ` +
        `${left.fateUnknown.size - left.held.length} answered but not yet recorded; ${JSON.stringify(left.state)}`,
    );
    const logged = errorsOf([await first, restarted]);
    if (logged.length > 0) t.diagnostic(`errors logged:\n${logged.join('\n')}`);
  });

  test('SIGKILL mid-campaign while Meta reports statuses, then a restart: every recipient gets the template exactly once', async (t) => {
    // Meta has no idempotency key: a send the kill left unknown waits for Meta's status naming it
    // (biz_opaque_callback_data) and is sent again only after the grace period with no such status. The
    // grace must cover the restart and Meta's retried reports: 15 s was too short on a loaded 2-core CI machine.
    const env = { ...server.env, OUTBOX_GRACE_SECONDS: '30' };
    const first = startParleyProcess('first', env, certificate);
    const standby = standbyParleyProcess('restarted', env, certificate);
    let alive: ParleyProcess | null = null;
    graph.reportStatuses(async (body) => {
      const raw = JSON.stringify(body);
      const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) };
      return (await alive?.http.send('POST', '/webhooks/whatsapp', { rawBody: raw, headers }))?.status === 200;
    });
    const cloud = await cloudWorkspace(100);
    const contacts = await insertContacts(cloud.ws.workspaceId, 300);
    const template = await createTemplate(services, cloud.ws.workspaceId, {
      name: `promo_${randomInt(1e9)}`,
      category: 'MARKETING',
    });
    alive = await first;
    // Meta answers 60 sends, then stops answering: the sends after those are in flight at the kill.
    graph.holdMessagesAfter(60);
    const heldBefore = graph.held.length;
    const created = await asClient(alive.http, cloud.ws).action<Campaign>('create-campaign', {
      name: 'Promo',
      template_id: template.id,
      variables: ['{{contact.name}}', 'PROMO'],
      audience: { contact_ids: contacts.map((c) => c.id) },
    });
    assert.equal(created.status, 200, created.text);
    await poll(
      'sends held mid-campaign',
      () => Promise.resolve(graph.held.length),
      (held) => held > heldBefore,
    );
    await alive.kill();
    alive = null;
    const left = await whatTheKillLeft(cloud);
    assert.ok(left.held.length > 0, 'sends were in flight at the kill');

    // Meta goes on: it sends what it held and reports it, retrying until a process takes the report.
    graph.release();
    alive = await standby.start();
    const campaignSent = (state: Progress) => !state.messages.queued && state.campaigns[0] === 'sent';
    await poll('the restarted process to finish', () => progress(cloud.ws.workspaceId), campaignSent);

    const expected = contacts.map((c) => keyOf(c.phone, template.name)).sort();
    await assertOneSentMessageEach(cloud.ws.workspaceId, expected);
    assert.deepEqual(
      differences(sendsOf(graph.requests, cloud), expected),
      none,
      'Meta got the template once per recipient: no send the kill left unknown went twice',
    );
    t.diagnostic(`at the kill: ${left.sends.length} sends had reached Meta, ${left.held.length} held unanswered`);
    const logged = errorsOf([alive]);
    if (logged.length > 0) t.diagnostic(`errors logged:\n${logged.join('\n')}`);
  });

  test('two processes on one database share a 200-contact sequence: each step once per contact', async (t) => {
    const standIns = [
      await startGraphStandIn({ apiVersion: API_VERSION }),
      await startGraphStandIn({ apiVersion: API_VERSION }),
    ];
    // Each process sends to a stand-in of its own, so what a stand-in received shows which process sent it.
    const starting = Promise.all(
      standIns.map((standIn, i) =>
        startParleyProcess(`process ${i + 1}`, { ...server.env, WHATSAPP_GRAPH_URL: standIn.url }, certificate),
      ),
    );
    const cloud = await cloudWorkspace(1000);
    const contacts = await insertContacts(cloud.ws.workspaceId, 200);
    const processes = await starting;
    const clients = processes.map((p) => asClient(p.http, cloud.ws));
    const { sequence, templates } = await saveSequence(clients[0]!, ['PT0S', 'PT1S', 'PT1S']);

    await enrol(clients, sequence.id, contacts);
    await poll('both processes to finish', () => progress(cloud.ws.workspaceId), finished(contacts.length));

    const expected = contacts.flatMap((c) => templates.map((template) => keyOf(c.phone, template))).sort();
    await assertOneSentMessageEach(cloud.ws.workspaceId, expected);
    const sent = standIns.map((standIn) => sendsOf(standIn.requests, cloud));
    assert.deepEqual(
      differences(sent.flat(), expected),
      none,
      'Meta got each step once per contact, from one process or the other',
    );
    const fetched = await clients[1]!.action<Sequence>('get-sequence', { sequence_id: sequence.id });
    assert.deepEqual(fetched.body.enrolments, { active: 0, waiting: 0, completed: 200, exited: 0, failed: 0 });
    // Not a particular split, but both must have worked, or the test did not test sharing.
    const split = sent.map((sends) => sends.length).join(' + ');
    assert.ok(
      sent.every((sends) => sends.length > 0),
      `both processes sent some of the messages (${split})`,
    );
    t.diagnostic(`messages sent by each process: ${split}`);
    const logged = errorsOf(processes);
    if (logged.length > 0) t.diagnostic(`errors logged:\n${logged.join('\n')}`);
  });
});
