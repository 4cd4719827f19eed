import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createOwner } from '../../test/browser.js';
import { joinedTeammate, logInOverHttp, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { VolumeReport } from './volume.schema.js';

const { server, graph, connect, postWebhook } = await startWhatsappServer();
const { db } = server.app.services.deps;

/** Moves the shared manual clock forward to an instant (the tests below run in time order). */
function clockAt(iso: string) {
  const by = Date.parse(iso) - server.clock.now().getTime();
  assert.ok(by >= 0, `the clock is already past ${iso}`);
  server.clock.advance(by);
}

/** A workspace in the time zone, on its own stand-in number, with its owner signed in. */
async function workspaceIn(timeZone: string) {
  const owner = await createOwner(server, `Volume ${randomInt(1e9)}`);
  const { phoneNumberId } = await connect(owner.workspaceId);
  const session = await logInOverHttp(server, owner);
  const saved = await session.send('PUT', '/api/dashboard/workspace', { time_zone: timeZone });
  assert.equal(saved.status, 200, saved.text);
  return { session, phoneNumberId, workspaceId: owner.workspaceId };
}

/** A customer writes in through Meta's webhook now; the contact's id. */
async function customerWrites(to: { phoneNumberId: string; workspaceId: string }, from: string) {
  const webhook = inboundTextWebhook({
    phoneNumberId: to.phoneNumberId,
    from,
    name: null,
    text: 'Hello?',
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(webhook)).status, 200);
  const contact = await db
    .selectFrom('contacts')
    .select('id')
    .where('workspace_id', '=', to.workspaceId)
    .where('phone', '=', `+${from}`)
    .executeTakeFirstOrThrow();
  return contact.id;
}

async function volume(session: DashboardSession, query: string): Promise<VolumeReport> {
  const response = await session.send<VolumeReport>('GET', `/api/v1/reports/volume?${query}`);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const received = (report: VolumeReport) => report.days.reduce((n, day) => n + day.messages_received, 0);
const busyCells = (report: VolumeReport) =>
  report.hours_of_week.filter((cell) => cell.messages_received > 0).map((cell) => [cell.weekday, cell.hour]);

describe(`volume report (${ENGINE})`, () => {
  test('counts each local day across a DST change, the hours of the week and the previous period', async () => {
    clockAt('2027-03-24T10:00:00.000Z'); // Wednesday 11:00 in Berlin (CET, +1): the previous period
    const shop = await workspaceIn('Europe/Berlin');
    await customerWrites(shop, '4915112347001');

    clockAt('2027-03-27T22:30:00.000Z'); // Saturday 23:30 CET
    await customerWrites(shop, '4915112347002');

    // Summer time began on Sunday 28 March: 22:30 UTC is Monday 00:30 CEST (+2), not Sunday 23:30.
    clockAt('2027-03-28T22:30:00.000Z');
    const late = await customerWrites(shop, '4915112347003');
    const sent = await shop.session.send('POST', '/api/v1/actions/send-text-message', {
      contact_id: late,
      message: 'We open at nine',
    });
    assert.equal(sent.status, 200, sent.text);
    const done = await shop.session.send('POST', `/api/dashboard/conversations/${late}/done`, { done: true });
    assert.equal(done.status, 200, done.text);

    const report = await volume(shop.session, 'from=2027-03-27&to=2027-03-30');
    assert.deepEqual(report.range, {
      from: '2027-03-27',
      to: '2027-03-30',
      time_zone: 'Europe/Berlin',
      previous_from: '2027-03-23',
      previous_to: '2027-03-26',
    });
    const row = (day: string, opened: number, closed: number, inbound: number, outbound: number) => ({
      day,
      conversations_opened: opened,
      conversations_closed: closed,
      messages_received: inbound,
      messages_sent: outbound,
    });
    assert.deepEqual(report.days, [
      row('2027-03-27', 1, 0, 1, 0),
      row('2027-03-28', 0, 0, 0, 0),
      row('2027-03-29', 1, 1, 1, 1),
      row('2027-03-30', 0, 0, 0, 0),
    ]);
    assert.deepEqual(report.previous_days, [
      row('2027-03-23', 0, 0, 0, 0),
      row('2027-03-24', 1, 0, 1, 0),
      row('2027-03-25', 0, 0, 0, 0),
      row('2027-03-26', 0, 0, 0, 0),
    ]);
    assert.deepEqual(report.totals, {
      conversations_opened: { current: 2, previous: 1, change: 1, change_ratio: 1 },
      conversations_closed: { current: 1, previous: 0, change: 1, change_ratio: null },
      messages_received: { current: 2, previous: 1, change: 1, change_ratio: 1 },
      messages_sent: { current: 1, previous: 0, change: 1, change_ratio: null },
    });
    assert.equal(report.hours_of_week.length, 168);
    // Saturday 23 h and Monday 0 h; Wednesday's message is the previous period's.
    assert.deepEqual(busyCells(report), [
      [1, 0],
      [6, 23],
    ]);

    const csv = await shop.session.send('GET', '/api/v1/reports/volume?from=2027-03-27&to=2027-03-30&format=csv');
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /filename="volume-2027-03-27-2027-03-30\.csv"/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines[0], 'period,day,conversations_opened,conversations_closed,messages_received,messages_sent');
    assert.equal(lines[3], 'current,2027-03-29,1,1,1,1');
    assert.equal(lines[6], 'previous,2027-03-24,1,0,1,0');
    assert.equal(lines.length, 9);
    const hours = await shop.session.send(
      'GET',
      '/api/v1/reports/volume?from=2027-03-27&to=2027-03-30&format=csv&table=hours',
    );
    assert.equal(hours.status, 200);
    const hourLines = hours.text.trim().split('\n');
    assert.equal(hourLines.length, 169);
    assert.ok(hourLines.includes('Saturday,23,1'), hours.text);
    assert.ok(hourLines.includes('Monday,0,1'), hours.text);
  });

  test('a zone half an hour off UTC counts messages on their local day and hour', async () => {
    clockAt('2027-04-10T18:15:00.000Z'); // Saturday 23:45 in Kolkata (+5:30)
    const shop = await workspaceIn('Asia/Kolkata');
    await customerWrites(shop, '919812347001');
    clockAt('2027-04-10T18:45:00.000Z'); // Sunday 00:15
    await customerWrites(shop, '919812347002');

    const report = await volume(shop.session, 'from=2027-04-11&to=2027-04-11');
    assert.deepEqual(
      report.days.map((day) => [day.day, day.messages_received]),
      [['2027-04-11', 1]],
    );
    assert.deepEqual(
      report.previous_days.map((day) => [day.day, day.messages_received]),
      [['2027-04-10', 1]],
    );
    assert.deepEqual(busyCells(report), [[0, 0]]);
  });

  test('narrows by number, team and label, and never shows another workspace', async () => {
    clockAt('2027-05-03T09:00:00.000Z');
    const shop = await workspaceIn('UTC');
    // A second number beside the first (connect() replaces the default one).
    const second = graph.addPhoneNumber({ accessToken: `token-${randomInt(1e9)}` });
    await server.app.services.channels.add(
      { workspaceId: shop.workspaceId },
      {
        provider: 'whatsapp-cloud',
        phoneNumberId: second.phoneNumberId,
        wabaId: second.wabaId,
        accessToken: second.accessToken,
      },
    );
    const team = await shop.session.send<{ id: string }>('POST', '/api/v1/actions/create-team', { name: 'Billing' });
    assert.equal(team.status, 200, team.text);
    const label = await shop.session.send('POST', '/api/v1/conversation-labels', { name: 'Refund' });
    assert.equal(label.status, 201, label.text);

    const first = await customerWrites(shop, '4915112348001');
    await customerWrites(shop, '4915112348002');
    await customerWrites({ ...shop, phoneNumberId: second.phoneNumberId }, '4915112348003');
    const assigned = await shop.session.send('PUT', `/api/v1/conversations/${first}/assignment`, {
      team_id: team.body.id,
      assignee_id: null,
    });
    assert.equal(assigned.status, 200, assigned.text);
    const labelled = await shop.session.send('PUT', `/api/v1/conversations/${first}/labels`, { labels: ['refund'] });
    assert.equal(labelled.status, 200, labelled.text);

    // Another workspace busy on the same day.
    const other = await workspaceIn('UTC');
    await customerWrites(other, '4915112348009');

    const day = 'from=2027-05-03&to=2027-05-03';
    const opened = (report: VolumeReport) => report.totals.conversations_opened.current;
    const all = await volume(shop.session, day);
    assert.equal(received(all), 3);
    assert.equal(opened(all), 3);
    const onSecond = await volume(shop.session, `${day}&phone_number_id=${second.phoneNumberId}`);
    assert.deepEqual([received(onSecond), opened(onSecond)], [1, 1]);
    const onFirst = await volume(shop.session, `${day}&phone_number_id=${shop.phoneNumberId}`);
    assert.deepEqual([received(onFirst), opened(onFirst)], [2, 2]);
    const billing = await volume(shop.session, `${day}&team_id=${team.body.id}`);
    assert.deepEqual([received(billing), opened(billing)], [1, 1]);
    const refunds = await volume(shop.session, `${day}&label=Refund`);
    assert.deepEqual([received(refunds), opened(refunds)], [1, 1]);
    const both = await volume(shop.session, `${day}&label=refund&phone_number_id=${second.phoneNumberId}`);
    assert.equal(received(both), 0);
    assert.equal(both.days.length, 1);

    const theirs = await volume(other.session, day);
    assert.equal(received(theirs), 1);
    // Another workspace's team is not one of this workspace's: a 400 naming the field, not an empty report.
    const foreign = await other.session.send<{ errors: { field: string }[] }>(
      'GET',
      `/api/v1/reports/volume?team_id=${team.body.id}`,
    );
    assert.equal(foreign.status, 400);
    assert.deepEqual(
      foreign.body.errors.map((error) => error.field),
      ['team_id'],
    );
  });

  test('refuses bad input naming the field, and roles without reports', async () => {
    const shop = await workspaceIn('UTC');
    const field = async (query: string) => {
      const response = await shop.session.send<{ errors?: { field: string }[] }>(
        'GET',
        `/api/v1/reports/volume?${query}`,
      );
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      return response.body.errors?.map((error) => error.field);
    };
    assert.deepEqual(await field('from=2027-02-30'), ['from']);
    assert.deepEqual(await field('to=yesterday'), ['to']);
    assert.deepEqual(await field('from=2027-05-02&to=2027-05-01'), ['from']);
    assert.deepEqual(await field('from=2025-01-01&to=2027-05-01'), ['from']);
    assert.deepEqual(await field('phone_number_id=000'), ['phone_number_id']);
    assert.deepEqual(await field('label=nothing-like-it'), ['label']);
    assert.equal((await shop.session.send('GET', '/api/v1/reports/volume?format=xml')).status, 400);
    assert.equal((await shop.session.send('GET', '/api/v1/reports/volume?team_id=not-a-uuid')).status, 400);

    const agent = await joinedTeammate(server, shop.session, 'agent');
    assert.equal((await agent.send('GET', '/api/v1/reports/volume')).status, 403);
    const marketer = await joinedTeammate(server, shop.session, 'marketer');
    const theirs = await marketer.send<VolumeReport>('GET', '/api/v1/reports/volume');
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.days.length, 30);
    assert.equal(server.clock.now().toISOString().slice(0, 10), theirs.body.range.to);
  });
});
