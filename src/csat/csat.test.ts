import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ownerApi, type TestWorkspace } from '../../test/factories.js';
import { withCallbackChecked } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import type { Message } from '../messages/message.schema.js';
import type { AgentReport } from '../reports/team-report.schema.js';
import type { VolumeReport } from '../reports/volume.schema.js';
import { inboundMessageWebhook, inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';

// The outbox runs: the survey is checked where it ends, in the request to Meta's stand-in.
const { graph, server, connect, postWebhook } = await startWhatsappServer({ outbox: true });

let phones = 0;
const newPhone = () => `+14155552${String(100 + (phones++ % 100))}`;

interface Team {
  owner: DashboardSession;
  api: TestWorkspace;
  phoneNumberId: string;
}

/** A workspace on WhatsApp Cloud (the stand-in), its owner in the dashboard, and an API token. */
async function team(surveys: boolean): Promise<Team> {
  const owner = await ownerSession(server);
  const api = await ownerApi(server, owner);
  const { phoneNumberId } = await connect(api.workspaceId);
  if (surveys) {
    const saved = await api.action('update-satisfaction-survey-settings', { enabled: true });
    assert.equal(saved.status, 200, saved.text);
  }
  return { owner, api, phoneNumberId };
}

/** A customer's message as Meta's signed webhook delivers it; returns their contact id. */
async function customerWrites(t: Team, phone: string, text: string): Promise<string> {
  const body = inboundTextWebhook({ phoneNumberId: t.phoneNumberId, from: phone, text, timestamp: server.clock.now() });
  assert.equal((await postWebhook(body)).status, 200);
  const messages = await t.api.action<Message[]>('list-messages', { phone });
  return messages.body[0]!.contact_id;
}

async function close(session: DashboardSession, contactId: string): Promise<void> {
  const done = await session.send('POST', `/api/dashboard/conversations/${contactId}/done`, { done: true });
  assert.equal(done.status, 200, done.text);
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
}

const sendsOf = (t: Team) =>
  graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${t.phoneNumberId}/messages`);

interface ListRow {
  id: string;
  title: string;
}

interface Thread {
  conversation: { done: boolean };
  ratings: { rating: number; agent_id: string | null }[];
}

describe(`satisfaction survey (${ENGINE})`, () => {
  test('csat › closing sends Meta a 1–5 list; the customer’s list_reply is kept, shown in the thread and in reports, and reopens nothing', async () => {
    const t = await team(true);
    const agent = await joinedTeammate(server, t.owner, 'member');
    const phone = newPhone();
    const contactId = await customerWrites(t, phone, 'The roses arrived, thanks!');
    await close(agent, contactId);

    const survey = withCallbackChecked(sendsOf(t).at(-1)!.body);
    assert.equal(survey.type, 'interactive');
    assert.equal(survey.to, phone);
    const interactive = survey.interactive as {
      type: string;
      body: { text: string };
      action: { button: string; sections: { title: string; rows: ListRow[] }[] };
    };
    assert.equal(interactive.type, 'list');
    assert.ok(interactive.body.text.length > 0);
    assert.ok(interactive.action.button.length <= 20, 'Meta: the list button is at most 20 characters');
    assert.equal(interactive.action.sections.length, 1);
    const rows = interactive.action.sections[0]!.rows;
    assert.deepEqual(
      rows.map((row) => row.title),
      ['5 – Excellent', '4 – Good', '3 – Okay', '2 – Poor', '1 – Very poor'],
    );
    for (const row of rows) assert.ok(row.title.length <= 24 && row.id.length <= 200, JSON.stringify(row));

    // Meta's documented list reply: { type: 'list_reply', list_reply: { id, title, description } }.
    const reply = inboundMessageWebhook({
      phoneNumberId: t.phoneNumberId,
      from: phone,
      type: 'interactive',
      content: { type: 'list_reply', list_reply: { id: rows[1]!.id, title: rows[1]!.title } },
      timestamp: server.clock.now(),
    });
    assert.equal((await postWebhook(reply)).status, 200);

    const thread = await t.owner.send<Thread>('GET', `/api/dashboard/conversations/${contactId}`);
    assert.equal(thread.status, 200, thread.text);
    assert.equal(thread.body.conversation.done, true, 'a rating is no new question for a person');
    assert.deepEqual(
      thread.body.ratings.map(({ rating, agent_id }) => ({ rating, agent_id })),
      [{ rating: 4, agent_id: agent.userId }],
    );

    const report = await t.owner.send<AgentReport>('GET', '/api/v1/reports/agents');
    assert.equal(report.status, 200, report.text);
    assert.deepEqual(
      [report.body.everyone, ...report.body.agents.filter((row) => row.agent?.id === agent.userId)].map((row) => [
        row.csat.ratings,
        row.csat.average,
      ]),
      [
        [1, 4],
        [1, 4],
      ],
      'the rating counts for everyone and for the agent of the rated conversation',
    );
    const volume = await t.owner.send<VolumeReport>('GET', '/api/v1/reports/volume');
    assert.equal(volume.status, 200, volume.text);
    assert.equal(volume.body.totals.conversations_opened.current, 1, 'the rating opened no second conversation');

    // Writing again is a new question: the conversation reopens, and no survey is sent meanwhile.
    const sends = sendsOf(t).length;
    await customerWrites(t, phone, 'One more thing');
    const reopened = await t.owner.send<Thread>('GET', `/api/dashboard/conversations/${contactId}`);
    assert.equal(reopened.body.conversation.done, false);
    assert.equal(sendsOf(t).length, sends);
  });

  test('csat › off by default: closing sends nothing', async () => {
    const t = await team(false);
    const settings = await t.api.action<{ enabled: boolean }>('get-satisfaction-survey-settings');
    assert.deepEqual(settings.body, { enabled: false });
    const contactId = await customerWrites(t, newPhone(), 'Hello');
    const sends = sendsOf(t).length;
    await close(t.owner, contactId);
    assert.equal(sendsOf(t).length, sends);
  });

  test('csat › only inside the 24-hour window: a conversation closed after it ended gets no survey (never a template)', async () => {
    const t = await team(true);
    const contactId = await customerWrites(t, newPhone(), 'Hello');
    server.clock.advance(25 * 3_600_000);
    const sends = sendsOf(t).length;
    await close(t.owner, contactId);
    assert.equal(sendsOf(t).length, sends);
  });

  test('csat › closing twice sends one survey; the settings need manage_workspace', async () => {
    const t = await team(true);
    const contactId = await customerWrites(t, newPhone(), 'Hello');
    const sends = sendsOf(t).length;
    await close(t.owner, contactId);
    await close(t.owner, contactId);
    assert.equal(sendsOf(t).length, sends + 1);

    const member = await joinedTeammate(server, t.owner, 'member');
    const refused = await member.send<{ code: string }>('POST', '/api/v1/actions/update-satisfaction-survey-settings', {
      enabled: false,
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'permission_denied');
  });
});
