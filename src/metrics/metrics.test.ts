import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { metaError } from '../../test/graph-stand-in.js';
import { ENGINE, startServer } from '../../test/server.js';
import { loadConfig } from '../config.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import { createTemplate } from '../../test/factories.js';
import type { Campaign } from '../campaigns/campaign.schema.js';
import type { Message } from '../messages/message.schema.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';

const METRICS_TOKEN = 'metrics-test-token-0123456789';
/** Prometheus's own checker (Debian: `apt-get install prometheus`), when this machine has it. */
const PROMTOOL = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((file) => fs.existsSync(file));
const MINUTE = 60_000;

/** Runs promtool with `input` on its standard input; its exit code and everything it printed. */
function promtool(args: string[], input = ''): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(PROMTOOL!, args);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}

const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer({
  outbox: true,
  env: { METRICS_TOKEN, PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' },
});
const { services } = server.app;

/** A webhook receiver that answers 200 to everything and counts what it got. */
let webhooksReceived = 0;
const receiver = http.createServer((req, res) => {
  req.resume().on('end', () => {
    webhooksReceived += 1;
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
after(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
const receiverAddress = receiver.address() as { port: number };

/** One scrape, as Prometheus makes it. */
async function scrape(): Promise<Samples> {
  const response = await server.http.send('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(response.status, 200, response.text);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return new Samples(response.text);
}

/** The samples of a text exposition, looked up by name and (some of) their labels; absent reads as 0. */
class Samples {
  private readonly lines: { name: string; labels: Record<string, string>; value: number }[];
  constructor(readonly text: string) {
    this.lines = text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
        assert.ok(match, `not a sample line: ${line}`);
        const pairs = [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m): [string, string] => [m[1]!, m[2]!]);
        const labels = Object.fromEntries(pairs);
        return { name: match[1]!, labels, value: Number(match[3]) };
      });
  }
  value(name: string, labels: Record<string, string> = {}): number {
    const matching = this.lines.filter(
      (line) => line.name === name && Object.entries(labels).every(([key, value]) => line.labels[key] === value),
    );
    return matching.reduce((sum, line) => sum + line.value, 0);
  }
}

/** Waits until the background workers have nothing more to do for what was just committed. */
async function settled(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let round = 0; round < 200; round++) {
    await services.outbox.idle();
    await services.webhookWorker.idle();
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail('the workers did not settle');
}

describe('GET /metrics', () => {
  test('refuses a missing, wrong or workspace token with 401 in the problem shape', async () => {
    const cloud = await cloudWorkspace();
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${cloud.ws.token}`]) {
      const response = await server.http.send<{ code: string }>('GET', '/metrics', {
        headers: authorization ? { authorization } : {},
      });
      assert.equal(response.status, 401, authorization);
      assert.equal(response.body.code, 'unauthorized');
    }
  });

  test('METRICS_TOKEN shorter than 16 characters stops the start with a clear message', () => {
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'guessable' }), /METRICS_TOKEN must be at least 16 characters/);
  });

  test('does not exist where METRICS_TOKEN is not set', async () => {
    const unconfigured = await startServer();
    const response = await unconfigured.http.send<{ code: string }>('GET', '/metrics', {
      headers: { authorization: 'Bearer anything-at-all-here' },
    });
    assert.equal(response.status, 404);
    assert.equal(unconfigured.app.services.metrics, null);
  });

  test('follows Prometheus naming: only counters end in _total (what promtool check metrics refuses)', async () => {
    const { text } = await scrape();
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! }));
    assert.ok(types.length > 20, text);
    assert.deepEqual(
      types.filter(({ name, type }) => name.endsWith('_total') && type !== 'counter'),
      [],
    );
    // The by-type gauges the dropped `_total` ones summed are still served.
    assert.match(text, /^# TYPE parley_nodejs_active_handles gauge$/m);
  });

  test('promtool check metrics finds nothing to say', { skip: !PROMTOOL && 'promtool is not installed' }, async () => {
    const { text } = await scrape();
    assert.deepEqual(await promtool(['check', 'metrics'], text), { code: 0, output: '' });
  });

  test('the alert rules in docs/operations.md pass promtool check rules and name only served series', async (t) => {
    const operations = fs.readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const rules = /## Alerts[\s\S]*?```yaml\n([\s\S]*?)```/.exec(operations)?.[1];
    assert.ok(rules, 'docs/operations.md has an Alerts section with a yaml block');
    const { text } = await scrape();
    const served = new Set([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]!));
    const named = [...new Set(rules.match(/parley_[a-z_]+/g))].map((name) => name.replace(/_(count|sum|bucket)$/, ''));
    assert.deepEqual(
      named.filter((name) => !served.has(name)),
      [],
    );
    if (!PROMTOOL) return t.skip('promtool is not installed');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-rules-')), 'parley.rules.yml');
    fs.writeFileSync(file, rules);
    const result = await promtool(['check', 'rules', file]);
    assert.equal(result.code, 0, result.output);
  });

  test('counts requests per route pattern, sends per channel and outcome, and webhook deliveries', async () => {
    const cloud = await cloudWorkspace();
    const channelId = (await services.channels.list({ workspaceId: cloud.ws.workspaceId }))[0]!.id!;
    const created = await cloud.ws.action('create-webhook', {
      url: `http://127.0.0.1:${receiverAddress.port}/hook`,
      events: ['message-status-changed'],
    });
    assert.equal(created.status, 200, created.text);
    const phone = '+14155550190';
    const inbound = await postWebhook(
      inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: phone, text: 'hi' }),
    );
    assert.equal(inbound.status, 200);
    const before = await scrape();

    const accepted = await cloud.ws.action<Message>('send-text-message', { phone, message: 'one' });
    assert.equal(accepted.status, 200, accepted.text);
    await settled(() => webhooksReceived >= 1);
    graph.failNext({ status: 400, body: metaError(131026, 'Message undeliverable') });
    const refused = await cloud.ws.action<Message>('send-text-message', { phone, message: 'two' });
    assert.equal(refused.status, 200, refused.text);
    await settled(() => webhooksReceived >= 2);
    const afterwards = await scrape();

    const moved = (name: string, labels: Record<string, string>) =>
      afterwards.value(name, labels) - before.value(name, labels);
    assert.equal(moved('parley_outbox_sends_total', { channel_id: channelId, outcome: 'accepted' }), 1);
    assert.equal(moved('parley_outbox_sends_total', { channel_id: channelId, outcome: 'failed' }), 1);
    assert.equal(moved('parley_webhook_deliveries_total', { result: 'delivered' }), 2);
    const sendRoute = { route: '/api/v1/actions/send-text-message', method: 'POST', status_code: '200' };
    assert.equal(moved('parley_http_request_duration_seconds_count', sendRoute), 2);
    // PostgreSQL's pool is this process's: each query above took a connection from it.
    if (ENGINE === 'postgres') assert.ok(moved('parley_db_pool_acquires_total', {}) > 0, afterwards.text);
    else assert.doesNotMatch(afterwards.text, /parley_db_pool_connections\{/);
    if (ENGINE === 'sqlite') {
      // A search runs on the SQLite read pool's worker threads: counted, with its time queued for one.
      const readsBefore = afterwards.value('parley_db_read_pool_reads_total', {});
      const searched = await cloud.ws.action('search-contacts', { query: '0190' });
      assert.equal(searched.status, 200, searched.text);
      const read = await scrape();
      assert.ok(read.value('parley_db_read_pool_reads_total', {}) > readsBefore, read.text);
      assert.match(read.text, /^parley_db_read_pool_wait_seconds_total \d/m);
      assert.ok(read.value('parley_db_read_pool_threads', { state: 'idle' }) >= 1, read.text);
    }
    // The pattern, not the URL: requests to unknown paths share one series.
    await server.http.send('GET', '/no/such/path-1');
    await server.http.send('GET', '/no/such/path-2');
    const third = await scrape();
    assert.equal(third.value('parley_http_request_duration_seconds_count', { route: '(unmatched)' }) >= 2, true);
    assert.doesNotMatch(third.text, /path-1/);
  });

  test('reads the queues at scrape time: a waiting message’s age, then none once sent', async () => {
    const cloud = await cloudWorkspace();
    const phone = '+14155550191';
    await postWebhook(inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: phone, text: 'hi' }));
    await services.outbox.stop();
    const queued = await cloud.ws.action<Message>('send-text-message', { phone, message: 'waits' });
    assert.equal(queued.status, 200, queued.text);
    server.clock.advance(2 * MINUTE);
    const waiting = await scrape();
    assert.ok(waiting.value('parley_outbox_queued') >= 1);
    assert.ok(waiting.value('parley_outbox_oldest_due_seconds') >= 120, waiting.text);

    services.outbox.start(server.app.server.log);
    await settled(async () => (await scrape()).value('parley_outbox_queued') === 0);
    assert.equal((await scrape()).value('parley_outbox_oldest_due_seconds'), 0);
  });

  test('reads the scheduler’s lag: a due job’s wait at scrape time, then how late it started', async () => {
    const cloud = await cloudWorkspace();
    const { workspaceId } = cloud.ws;
    const template = await createTemplate(services, workspaceId);
    const campaign = await cloud.ws.action<Campaign>('create-campaign', {
      name: 'Lagging',
      template_id: template.id,
      variables: ['Ada', 'ORD-1'],
      audience: { tag: 'nobody-has-this' },
      scheduled_at: new Date(server.clock.now().getTime() + MINUTE).toISOString(),
    });
    assert.equal(campaign.status, 200, campaign.text);
    const before = await scrape();
    server.clock.advance(4 * MINUTE);
    const due = await scrape();
    assert.ok(due.value('parley_jobs_due') >= 1, due.text);
    assert.ok(due.value('parley_jobs_oldest_due_seconds') >= 180, due.text);

    await services.scheduler.runDue(workspaceId);
    const ran = await scrape();
    const lag = { kind: 'campaign_dispatch' };
    const count = 'parley_job_start_lag_seconds_count';
    assert.equal(ran.value(count, lag) - before.value(count, lag), 1);
    assert.ok(
      ran.value('parley_job_start_lag_seconds_sum', lag) - before.value('parley_job_start_lag_seconds_sum', lag) >= 180,
    );
    const longer = { ...lag, le: '60' };
    assert.equal(
      ran.value('parley_job_start_lag_seconds_bucket', longer),
      before.value('parley_job_start_lag_seconds_bucket', longer),
    );
  });
});
