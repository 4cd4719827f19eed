import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ownerApi, type TestWorkspace } from '../../test/factories.js';
import { withCallbackChecked } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import type { Message } from '../messages/message.schema.js';
import { inboundMessageWebhook, inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { AgentReport, TeamFigures, TeamReport } from './team-report.schema.js';

const MINUTE = 60_000;
const { graph, server, connect, postWebhook } = await startWhatsappServer({ outbox: true });

interface Shop {
  owner: DashboardSession;
  api: TestWorkspace;
  phoneNumberId: string;
}

/** A workspace on its own Graph stand-in number with the satisfaction survey on: its owner's session and token. */
async function shop(): Promise<Shop> {
  const owner = await ownerSession(server, `Team report ${randomInt(1e9)}`);
  const api = await ownerApi(server, owner);
  const { phoneNumberId } = await connect(api.workspaceId);
  const surveys = await api.action('update-satisfaction-survey-settings', { enabled: true });
  assert.equal(surveys.status, 200, surveys.text);
  return { owner, api, phoneNumberId };
}

let phones = 0;
const newPhone = () => `4915112${String(randomInt(1e5)).padStart(5, '0')}${phones++ % 10}`;

/** A customer writes through Meta's signed webhook now (by the server's clock); their contact id. */
async function customerWrites(s: Shop, from: string): Promise<string> {
  const body = inboundTextWebhook({
    phoneNumberId: s.phoneNumberId,
    from,
    text: 'Hello?',
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(body)).status, 200);
  const messages = await s.api.action<Message[]>('list-messages', { phone: `+${from}` });
  assert.equal(messages.status, 200, messages.text);
  return messages.body[0]!.contact_id;
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
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
}

/** The survey list message Meta got for this number, once the outbox has sent it. */
async function surveySent(s: Shop) {
  const path = `/${API_VERSION}/${s.phoneNumberId}/messages`;
  for (let round = 0; ; round++) {
    const sent = graph.requests.find(
      (r) => r.method === 'POST' && r.path === path && (r.body as { type?: string }).type === 'interactive',
    );
    if (sent) return withCallbackChecked(sent.body) as unknown as Survey;
    if (round > 100) throw new Error('the survey was never sent');
    server.app.services.outbox.wake();
    await server.app.services.outbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Survey {
  interactive: { action: { sections: { rows: { id: string; title: string }[] }[] } };
}

/** The customer answers the survey with the row rated `rating`. */
async function rates(s: Shop, from: string, rating: number) {
  const survey = await surveySent(s);
  const row = survey.interactive.action.sections[0]!.rows.find((candidate) =>
    candidate.title.startsWith(`${rating} `),
  )!;
  const body = inboundMessageWebhook({
    phoneNumberId: s.phoneNumberId,
    from,
    type: 'interactive',
    content: { type: 'list_reply', list_reply: { id: row.id, title: row.title } },
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(body)).status, 200);
}

async function assign(session: DashboardSession, contactId: string, teamId: string | null, assigneeId: string | null) {
  const assigned = await session.send('PUT', `/api/v1/conversations/${contactId}/assignment`, {
    team_id: teamId,
    assignee_id: assigneeId,
  });
  assert.equal(assigned.status, 200, assigned.text);
}

const day = (offset: number) => new Date(server.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
/** The days around now (the clock may cross midnight while a test runs), and any further filter. */
const around = (extra = '') => `from=${day(-2)}&to=${day(1)}${extra}`;

async function report<T>(who: DashboardSession | TestWorkspace, name: 'agents' | 'teams', query: string): Promise<T> {
  const response =
    'action' in who
      ? await who.get<T>(`/v1/reports/${name}?${query}`)
      : await who.send<T>('GET', `/api/v1/reports/${name}?${query}`);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** The figures as one comparable line: handled, sent, first response, resolution, backlog, ratings. */
const line = (f: TeamFigures) => [
  f.conversations_handled,
  f.messages_sent,
  [f.first_response.conversations, f.first_response.median_seconds, f.first_response.p90_seconds],
  [f.resolution.conversations, f.resolution.median_seconds, f.resolution.p90_seconds],
  [f.backlog.open, f.backlog.oldest_seconds, f.backlog.median_age_seconds],
  [f.csat.ratings, f.csat.average, f.csat.satisfied_share],
];

/**
 * Three conversations: A in the Florists' queue, assigned to the teammate, answered after 10 minutes,
 * closed after an hour and rated 5; B assigned to the owner, answered after 2 minutes and still open;
 * C labelled "vip", unanswered and nobody's. Then 30 minutes pass.
 */
async function week() {
  const s = await shop();
  const mate = await joinedTeammate(server, s.owner);
  const team = await s.api.action<{ id: string }>('create-team', { name: 'Florists', member_ids: [mate.userId] });
  assert.equal(team.status, 200, team.text);
  const label = await s.owner.send('POST', '/api/v1/conversation-labels', { name: 'VIP' });
  assert.ok(label.status === 200 || label.status === 201, label.text);

  const phoneA = newPhone();
  const a = await customerWrites(s, phoneA);
  await assign(s.owner, a, team.body.id, mate.userId);
  server.clock.advance(10 * MINUTE);
  await reply(mate, a);
  await reply(s.owner, a); // no first response any more, but a message the owner sent
  server.clock.advance(50 * MINUTE);
  await markDone(s.owner, a);
  await rates(s, phoneA, 5);

  const b = await customerWrites(s, newPhone());
  await assign(s.owner, b, null, s.owner.userId);
  server.clock.advance(2 * MINUTE);
  await reply(s.owner, b);

  server.clock.advance(8 * MINUTE);
  const c = await customerWrites(s, newPhone());
  const labelled = await s.owner.send('PUT', `/api/v1/conversations/${c}/labels`, { labels: ['VIP'] });
  assert.equal(labelled.status, 200, labelled.text);
  server.clock.advance(30 * MINUTE);
  return { s, mate, teamId: team.body.id };
}

describe(`team report (${ENGINE})`, () => {
  test('agents › every figure per member, no one and everyone, counting replies to open conversations', async () => {
    const { s, mate } = await week();
    const agents = await report<AgentReport>(s.api, 'agents', around());
    const byId = new Map(agents.agents.map((row) => [row.agent?.id ?? null, row]));
    // B opened 40 minutes ago, C 30 minutes ago.
    assert.deepEqual(line(byId.get(mate.userId)!), [1, 1, [1, 600, 600], [1, 3600, 3600], [0, null, null], [1, 5, 1]]);
    assert.deepEqual(line(byId.get(s.owner.userId)!), [
      1,
      2,
      [1, 120, 120],
      [0, null, null],
      [1, 2400, 2400],
      [0, null, null],
    ]);
    assert.deepEqual(line(byId.get(null)!), [0, 0, [0, null, null], [0, null, null], [1, 1800, 1800], [0, null, null]]);
    assert.deepEqual(line(agents.everyone), [2, 3, [2, 120, 600], [1, 3600, 3600], [2, 2400, 1800], [1, 5, 1]]);
    assert.equal(byId.get(mate.userId)!.agent!.name, 'Mate');
  });

  test('teams › each queue, conversations in none, and everyone; CSV has a row per team', async () => {
    const { s, teamId } = await week();
    const teams = await report<TeamReport>(s.owner, 'teams', around());
    assert.deepEqual(
      teams.teams.map((row) => [row.team?.name ?? null, ...line(row)]),
      [
        ['Florists', 1, 2, [1, 600, 600], [1, 3600, 3600], [0, null, null], [1, 5, 1]],
        [null, 1, 1, [1, 120, 120], [0, null, null], [2, 2400, 1800], [0, null, null]],
      ],
    );
    assert.equal(teams.teams[0]!.team!.id, teamId);

    const csv = await s.owner.send('GET', `/api/v1/reports/teams?${around('&format=csv')}`);
    assert.equal(csv.status, 200, csv.text);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(
      String(csv.headers['content-disposition']),
      /filename="teams-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = csv.text.trim().split('\n');
    assert.equal(lines.length, 4, csv.text);
    assert.match(lines[0]!, /^team_id,team,conversations_handled,messages_sent,first_responses,/);
    assert.match(lines[1]!, new RegExp(`^${teamId},Florists,1,2,1,600,600,1,3600,3600,0,,,1,5,1$`));
    assert.match(lines[3]!, /^,\(everyone\),2,3,2,120,600,1,3600,3600,2,2400,1800,1,5,1$/);

    const agentsCsv = await s.api.get(`/v1/reports/agents?${around('&format=csv')}`);
    assert.equal(agentsCsv.status, 200, agentsCsv.text);
    assert.equal(agentsCsv.text.trim().split('\n').length, 1 + 3 + 1, 'header, owner, mate, no one, everyone');
  });

  test('filters › team, label, number and dates narrow every figure; the backlog is now whatever the dates', async () => {
    const { s, mate, teamId } = await week();
    const inTeam = await report<AgentReport>(s.api, 'agents', around(`&team_id=${teamId}`));
    assert.deepEqual(line(inTeam.everyone), [1, 2, [1, 600, 600], [1, 3600, 3600], [0, null, null], [1, 5, 1]]);
    assert.ok(inTeam.agents.some((row) => row.agent?.id === mate.userId));

    const vip = await report<AgentReport>(s.api, 'agents', around('&label=VIP'));
    assert.deepEqual(line(vip.everyone), [0, 0, [0, null, null], [0, null, null], [1, 1800, 1800], [0, null, null]]);

    const number = await report<AgentReport>(s.api, 'agents', around(`&phone_number_id=${s.phoneNumberId}`));
    assert.deepEqual(line(number.everyone), [2, 3, [2, 120, 600], [1, 3600, 3600], [2, 2400, 1800], [1, 5, 1]]);
    const other = await s.api.action('add-channel', { provider: 'simulator', phone_number_id: String(randomInt(1e9)) });
    assert.equal(other.status, 200, other.text);
    const elsewhere = await report<TeamReport>(
      s.api,
      'teams',
      around(`&phone_number_id=${(other.body as { phone_number_id: string }).phone_number_id}`),
    );
    assert.deepEqual(line(elsewhere.everyone), [
      0,
      0,
      [0, null, null],
      [0, null, null],
      [0, null, null],
      [0, null, null],
    ]);

    const lastYear = await report<AgentReport>(s.api, 'agents', `from=${day(-400)}&to=${day(-370)}`);
    assert.deepEqual(line(lastYear.everyone), [
      0,
      0,
      [0, null, null],
      [0, null, null],
      [2, 2400, 1800],
      [0, null, null],
    ]);
  });

  test('refusals › a bad filter is a 400 naming the field, a role without reports a 403, and workspaces see only their own', async () => {
    const { s } = await week();
    for (const [query, field] of [
      ['from=2026-13-01', 'from'],
      [`from=${day(1)}&to=${day(-1)}`, 'from'],
      ['phone_number_id=999', 'phone_number_id'],
      ['team_id=00000000-0000-4000-8000-000000000000', 'team_id'],
      ['label=nope', 'label'],
      ['format=xml', 'format'],
    ]) {
      const refused = await s.api.get<{ errors?: { field: string }[] }>(`/v1/reports/agents?${query}`);
      assert.equal(refused.status, 400, `${query}: ${refused.text}`);
      assert.ok(
        refused.body.errors?.some((error) => error.field.includes(field!)),
        `${query}: ${refused.text}`,
      );
    }

    const agent = await joinedTeammate(server, s.owner, 'agent');
    for (const name of ['agents', 'teams']) {
      const forbidden = await agent.send('GET', `/api/v1/reports/${name}`);
      assert.equal(forbidden.status, 403, forbidden.text);
    }

    const stranger = await shop();
    const theirs = await report<AgentReport>(stranger.api, 'agents', around());
    assert.deepEqual(line(theirs.everyone), [0, 0, [0, null, null], [0, null, null], [0, null, null], [0, null, null]]);
    assert.deepEqual(
      theirs.agents.map((row) => row.agent?.id),
      [stranger.api.userId],
    );
    const theirTeams = await report<TeamReport>(stranger.owner, 'teams', around());
    assert.deepEqual(theirTeams.teams, []);
  });
});
