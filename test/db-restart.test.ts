/**
 * PostgreSQL going away under a real Parley process (`src/main.ts`, what `npm start` runs): a fast
 * restart of the cluster in the middle of a campaign and a stream of Meta's webhooks, and a start
 * before the database is up. What an operator relies on: the process stays up, answers 503 with
 * Retry-After meanwhile, and resumes by itself; nothing acknowledged is lost, nothing sent twice.
 * The cluster is the test's own (scripts/postgres-temp.sh), so stopping it disturbs no other file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import type { Campaign } from '../src/campaigns/campaign.schema.js';
import { newContactRow } from '../src/contacts/contact.repository.js';
import { toStoredTimestamp } from '../src/shared/time.js';
import { inboundTextWebhook, signBody } from '../src/whatsapp/webhook.fixtures.js';
import { REPO_ROOT } from './cli.js';
import { freePort } from './host-tools.js';
import { asClient, createTemplate, createWorkspace } from './factories.js';
import { standbyParleyProcess, startParleyProcess, type ParleyProcess } from './parley-process.js';
import { ENGINE, type HttpResponse } from './server.js';
import { API_VERSION, APP_SECRET, startWhatsappServer, type WhatsappTestBed } from './whatsapp.js';

const run = promisify(execFile);
const SCRIPT = path.join(REPO_ROOT, 'scripts/postgres-temp.sh');
/** Bounds on waiting (not timings under test): generous for a busy two-core machine. */
const DEADLINE_MS = 120_000;
const BACK_WITHIN_MS = 30_000;
const RECIPIENTS = 200;
const WEBHOOKS = 120;

const skip =
  ENGINE === 'postgres' ? false : 'a PostgreSQL restart is PostgreSQL behaviour: run with PARLEY_TEST_DATABASE_URL';

interface Cluster {
  url: string;
  /** Stops the server as a restart does (`pg_ctl stop -m fast`: sessions are ended), keeping its data. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** A throwaway cluster of this file's own, removed after its tests. */
async function startCluster(): Promise<Cluster> {
  const { stdout } = await run('bash', [SCRIPT, 'start', String(await freePort())]);
  const [dir, url] = stdout.trim().split(' ') as [string, string];
  after(() => run('bash', [SCRIPT, 'stop', dir]).catch(() => run('rm', ['-rf', dir])));
  return {
    url,
    pause: async () => void (await run('bash', [SCRIPT, 'pause', dir])),
    resume: async () => void (await run('bash', [SCRIPT, 'resume', dir])),
  };
}

/** Probes until `done`; fails with the last probe's answer at the deadline. */
async function poll<T>(what: string, probe: () => Promise<T>, done: (state: T) => boolean, within = DEADLINE_MS) {
  const deadline = Date.now() + within;
  for (;;) {
    const state = await probe();
    if (done(state)) return state;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(state)}`);
    await sleep(100);
  }
}

/** What the test needs of a problem document. */
const problemOf = (response: HttpResponse) => ({
  status: response.status,
  code: (response.body as { code?: string }).code,
  retryAfter: response.headers['retry-after'],
});

/** The file's cluster, and an in-process server on it: the test's handle on the database (outbox and scheduler stopped). */
async function setUp(): Promise<{ cluster: Cluster; bed: WhatsappTestBed }> {
  const cluster = await startCluster();
  return { cluster, bed: await startWhatsappServer({ env: { DATABASE_URL: cluster.url } }) };
}

// Set up at the file's top level: its `after` hooks then run once the file's tests are done.
const { cluster, bed } = skip ? ({} as Awaited<ReturnType<typeof setUp>>) : await setUp();

describe(`a PostgreSQL restart under a running Parley (${ENGINE})`, { skip }, () => {
  /** A WhatsApp Cloud workspace on the stand-in, its contacts written straight into the table. */
  async function campaignWorkspace() {
    const { server, graph } = bed;
    const { services } = server.app;
    const ws = await createWorkspace(server, { rateLimitPerMinute: 100_000 });
    const { phoneNumberId, wabaId, accessToken } = graph.addPhoneNumber();
    // 50 a second: the campaign takes seconds, so the restart falls in the middle of it.
    await services.channels.useWhatsappCloud(
      { workspaceId: ws.workspaceId },
      { phoneNumberId, wabaId, accessToken, messagesPerSecond: 50 },
    );
    const at = toStoredTimestamp(new Date());
    const rows = Array.from({ length: RECIPIENTS }, (_, i) =>
      newContactRow({
        ...{ id: services.deps.newId(), workspaceId: ws.workspaceId, phone: `+1415${3_000_000 + i}` },
        ...{ name: `Customer ${i}`, email: null, customAttributes: '{}', at },
      }),
    );
    await services.deps.db.insertInto('contacts').values(rows).execute();
    const template = await createTemplate(services, ws.workspaceId, { name: `restart_${randomInt(1e9)}` });
    return { ws, phoneNumberId, contacts: rows, template };
  }

  /** Posts signed inbound messages one after another, retrying each until a 2xx as Meta does; their wamids. */
  async function streamWebhooks(parley: ParleyProcess, phoneNumberId: string, statuses: number[]) {
    const acknowledged: string[] = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const wamid = `wamid.restart-${randomUUID()}`;
      const body = JSON.stringify(
        inboundTextWebhook({ phoneNumberId, from: `+1650${4_000_000 + i}`, wamid, text: `m${i}` }),
      );
      const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, APP_SECRET) };
      for (;;) {
        const response = await parley.http.send('POST', '/webhooks/whatsapp', { rawBody: body, headers });
        statuses.push(response.status);
        if (response.status >= 200 && response.status < 300) break;
        await sleep(200);
      }
      acknowledged.push(wamid);
      await sleep(20);
    }
    return acknowledged;
  }

  test('restarted mid-campaign and mid-webhooks: stays up, answers 503 meanwhile, loses and repeats nothing', async (t) => {
    const { graph, server } = bed;
    const { db } = server.app.services.deps;
    // Meta reports each send (naming it in biz_opaque_callback_data): a send whose answer the restart cut off is settled by it.
    const env = { ...server.env, OUTBOX_GRACE_SECONDS: '15' };
    const parley = await startParleyProcess('parley', env, server.app.tls!.cert);
    graph.reportStatuses(async (body) => {
      const raw = JSON.stringify(body);
      const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) };
      return (await parley.http.send('POST', '/webhooks/whatsapp', { rawBody: raw, headers })).status === 200;
    });
    const { ws, phoneNumberId, contacts, template } = await campaignWorkspace();
    const api = asClient(parley.http, ws);
    const webhookStatuses: number[] = [];
    const webhooks = streamWebhooks(parley, phoneNumberId, webhookStatuses);
    const created = await api.action<Campaign>('create-campaign', {
      name: 'Through a restart',
      template_id: template.id,
      variables: ['{{contact.name}}', 'RESTART'],
      audience: { contact_ids: contacts.map((c) => c.id) },
    });
    assert.equal(created.status, 200, created.text);
    const sendsPath = `/${API_VERSION}/${phoneNumberId}/messages`;
    const sends = () => graph.requests.filter((r) => r.method === 'POST' && r.path === sendsPath);
    await poll(
      'the campaign under way',
      () => Promise.resolve(sends().length),
      (n) => n >= RECIPIENTS / 5,
    );

    await cluster.pause();
    const during = await poll(
      'a 503 from the API',
      () => api.get('/v1/me').then(problemOf),
      (p) => p.status === 503,
    );
    const health = await parley.http.send<{ status: string }>('GET', '/healthz');
    await cluster.resume();
    assert.equal(during.code, 'database_unavailable');
    assert.ok(Number(during.retryAfter) > 0, `Retry-After: ${String(during.retryAfter)}`);
    assert.deepEqual([health.status, health.body.status], [503, 'unavailable']);
    await poll(
      'the API back',
      () => api.get('/v1/me').then((r) => r.status),
      (s) => s === 200,
      BACK_WITHIN_MS,
    );

    const acknowledged = await webhooks;
    const finished = await poll(
      'the campaign finished',
      () => api.action<Campaign>('get-campaign', { campaign_id: created.body.id }).then((r) => r.body),
      (campaign) => campaign.status === 'sent' && campaign.counts.sent === RECIPIENTS,
    );
    assert.equal(parley.exit(), null, 'the process is still running');

    const stored = await db
      .selectFrom('messages')
      .select('provider_message_id')
      .where('provider_message_id', 'in', acknowledged)
      .execute();
    assert.equal(stored.length, acknowledged.length, 'every acknowledged webhook is stored, once');
    const perRecipient = new Map<string, number>();
    for (const send of sends()) {
      const to = (send.body as { to: string }).to;
      perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    }
    const phones = contacts.map((c) => c.phone.replace(/^\+/, ''));
    const counts = (phone: string) => perRecipient.get(phone) ?? perRecipient.get(`+${phone}`) ?? 0;
    assert.deepEqual(
      phones.filter((phone) => counts(phone) !== 1).map((phone) => `${phone} ×${counts(phone)}`),
      [],
      'each recipient got the template exactly once at Meta',
    );
    assert.equal(finished.counts.recipients, RECIPIENTS);
    const refused = webhookStatuses.filter((status) => status >= 300);
    const warned = parley.logs.some((line) => line.msg?.startsWith('the database is unavailable'));
    assert.ok(warned, 'the outage was logged');
    t.diagnostic(
      `webhooks refused during the outage (then retried): ${refused.length} (${[...new Set(refused)].join(', ')})`,
    );
    const errors = parley.logs.filter((line) => line.level >= 50).map((line) => JSON.stringify(line));
    if (errors.length > 0) t.diagnostic(`errors logged:\n${errors.join('\n')}`);
  });

  test('started while PostgreSQL is down: waits for it, then migrates and serves', async () => {
    const { server } = bed;
    const ws = await createWorkspace(server);
    await cluster.pause();
    const standby = standbyParleyProcess('early', server.env, server.app.tls!.cert);
    const serving = standby.start();
    await poll(
      'the process waiting for the database',
      () => Promise.resolve(standby.logs.some((line) => line.msg === 'waiting for the database')),
      Boolean,
    );
    await cluster.resume();
    const parley = await serving;
    const health = await parley.http.send<{ status: string; version: string }>('GET', '/healthz');
    assert.deepEqual([health.status, health.body.status], [200, 'ok']);
    assert.match(health.body.version, /^\d+\.\d+\.\d+/);
    const me = await asClient(parley.http, ws).get('/v1/me');
    assert.equal(me.status, 200, me.text);
  });

  test('a database that stays away past DATABASE_WAIT_SECONDS: the start gives up with exit 1 and says why', async () => {
    const { server } = bed;
    await cluster.pause();
    try {
      const standby = standbyParleyProcess(
        'gives-up',
        { ...server.env, DATABASE_WAIT_SECONDS: '1' },
        server.app.tls!.cert,
      );
      await assert.rejects(standby.start(), /exited \(1\) before serving[\s\S]*did not answer within 1 s/);
    } finally {
      await cluster.resume();
    }
  });
});
