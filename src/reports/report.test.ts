import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createOwner } from '../../test/browser.js';
import { joinedTeammate, logInOverHttp, type DashboardSession } from '../../test/dashboard-session.js';
import { createTemplate, ownerApi } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import { documentedStatusWebhook } from '../webhooks/whatsapp.delivery-fixtures.js';
import { inboundTextWebhook } from '../webhooks/whatsapp.fixtures.js';
import type { Report } from './report.types.js';

const MINUTE = 60_000;
const { server, connect, postWebhook } = await startWhatsappServer({ outbox: true });
const { services } = server.app;
const { db } = services.deps;

/** A workspace on its own Graph stand-in number, and its owner signed in to the dashboard. */
async function cloudOwner() {
  const owner = await createOwner(server, `Reports ${randomInt(1e9)}`);
  const { phoneNumberId } = await connect(owner.workspaceId);
  return { session: await logInOverHttp(server, owner), phoneNumberId };
}

/** A customer writes in through Meta's webhook now (by the server's clock); the contact's id. */
async function customerWrites(phoneNumberId: string, workspaceId: string, from: string) {
  const webhook = inboundTextWebhook({
    phoneNumberId,
    from,
    name: null,
    text: 'Hello?',
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(webhook)).status, 200);
  const contact = await db
    .selectFrom('contacts')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('phone', '=', `+${from}`)
    .executeTakeFirstOrThrow();
  return contact.id;
}

async function reply(session: DashboardSession, contactId: string) {
  const sent = await session.send('POST', '/api/v1/actions/send-text-message', {
    contact_id: contactId,
    message: 'On it',
  });
  assert.equal(sent.status, 200, sent.text);
}

async function markDone(session: DashboardSession, contactId: string) {
  const done = await session.send('POST', `/api/dashboard/conversations/${contactId}/done`, { done: true });
  assert.equal(done.status, 200, done.text);
}

/** The report over the days around now (the clock may cross midnight while a test runs). */
async function reportOf(session: DashboardSession): Promise<Report> {
  const day = (offset: number) =>
    new Date(server.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await session.send<Report>('GET', `/api/dashboard/reports?from=${day(-2)}&to=${day(1)}`);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const sum = (report: Report, key: 'opened' | 'closed') => report.conversations.reduce((n, day) => n + day[key], 0);

describe(`reports (${ENGINE})`, () => {
  test('conversations opened and closed, and response times overall and per agent, from the inbox', async () => {
    const { session: owner, phoneNumberId } = await cloudOwner();
    const mate = await joinedTeammate(server, owner);
    const { workspaceId } = owner;

    // Assigned to the teammate, answered after 10 minutes, done after an hour: counted for the teammate.
    const first = await customerWrites(phoneNumberId, workspaceId, '4915112345001');
    const assigned = await owner.send('PUT', `/api/v1/conversations/${first}/assignment`, {
      team_id: null,
      assignee_id: mate.userId,
    });
    assert.equal(assigned.status, 200, assigned.text);
    server.clock.advance(10 * MINUTE);
    await reply(mate, first);
    await reply(owner, first); // not a first response any more
    server.clock.advance(50 * MINUTE);
    await markDone(owner, first);

    // Unassigned, answered after 2 minutes and done after 5 by the owner: counted for the owner.
    const second = await customerWrites(phoneNumberId, workspaceId, '4915112345002');
    server.clock.advance(2 * MINUTE);
    await reply(owner, second);
    server.clock.advance(3 * MINUTE);
    await markDone(owner, second);

    // Still waiting: opened, not closed, in no response time.
    await customerWrites(phoneNumberId, workspaceId, '4915112345003');
    // Writing again to a waiting conversation opens nothing new.
    await customerWrites(phoneNumberId, workspaceId, '4915112345003');

    const report = await reportOf(owner);
    assert.equal(sum(report, 'opened'), 3);
    assert.equal(sum(report, 'closed'), 2);
    assert.equal(report.conversations.length, 4);
    const times = report.response_times.map((row) => [
      row.agent?.id ?? 'everyone',
      row.conversations,
      row.answered,
      row.first_response.median_seconds,
      row.first_response.p90_seconds,
      row.resolution.median_seconds,
      row.resolution.p90_seconds,
    ]);
    assert.deepEqual(
      new Set(times.map((row) => JSON.stringify(row))),
      new Set(
        [
          ['everyone', 2, 2, 120, 600, 300, 3600],
          [mate.userId, 1, 1, 600, 600, 3600, 3600],
          [owner.userId, 1, 1, 120, 120, 300, 300],
        ].map((row) => JSON.stringify(row)),
      ),
    );
    assert.equal(report.response_times.find((row) => row.agent?.id === mate.userId)?.agent?.name, 'Mate');

    // A customer writing after "done" opens a new conversation.
    await customerWrites(phoneNumberId, workspaceId, '4915112345002');
    assert.equal(sum(await reportOf(owner), 'opened'), 4);
  });

  test('the first response counts for the member who replied, the resolution for the one who closed', async () => {
    const { session: owner, phoneNumberId } = await cloudOwner();
    const mate = await joinedTeammate(server, owner);

    // Unassigned: the teammate answers after 4 minutes, the owner marks it done after 20.
    const contactId = await customerWrites(phoneNumberId, owner.workspaceId, '4915112345101');
    server.clock.advance(4 * MINUTE);
    await reply(mate, contactId);
    server.clock.advance(16 * MINUTE);
    await reply(owner, contactId);
    await markDone(owner, contactId);

    const rows = (await reportOf(owner)).response_times;
    const row = (id: string) => rows.find((candidate) => candidate.agent?.id === id);
    assert.deepEqual(
      [row(mate.userId)?.answered, row(mate.userId)?.first_response.median_seconds, row(mate.userId)?.conversations],
      [1, 240, 0],
    );
    assert.equal(row(mate.userId)?.resolution.median_seconds, null);
    assert.deepEqual(
      [row(owner.userId)?.answered, row(owner.userId)?.first_response.median_seconds, row(owner.userId)?.conversations],
      [0, null, 1],
    );
    assert.equal(row(owner.userId)?.resolution.median_seconds, 1200);
    const everyone = rows.find((candidate) => !candidate.agent);
    assert.deepEqual([everyone?.answered, everyone?.first_response.median_seconds], [1, 240]);
  });

  test('a first response through an API token counts overall and for no member', async () => {
    const { session: owner, phoneNumberId } = await cloudOwner();
    const contactId = await customerWrites(phoneNumberId, owner.workspaceId, '4915112345102');
    server.clock.advance(3 * MINUTE);
    const api = await ownerApi(server, owner);
    const sent = await api.action('send-text-message', { contact_id: contactId, message: 'Automatic answer' });
    assert.equal(sent.status, 200, sent.text);
    await markDone(owner, contactId);

    const rows = (await reportOf(owner)).response_times;
    assert.deepEqual(
      rows.map((row) => [row.agent?.id ?? 'everyone', row.answered, row.first_response.median_seconds]),
      [
        ['everyone', 1, 180],
        [owner.userId, 0, null],
      ],
    );
  });

  test('a campaign: sent, delivered, read, replied and failed with the reason, priced at the workspace’s rates', async () => {
    const { session, phoneNumberId } = await cloudOwner();
    const { workspaceId } = session;
    const template = await createTemplate(services, workspaceId, {
      name: `spring_${randomInt(1e9)}`,
      category: 'MARKETING',
      translations: [{ language: 'en_US', status: 'APPROVED', body: 'Spring sale today.' }],
    });
    const phones = ['+4915112346001', '+4915112346002', '+4915112346003'];
    const contactIds: string[] = [];
    for (const phone of phones) {
      const created = await session.send<{ id: string }>('POST', '/api/v1/actions/create-contact', { phone });
      assert.equal(created.status, 201, created.text);
      contactIds.push(created.body.id);
    }
    const campaign = await session.send<{ id: string }>('POST', '/api/v1/actions/create-campaign', {
      name: '=Spring sale',
      template_id: template.id,
      audience: { contact_ids: contactIds },
    });
    assert.equal(campaign.status, 200, campaign.text);
    for (let run = 0; run < 2; run++) {
      await services.scheduler.runDue(workspaceId);
      services.outbox.wake();
      await services.outbox.idle();
      server.clock.advance(1000);
    }
    const wamids = await db
      .selectFrom('messages')
      .innerJoin('contacts', 'contacts.id', 'messages.contact_id')
      .select(['contacts.phone', 'messages.provider_message_id'])
      .where('messages.campaign_id', '=', campaign.body.id)
      .execute();
    const wamidOf = (phone: string) => wamids.find((row) => row.phone === phone)!.provider_message_id!;
    const status = async (phone: string, state: 'sent' | 'delivered' | 'read' | 'failed') => {
      const webhook = documentedStatusWebhook({
        phoneNumberId,
        wamid: wamidOf(phone),
        status: state,
        recipient: phone,
        timestamp: server.clock.now(),
      });
      assert.equal((await postWebhook(webhook)).status, 200);
    };
    for (const state of ['sent', 'delivered', 'read'] as const) await status(phones[0]!, state);
    for (const state of ['sent', 'delivered'] as const) await status(phones[1]!, state);
    await status(phones[2]!, 'failed');
    await customerWrites(phoneNumberId, workspaceId, phones[0]!.slice(1));

    const rates = await session.send('PUT', '/api/dashboard/reports/rates', {
      currency: 'EUR',
      rates: { marketing: 0.0625, utility: 0.01 },
    });
    assert.equal(rates.status, 200, rates.text);

    const report = await reportOf(session);
    assert.equal(report.campaigns.length, 1);
    const [row] = report.campaigns;
    assert.deepEqual(
      { ...row, id: undefined, sent_at: undefined },
      {
        id: undefined,
        sent_at: undefined,
        name: '=Spring sale',
        sent: 2,
        delivered: 2,
        read: 1,
        replied: 1,
        failed: 1,
        failure_reasons: [
          {
            code: 131050,
            title:
              'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
            reason: 'The recipient has stopped marketing messages from this business.',
            count: 1,
          },
        ],
        cost: 0.125,
      },
    );
    assert.deepEqual(report.costs, {
      currency: 'EUR',
      categories: [{ category: 'marketing', billable: 2, rate: 0.0625, cost: 0.125 }],
      total: 0.125,
    });
    const outbound = report.messages.filter((m) => m.direction === 'outbound');
    assert.deepEqual(Object.fromEntries(outbound.map((m) => [m.status, m.count])), {
      read: 1,
      delivered: 1,
      failed: 1,
    });

    // The CSV: UTF-8 with a byte-order mark, the page's words, and a name a spreadsheet would run made inert.
    const csv = await session.send(
      'GET',
      `/api/dashboard/reports/campaigns.csv?from=${report.range.from}&to=${report.range.to}`,
    );
    assert.equal(csv.status, 200, csv.text);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="campaigns-/);
    const lines = csv.text.split('\r\n').length > 1 ? csv.text.split('\r\n') : csv.text.split('\n');
    // undici's text() drops the byte-order mark: its three bytes show in the length.
    assert.equal(Number(csv.headers['content-length']), Buffer.byteLength(csv.text) + 3);
    assert.equal(lines[0], 'Campaign,Sent at,Sent,Delivered,Read,Replied,Failed,Failure reasons,Cost (EUR)');
    assert.match(
      lines[1]!,
      /^'=Spring sale,[^,]+,2,2,1,1,1,The recipient has stopped marketing messages from this business\. \(1\),0\.125$/,
    );
  });

  test('refuses a date that is not one, a backwards or overlong range, an unknown table and rates from a member', async () => {
    const { session } = await cloudOwner();
    const refusals: [string, string][] = [
      ['/api/dashboard/reports?from=2026-02-30', 'from'],
      ['/api/dashboard/reports?to=yesterday', 'to'],
      ['/api/dashboard/reports?from=2026-03-02&to=2026-03-01', 'from'],
      ['/api/dashboard/reports?from=2024-01-01&to=2026-01-01', 'from'],
    ];
    for (const [path, field] of refusals) {
      const response = await session.send<{ code: string; errors: { field: string }[] }>('GET', path);
      assert.equal(response.status, 400, path);
      assert.equal(response.body.code, 'validation_failed');
      assert.equal(response.body.errors[0]?.field, field, path);
    }
    assert.equal((await session.send('GET', '/api/dashboard/reports/secrets.csv')).status, 400);
    const badRates: [object, string][] = [
      [{ currency: 'euro', rates: {} }, 'currency'],
      [{ currency: 'XYZ', rates: {} }, 'currency'],
      [{ currency: 'EUR', rates: { marketing: -1 } }, 'rates/marketing'],
    ];
    for (const [body, field] of badRates) {
      const response = await session.send<{ errors: { field: string }[] }>('PUT', '/api/dashboard/reports/rates', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.errors[0]?.field, field);
    }
    const mate = await joinedTeammate(server, session);
    const refused = await mate.send('PUT', '/api/dashboard/reports/rates', { currency: 'USD', rates: { service: 0 } });
    assert.equal(refused.status, 403);
    assert.deepEqual((await session.send('GET', '/api/dashboard/reports/rates')).body, { currency: 'USD', rates: {} });
    assert.equal((await server.http.send('GET', '/api/dashboard/reports')).status, 401);
  });

  test('a workspace sees only its own conversations, messages, campaigns and rates', async () => {
    const { session: busy, phoneNumberId } = await cloudOwner();
    const contactId = await customerWrites(phoneNumberId, busy.workspaceId, '4915112347001');
    await reply(busy, contactId);
    await markDone(busy, contactId);
    await busy.send('PUT', '/api/dashboard/reports/rates', { currency: 'GBP', rates: { service: 0.5 } });

    const { session: quiet } = await cloudOwner();
    const report = await reportOf(quiet);
    assert.equal(sum(report, 'opened'), 0);
    assert.equal(sum(report, 'closed'), 0);
    assert.deepEqual(report.messages, []);
    assert.deepEqual(report.campaigns, []);
    assert.deepEqual(report.response_times, [
      {
        agent: null,
        conversations: 0,
        answered: 0,
        first_response: { median_seconds: null, p90_seconds: null },
        resolution: { median_seconds: null, p90_seconds: null },
      },
    ]);
    assert.deepEqual((await quiet.send('GET', '/api/dashboard/reports/rates')).body, { currency: 'USD', rates: {} });
    assert.equal(sum(await reportOf(busy), 'closed'), 1);
  });
});
