import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Message } from '../messages/message.schema.js';
import { WEEKDAYS, type Interval } from './business-hours.rules.js';

const server = await startServer();

const AWAY = 'We are closed now and answer from 9 tomorrow.';
const week = (intervals: Interval[]) => Object.fromEntries(WEEKDAYS.map((day) => [day, intervals]));
/** Closed all week (no intervals), or open around the clock. */
const CLOSED = week([]);
const ALWAYS = week([{ opens: '00:00', closes: '24:00' }]);

let phones = 0;
const newPhone = () => `+14155551${String(100 + (phones++ % 100))}`;

async function setHours(ws: TestWorkspace, fields: object) {
  const body = { enabled: true, time_zone: 'UTC', weekly: CLOSED, holidays: [], away_message: AWAY, ...fields };
  const response = await ws.action('update-business-hours', body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** The customer writes in through the simulator, as the webhook path stores it. */
async function writes(ws: TestWorkspace, phone: string, text: string): Promise<Message> {
  const response = await ws.action<Message>('simulate-inbound-message', { phone, text });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** What Parley queued to the contact, oldest first. */
async function repliesTo(ws: TestWorkspace, phone: string): Promise<Message[]> {
  const response = await ws.action<Message[]>('list-messages', { phone, limit: 100 });
  assert.equal(response.status, 200, response.text);
  return response.body.filter((message) => message.direction === 'outbound').reverse();
}

describe(`business hours (${ENGINE})`, () => {
  test('get-business-hours › the defaults until saved: off, weekdays 9–17, in the workspace time zone', async () => {
    const ws = await createWorkspace(server);
    const response = await ws.action<Record<string, unknown>>('get-business-hours');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.enabled, false);
    assert.equal(response.body.time_zone, 'UTC');
    assert.deepEqual((response.body.weekly as Record<string, Interval[]>).monday, [
      { opens: '09:00', closes: '17:00' },
    ]);
    assert.deepEqual((response.body.weekly as Record<string, Interval[]>).sunday, []);
    assert.deepEqual(response.body.holidays, []);
  });

  test('update-business-hours › saves hours, split days and holidays, and reads them back; other workspaces keep theirs', async () => {
    const ws = await createWorkspace(server);
    const other = await createWorkspace(server);
    const weekly = {
      ...CLOSED,
      monday: [
        { opens: '08:30', closes: '12:00' },
        { opens: '13:00', closes: '18:00' },
      ],
      saturday: [{ opens: '10:00', closes: '14:00' }],
    };
    const saved = await setHours(ws, {
      time_zone: 'Europe/Berlin',
      weekly,
      holidays: ['2026-12-26', '2026-12-25'],
    });
    assert.deepEqual(saved, {
      enabled: true,
      time_zone: 'Europe/Berlin',
      weekly,
      holidays: ['2026-12-25', '2026-12-26'],
      away_message: AWAY,
      open_now: (saved as { open_now: boolean }).open_now,
    });
    assert.deepEqual((await ws.action('get-business-hours')).body, saved);
    assert.equal((await other.action<{ enabled: boolean }>('get-business-hours')).body.enabled, false);
  });

  test('update-business-hours › refuses a bad time zone, reversed or overlapping intervals, a bad date, an empty away message', async () => {
    const ws = await createWorkspace(server);
    const cases: [object, object][] = [
      [
        { time_zone: 'Mars/Olympus' },
        {
          field: 'time_zone',
          message: 'must be an IANA time zone such as Europe/Berlin',
          code: 'business_hours.time_zone',
        },
      ],
      [
        { weekly: { ...CLOSED, tuesday: [{ opens: '17:00', closes: '09:00' }] } },
        {
          field: 'weekly.tuesday',
          message: 'opens at 17:00 but closes at 09:00',
          code: 'business_hours.closes_before_opening',
          params: { opens: '17:00', closes: '09:00' },
        },
      ],
      [
        {
          weekly: {
            ...CLOSED,
            friday: [
              { opens: '09:00', closes: '13:00' },
              { opens: '12:00', closes: '18:00' },
            ],
          },
        },
        {
          field: 'weekly.friday',
          message: '09:00–13:00 overlaps 12:00',
          code: 'business_hours.intervals_overlap',
          params: { opens: '09:00', closes: '13:00', next_opens: '12:00' },
        },
      ],
      [
        { holidays: ['2026-02-30'] },
        {
          field: 'holidays',
          message: '2026-02-30 is not a date',
          code: 'business_hours.not_a_date',
          params: { date: '2026-02-30' },
        },
      ],
      [
        { away_message: '  ' },
        {
          field: 'away_message',
          message: 'is empty: write what customers read outside business hours',
          code: 'business_hours.away_message_empty',
        },
      ],
    ];
    for (const [fields, problem] of cases) {
      const body = { enabled: true, time_zone: 'UTC', weekly: CLOSED, holidays: [], away_message: AWAY, ...fields };
      const response = await ws.action<{ code: string; errors: object[] }>('update-business-hours', body);
      assert.equal(response.status, 400, `${JSON.stringify(fields)}: ${response.text}`);
      assert.equal(response.body.code, 'validation_failed');
      assert.deepEqual(response.body.errors, [problem], response.text);
    }
    const badTime = await ws.action('update-business-hours', {
      enabled: true,
      time_zone: 'UTC',
      weekly: { ...CLOSED, monday: [{ opens: '9am', closes: '17:00' }] },
      holidays: [],
      away_message: AWAY,
    });
    assert.equal(badTime.status, 400, badTime.text);
  });

  test('business hours › need manage_workspace: a member is refused with 403 permission_denied', async () => {
    const owner = await ownerSession(server);
    const member = await joinedTeammate(server, owner, 'member');
    for (const action of ['get-business-hours', 'update-business-hours']) {
      const response = await member.send<{ code: string }>('POST', `/api/v1/actions/${action}`, {});
      assert.equal(response.status, 403, response.text);
      assert.equal(response.body.code, 'permission_denied');
    }
    const api = await ownerApi(server, owner);
    assert.equal((await api.action('get-business-hours')).status, 200);
  });

  test('away reply › outside the hours: two messages get one away reply, a free-form text from Parley', async () => {
    const ws = await createWorkspace(server);
    await setHours(ws, { weekly: CLOSED });
    const phone = newPhone();
    await writes(ws, phone, 'Hello, are you open?');
    await writes(ws, phone, 'I would like a bouquet');
    const replies = await repliesTo(ws, phone);
    assert.equal(replies.length, 1, JSON.stringify(replies));
    assert.equal(replies[0]!.type, 'text');
    assert.equal((replies[0]!.content as { body: string }).body, AWAY);
  });

  test('away reply › messages stored at the same moment (parallel requests) still get one', async () => {
    const ws = await createWorkspace(server);
    await setHours(ws, { weekly: CLOSED });
    const phone = newPhone();
    await writes(ws, phone, 'first');
    const more = ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => writes(ws, phone, text));
    await Promise.all(more);
    assert.equal((await repliesTo(ws, phone)).length, 1);

    // Several new conversations at once: one reply each.
    const others = [newPhone(), newPhone(), newPhone()];
    await Promise.all(others.flatMap((other) => [writes(ws, other, 'hi'), writes(ws, other, 'hello?')]));
    for (const other of others) assert.equal((await repliesTo(ws, other)).length, 1, other);
  });

  test('away reply › inside the hours, or while switched off, none is sent', async () => {
    const ws = await createWorkspace(server);
    await setHours(ws, { weekly: ALWAYS });
    const phone = newPhone();
    await writes(ws, phone, 'Hello');
    await writes(ws, phone, 'Anyone there?');
    assert.deepEqual(await repliesTo(ws, phone), []);

    await setHours(ws, { enabled: false, weekly: CLOSED });
    const another = newPhone();
    await writes(ws, another, 'Hello');
    assert.deepEqual(await repliesTo(ws, another), []);
  });

  test('away reply › a holiday is closed all day, even when the weekday is open', async () => {
    const ws = await createWorkspace(server);
    const today = server.clock.now().toISOString().slice(0, 10);
    await setHours(ws, { weekly: ALWAYS, holidays: [today] });
    const phone = newPhone();
    await writes(ws, phone, 'Open today?');
    assert.equal((await repliesTo(ws, phone)).length, 1);
  });

  test('away reply › once per conversation opening: after the conversation is closed, writing again gets it again', async () => {
    const owner = await ownerSession(server);
    const ws = await ownerApi(server, owner);
    await setHours(ws, { weekly: CLOSED });
    const phone = newPhone();
    const first = await writes(ws, phone, 'Hi');
    const done = await owner.send('POST', `/api/dashboard/conversations/${first.contact_id}/done`, { done: true });
    assert.equal(done.status, 200, done.text);
    await writes(ws, phone, 'Hi again');
    await writes(ws, phone, 'and again');
    assert.equal((await repliesTo(ws, phone)).length, 2);
  });

  test('away reply › a contact who opted out gets none', async () => {
    const ws = await createWorkspace(server);
    await setHours(ws, { weekly: CLOSED });
    const phone = newPhone();
    const created = await ws.action('create-contact', { phone, opted_out: true });
    assert.equal(created.status, 201, created.text);
    await writes(ws, phone, 'Where is my order?');
    assert.deepEqual(await repliesTo(ws, phone), []);
  });
});
