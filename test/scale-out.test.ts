/**
 * One deployment, many processes: three real Parley servers (`src/main.ts`, what `npm start` runs)
 * on one database, requests spread over them as a load balancer would. What must hold for the
 * deployment as a whole: the polling interval, Meta's throughput per number, live inbox updates, token
 * revocation and the Marketing Messages API setting.
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Agent, request } from 'undici';
import type { Campaign } from '../src/campaigns/campaign.schema.js';
import { newContactRow } from '../src/contacts/contact.repository.js';
import { SESSION_COOKIE } from '../src/http/session-auth.js';
import { toStoredTimestamp } from '../src/shared/time.js';
import { inboundTextWebhook, signBody } from '../src/whatsapp/webhook.fixtures.js';
import { logInOverHttp } from './dashboard-session.js';
import { asClient, createTemplate } from './factories.js';
import { metaError, startGraphStandIn, type RecordedRequest } from './graph-stand-in.js';
import { startParleyProcess } from './parley-process.js';
import { ENGINE } from './server.js';
import { API_VERSION, APP_SECRET, startWhatsappServer } from './whatsapp.js';

// The in-process server is the test's handle on the database (its outbox and workers are stopped).
const { graph, server } = await startWhatsappServer();
const { services } = server.app;
const certificate = server.app.tls!.cert;
// Each process sends to a stand-in of its own; together they are Meta, counting what arrives.
const standIns = await Promise.all([1, 2, 3].map(() => startGraphStandIn({ apiVersion: API_VERSION })));
after(() => Promise.all(standIns.map((standIn) => standIn.close())));
const [a, b, c] = await Promise.all(
  standIns.map((standIn, i) =>
    startParleyProcess(`process ${'ABC'[i]}`, { ...server.env, WHATSAPP_GRAPH_URL: standIn.url }, certificate),
  ),
);
const processes = [a!, b!, c!];

/** A workspace with an owner who can sign in, a full-access token and a WhatsApp Cloud number at `messagesPerSecond`. */
async function shop(messagesPerSecond = 80) {
  const credentials = { email: `owner-${randomUUID()}@example.com`, password: 'correct horse battery' };
  const { workspace, user } = await services.workspaces.setup({ name: `Shop ${randomInt(1e9)}`, ...credentials });
  const issued = await services.tokens.create({ workspaceId: workspace.id, userId: user.id, name: 'api' });
  const { phoneNumberId, wabaId, accessToken } = graph.addPhoneNumber();
  await services.channels.useWhatsappCloud(
    { workspaceId: workspace.id },
    { phoneNumberId, wabaId, accessToken, messagesPerSecond },
  );
  const ids = { workspaceId: workspace.id, userId: user.id, token: issued.token, tokenId: issued.id };
  return { credentials, phoneNumberId, through: processes.map((p) => asClient(p.http, ids)) };
}

/** Contacts written straight into the table, a batch at a time (hundreds of API calls would only be slow). */
async function contactIds(workspaceId: string, count: number): Promise<string[]> {
  const at = toStoredTimestamp(new Date());
  const rows = Array.from({ length: count }, (_, i) => {
    const [id, phone] = [services.deps.newId(), `+1415${3_000_000 + i}`];
    return newContactRow({ id, workspaceId, phone, name: `Guest ${i}`, email: null, customAttributes: '{}', at });
  });
  for (let i = 0; i < rows.length; i += 200)
    await services.deps.db
      .insertInto('contacts')
      .values(rows.slice(i, i + 200))
      .execute();
  return rows.map((row) => row.id);
}

/** The most sends any one-second window (starting at a send) holds. */
function busiestSecond(sends: RecordedRequest[]): number {
  const times = sends.map((send) => send.at).sort((x, y) => x - y);
  let most = 0;
  for (let first = 0, last = 0; first < times.length; first++) {
    while (last < times.length && times[last]! < times[first]! + 1000) last++;
    most = Math.max(most, last - first);
  }
  return most;
}

/** Long enough for a slow machine; a hang (an event that never comes) fails instead of stalling the suite. */
const timeout = 120_000;

describe(`three processes on one database (${ENGINE})`, () => {
  test(
    'polling a trigger twice within the interval through two processes: the second is 429',
    { timeout },
    async () => {
      const { through } = await shop();
      const first = await through[0]!.get('/v1/triggers/new-message-received');
      assert.equal(first.status, 200, first.text);
      const second = await through[1]!.get<{ code: string }>('/v1/triggers/new-message-received');
      assert.equal(second.status, 429, second.text);
      assert.equal(second.body.code, 'poll_too_frequent');
      assert.equal((await through[2]!.get('/v1/triggers/new-message-received')).status, 429, 'and through the third');
    },
  );

  test(
    'a per-minute budget spent through A is refused by B too, after B’s next reconciliation',
    { timeout },
    async () => {
      const { through } = await shop();
      await services.workspaces.update(through[0]!.workspaceId, { rateLimitPerMinute: 20 });
      // Budgets are whole clock minutes: start early in one, so the test's requests share it.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute));
      for (let i = 0; i < 20; i++)
        assert.equal((await through[0]!.get('/v1/me')).status, 200, `request ${i + 1} via A`);
      let admittedByB = 0;
      while ((await through[1]!.get('/v1/me')).status === 200) {
        admittedByB++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Alone, B would admit its own 20; sharing, only what came before it learnt A's count.
      assert.ok(admittedByB < 20, `B admitted ${admittedByB} more of a budget A had spent`);
    },
  );

  test(
    'a campaign at 80 msg/s sent by three processes reaches Meta at no more than 80 a second (±5 %)',
    { timeout },
    async (t) => {
      const { phoneNumberId, through } = await shop(80);
      const workspaceId = through[0]!.workspaceId;
      const recipients = await contactIds(workspaceId, 480);
      const template = await createTemplate(services, workspaceId, { name: `sale_${randomInt(1e9)}` });
      const created = await through[0]!.action<Campaign>('create-campaign', {
        name: 'Sale',
        template_id: template.id,
        variables: ['{{contact.name}}', 'SALE'],
        audience: { contact_ids: recipients },
      });
      assert.equal(created.status, 200, created.text);
      const sendsOf = (requests: RecordedRequest[]) =>
        requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${phoneNumberId}/messages`);
      for (let done = false; !done;) {
        const campaign = await through[randomInt(3)]!.action<Campaign>('get-campaign', {
          campaign_id: created.body.id,
        });
        done = campaign.body.status === 'sent' && campaign.body.counts.sent === recipients.length;
        if (!done) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const perProcess = standIns.map((standIn) => sendsOf(standIn.requests));
      const sends = perProcess.flat();
      assert.equal(sends.length, recipients.length, 'one send per recipient');
      assert.ok(
        perProcess.filter((list) => list.length > 0).length >= 2,
        `several processes sent (${perProcess.map((list) => list.length).join(' + ')}), or this tests no sharing`,
      );
      // Over the whole campaign the three together keep the number's rate (+5 %). In any one second a busy
      // machine may bunch a few late sends, but never near the 240/s three unshared pacers would reach.
      const times = sends.map((send) => send.at);
      const rate = (sends.length - 1) / ((Math.max(...times) - Math.min(...times)) / 1000);
      assert.ok(rate <= 84, `at most 80 (+5 %) sends a second over the campaign; it averaged ${rate.toFixed(1)}`);
      const most = busiestSecond(sends);
      assert.ok(most < 120, `no second near three processes' unshared rate; the busiest second had ${most}`);
      t.diagnostic(
        `${rate.toFixed(1)} sends/s over the campaign; busiest second: ${most}; by process: ${perProcess.map((list) => list.length).join(' + ')}`,
      );
    },
  );

  test(
    'a 130429 answered to process A pauses the number in process B too, for Meta’s Retry-After',
    { timeout },
    async () => {
      const { phoneNumberId, through } = await shop(80);
      const [viaA, viaB] = through;
      const template = await createTemplate(services, viaA!.workspaceId, { name: `notice_${randomInt(1e9)}` });
      const send = (client: typeof viaA, phone: string) =>
        client!.action('send-template-message', { phone, template_id: template.id, variables: ['Ada', 'x'] });
      const sendsOf = (index: number) =>
        standIns[index]!.requests.filter((r) => r.path === `/${API_VERSION}/${phoneNumberId}/messages`);
      standIns[0]!.failNext({
        status: 400,
        body: metaError(130429, 'Rate limit hit'),
        headers: { 'retry-after': '2' },
      });
      assert.equal((await send(viaA, '+14155550140')).status, 200);
      // Process A has taken the answer in once the pause is in the database.
      const paused = () =>
        services.deps.db
          .selectFrom('send_pacing')
          .select('next_slot_ms')
          .where('pace_key', '=', phoneNumberId)
          .executeTakeFirst();
      for (
        let row = await paused();
        !row || Number(row.next_slot_ms) < (sendsOf(0)[0]?.at ?? Infinity) + 2000;
        row = await paused()
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal((await send(viaB, '+14155550141')).status, 200);
      while (sendsOf(1).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      const [throttled, next] = [sendsOf(0)[0]!.at, sendsOf(1)[0]!.at];
      assert.ok(next - throttled >= 2000, `B sent ${next - throttled} ms after A's 130429 (Retry-After: 2)`);
    },
  );

  test('an inbound message handled by process A shows in a live stream opened on process B', { timeout }, async () => {
    const { credentials, phoneNumberId } = await shop();
    const session = await logInOverHttp(b!, credentials);
    const agent = new Agent({ connect: { ca: certificate } });
    after(() => agent.destroy());
    const stream = await request(`${b!.baseUrl}/api/dashboard/events`, {
      dispatcher: agent,
      reset: true,
      headers: { cookie: `${SESSION_COOKIE}=${session.cookie}`, accept: 'text/event-stream' },
    });
    assert.equal(stream.statusCode, 200);
    const raw = JSON.stringify(inboundTextWebhook({ phoneNumberId, from: '+14155550123', text: 'Is it open today?' }));
    const posted = await a!.http.send('POST', '/webhooks/whatsapp', {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) },
    });
    assert.equal(posted.status, 200, posted.text);
    let received = '';
    for await (const chunk of stream.body) {
      received += String(chunk);
      if (/event: message\ndata: .*"direction":"inbound"/.test(received)) break;
    }
    stream.body.destroy();
    assert.match(received, /event: message\ndata: .*"direction":"inbound"/);
  });

  test('a token revoked through process C is refused by A and B on their next request', { timeout }, async () => {
    const { credentials, through } = await shop();
    const [viaA, viaB] = through;
    // Both have now seen (and cached) the token.
    assert.deepEqual([(await viaA!.get('/v1/me')).status, (await viaB!.get('/v1/me')).status], [200, 200]);
    const owner = await logInOverHttp(c!, credentials);
    const revoked = await owner.send('DELETE', `/api/dashboard/tokens/${viaA!.tokenId}`);
    assert.equal(revoked.status, 200, revoked.text);
    assert.deepEqual([(await viaA!.get('/v1/me')).status, (await viaB!.get('/v1/me')).status], [401, 401]);
  });

  test(
    'the Marketing Messages API turned on, then off, through A: B sends the next marketing template by it, then not',
    { timeout },
    async () => {
      const { phoneNumberId, through } = await shop();
      const [viaA, viaB] = through;
      const template = await createTemplate(services, viaA!.workspaceId, {
        name: `spring_sale_${randomInt(1e9)}`,
        category: 'MARKETING',
        translations: [{ language: 'en_US', status: 'APPROVED', body: 'Spring sale: 20% off everything today.' }],
      });
      const sendsOfB = () =>
        standIns[1]!.requests.filter(
          (r) => r.method === 'POST' && r.path.startsWith(`/${API_VERSION}/${phoneNumberId}/`),
        );
      /** Sends the template through B's API; the Graph edge B's outbox sent it to. */
      const sendThroughB = async (phone: string) => {
        const before = sendsOfB().length;
        const queued = await viaB!.action('send-template-message', { phone, template_id: template.id });
        assert.equal(queued.status, 200, queued.text);
        while (sendsOfB().length === before) await new Promise((resolve) => setTimeout(resolve, 50));
        return sendsOfB().at(-1)!.path.split('/').at(-1);
      };
      const setThroughA = async (enabled: boolean) => {
        const body = { enabled, ...(enabled && { meta_terms_accepted: true }) };
        const saved = await viaA!.action('update-marketing-messages-settings', body);
        assert.equal(saved.status, 200, saved.text);
      };

      // B has now cached the workspace's channels, with the setting off.
      assert.equal(await sendThroughB('+14155550150'), 'messages');
      await setThroughA(true);
      assert.equal(await sendThroughB('+14155550151'), 'marketing_messages', 'on, as A set it');
      await setThroughA(false);
      assert.equal(await sendThroughB('+14155550152'), 'messages', 'off again, as A set it');
    },
  );
});
