import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ownerApi, type TestWorkspace } from '../../test/factories.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn } from '../../test/openai-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import type { AssistantTurn } from '../assistant/assistant.schema.js';
import type { ListedMessage } from '../messages/message.schema.js';
import { documentedStatusWebhook } from '../whatsapp/webhook.delivery-fixtures.js';
import { inboundMessageWebhook, inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { AiReport } from './ai-report.schema.js';

// Meta's webhook in and its Graph API out (the outbox sends), the model's stand-in on loopback.
const { graph, server, connect, postWebhook } = await startWhatsappServer({
  outbox: true,
  env: { PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' },
});
const model = await startOpenAiStandIn();
model.latencyMs = 5;

const DAY = 86_400_000;
let phones = 0;
const newPhone = () => `+1415555${String(4000 + phones++)}`;

interface Team {
  owner: DashboardSession;
  api: TestWorkspace;
  phoneNumberId: string;
}

/** A workspace on WhatsApp Cloud whose assistant answers everything with the stand-in, surveys on, prices set. */
async function team(): Promise<Team> {
  const owner = await ownerSession(server);
  const api = await ownerApi(server, owner);
  const { phoneNumberId } = await connect(api.workspaceId);
  const saves = [
    await api.action('save-ai-settings', {
      enabled: true,
      base_url: model.url,
      model: CHAT_MODEL,
      api_key: STAND_IN_API_KEY,
      input_price_per_million: 1,
      output_price_per_million: 4,
    }),
    await assistant(api, true),
    await api.action('update-satisfaction-survey-settings', { enabled: true }),
    await owner.send('PUT', '/api/dashboard/reports/rates', { currency: 'USD', rates: { service: 0.01 } }),
  ];
  for (const saved of saves) assert.equal(saved.status, 200, saved.text);
  return { owner, api, phoneNumberId };
}

const assistant = (api: TestWorkspace, enabled: boolean) =>
  api.action('update-assistant-settings', {
    enabled,
    channel_ids: [],
    team_ids: [],
    hours: 'always',
    name: 'Flora',
    instructions: '',
    reply_limit: 5,
    confidence_floor: 0.5,
    stop_words: [],
    handover_message: 'A florist will answer you here shortly.',
  });

/** The model's structured decision, as the stand-in answers it. */
const decision = (action: 'reply' | 'close' | 'hand_over', reply: string | null) =>
  JSON.stringify({
    action,
    reply,
    confidence: 0.9,
    citations: [],
    hand_over: action === 'hand_over' ? { reason: 'a refund', summary: 'Wants a refund.' } : null,
    tags: [],
    attributes: [],
  });

/** Lets the outbox send everything queued. */
async function sendQueued(): Promise<void> {
  server.app.services.outbox.wake();
  await server.app.services.outbox.idle();
}

/** A customer's message through Meta's signed webhook, then the assistant's job; returns the contact's id. */
async function customerWrites(t: Team, phone: string, text: string): Promise<string> {
  const body = inboundTextWebhook({ phoneNumberId: t.phoneNumberId, from: phone, text, timestamp: server.clock.now() });
  assert.equal((await postWebhook(body)).status, 200);
  await server.app.services.scheduler.runDue(t.api.workspaceId);
  await sendQueued();
  const messages = await t.api.action<ListedMessage[]>('list-messages', { phone });
  return messages.body[0]!.contact_id;
}

/** The customer answers the satisfaction survey Meta delivered to them with `rating`, as its list reply. */
async function customerRates(t: Team, phone: string, rating: number): Promise<void> {
  type Sent = { to?: string; type?: string; interactive?: { action: { sections: { rows: { id: string }[] }[] } } };
  const survey = graph.requests
    .filter((r) => r.path === `/${API_VERSION}/${t.phoneNumberId}/messages`)
    .map((r) => r.body as Sent)
    .filter((body) => body.type === 'interactive' && body.to === phone)
    .at(-1)!;
  const { sections } = survey.interactive!.action;
  const row = sections[0]!.rows[5 - rating]!;
  const reply = inboundMessageWebhook({
    phoneNumberId: t.phoneNumberId,
    from: phone,
    type: 'interactive',
    content: { type: 'list_reply', list_reply: { id: row.id, title: String(rating) } },
    timestamp: server.clock.now(),
  });
  assert.equal((await postWebhook(reply)).status, 200);
}

async function close(t: Team, contactId: string): Promise<void> {
  const done = await t.owner.send('POST', `/api/dashboard/conversations/${contactId}/done`, { done: true });
  assert.equal(done.status, 200, done.text);
  await sendQueued();
}

/** A person of the team answers (an API token's send counts as a person's). */
async function personReplies(t: Team, phone: string, text: string): Promise<ListedMessage> {
  const sent = await t.api.action<ListedMessage>('send-text-message', { phone, message: text });
  assert.equal(sent.status, 200, sent.text);
  await sendQueued();
  return sent.body;
}

/** Meta's status for a message, with the pricing it charged. */
async function priced(t: Team, phone: string, messageId: string, pricing: Record<string, unknown>): Promise<void> {
  const messages = await t.api.action<ListedMessage[]>('list-messages', { phone, limit: 50 });
  const message = messages.body.find((m) => m.id === messageId)!;
  const body = documentedStatusWebhook({
    phoneNumberId: t.phoneNumberId,
    wamid: message.provider_message_id!,
    status: 'sent',
    recipient: phone,
    timestamp: server.clock.now(),
    pricing,
  });
  assert.equal((await postWebhook(body)).status, 200);
}

const aiSent = async (t: Team, phone: string) =>
  (await t.api.action<ListedMessage[]>('list-messages', { phone, limit: 50 })).body
    .filter((m) => m.sender?.type === 'ai')
    .reverse();

const turnsOf = async (t: Team, contactId: string) =>
  (await t.api.action<{ turns: AssistantTurn[] }>('list-assistant-turns', { contact_id: contactId })).body.turns;

/** The report as the workspace's API token reads it (a dashboard session would expire over the days the test spans). */
const report = async (t: Team, query = '') => {
  const answer = await t.api.get<AiReport>(`/v1/reports/ai${query}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
};

describe(`AI report (${ENGINE})`, () => {
  test('reports/ai › conversations handled, resolved without a person after 7 days, reopened, handed over by reason; ratings of the assistant’s conversations beside people’s; tokens, cost and Meta’s charges', async () => {
    const t = await team();
    const started = server.clock.now();

    // A: answered, then closed by the assistant; rated 4.
    const a = newPhone();
    model.answer(decision('reply', 'We deliver roses every day.'), decision('close', 'Goodbye!'));
    const aId = await customerWrites(t, a, 'Do you deliver roses?');
    await customerWrites(t, a, 'Thanks, that is all');
    await customerRates(t, a, 4);

    // B: answered and closed by the assistant, then back two days later: the assistant hands over.
    const b = newPhone();
    model.answer(decision('reply', 'Yes, we are open today.'), decision('close', 'Bye!'));
    const bId = await customerWrites(t, b, 'Are you open?');
    await customerWrites(t, b, 'ok bye');

    // C: asks for a person (a stop word: no model); a person answers and closes; rated 2.
    const c = newPhone();
    const cId = await customerWrites(t, c, 'I want a human please');
    const personal = await personReplies(t, c, 'Hello, this is Ana from the shop.');
    await close(t, cId);
    await customerRates(t, c, 2);

    // D: while the assistant is off, people alone; rated 5.
    assert.equal((await assistant(t.api, false)).status, 200);
    const d = newPhone();
    const dId = await customerWrites(t, d, 'Hello?');
    await personReplies(t, d, 'Hi, how can we help?');
    await close(t, dId);
    await customerRates(t, d, 5);
    assert.equal((await assistant(t.api, true)).status, 200);

    server.clock.advance(2 * DAY);
    model.answer(decision('hand_over', null));
    await customerWrites(t, b, 'My order never came, I want my money back');

    // Meta charged one of the assistant's replies (priced by the workspace's service rate), not the other;
    // a person's charged message is not the assistant's.
    const [aReply] = await aiSent(t, a);
    const [bReply] = await aiSent(t, b);
    await priced(t, a, aReply!.id, { billable: true, pricing_model: 'PMP', category: 'service', type: 'regular' });
    await priced(t, b, bReply!.id, {
      billable: false,
      pricing_model: 'PMP',
      category: 'service',
      type: 'free_customer_service',
    });
    await priced(t, c, personal.id, { billable: true, pricing_model: 'PMP', category: 'service', type: 'regular' });

    const soon = await report(t);
    assert.deepEqual(soon.conversations, {
      handled: 4,
      answered: 2,
      handed_over: 2,
      resolved_without_person: 0,
      reopened: 1,
      awaiting_reopen_window: 1,
      resolution_rate: 0,
      hand_over_rate: 0.5,
    });
    assert.deepEqual(soon.hand_over_reasons, [
      { reason: 'model_decided', conversations: 1 },
      { reason: 'stop_word', conversations: 1 },
    ]);
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const busy = soon.days.filter((row) => row.handled > 0).map((row) => [row.day, row.handled, row.handed_over]);
    assert.deepEqual(busy, [
      [day(started), 3, 1],
      [day(server.clock.now()), 1, 1],
    ]);
    assert.deepEqual(soon.csat, {
      ai: { ratings: 1, average: 4, satisfied_share: 1 },
      ai_and_person: { ratings: 1, average: 2, satisfied_share: 0 },
      people: { ratings: 1, average: 5, satisfied_share: 1 },
    });

    // The turns and tokens, as each conversation's record lists them.
    const turns = (await Promise.all([aId, bId, cId, dId].map((id) => turnsOf(t, id)))).flat();
    const prompt = turns.reduce((sum, turn) => sum + turn.prompt_tokens, 0);
    const completion = turns.reduce((sum, turn) => sum + turn.completion_tokens, 0);
    assert.ok(prompt > 0 && completion > 0);
    assert.deepEqual(
      [soon.turns.total, soon.turns.replies, soon.turns.hand_overs, soon.turns.closes],
      [turns.length, 2, 2, 2],
    );
    assert.deepEqual(soon.tokens, { prompt, completion, cost: (prompt * 1 + completion * 4) / 1_000_000 });
    const modelTimes = turns.flatMap((turn) => (turn.model_ms === null ? [] : [turn.model_ms])).sort((x, y) => x - y);
    assert.equal(modelTimes.length, 5, 'the stop word asked no model');
    assert.deepEqual(soon.turns.model_ms, { p50: modelTimes[2], p99: modelTimes[4] });
    assert.ok(soon.turns.overhead_ms.p50! >= 0 && soon.turns.overhead_ms.p99! >= soon.turns.overhead_ms.p50!);
    const assistantUsage = soon.usage_by_month.filter((row) => row.purpose === 'assistant');
    assert.equal(
      assistantUsage.reduce((sum, row) => sum + row.prompt_tokens, 0),
      prompt,
      'the ledger counted the same tokens',
    );
    assert.equal(soon.meta.messages, 6, 'two replies, two goodbyes, two hand-over notices');
    assert.deepEqual([soon.meta.currency, soon.meta.cost.billable, soon.meta.cost.amount], ['USD', 1, 0.01]);

    // Seven days after A's close without a return, it counts as resolved; B's reopening does not.
    server.clock.advance(6 * DAY);
    const later = await report(t);
    assert.deepEqual(
      [
        later.conversations.resolved_without_person,
        later.conversations.reopened,
        later.conversations.awaiting_reopen_window,
      ],
      [1, 1, 0],
    );
    assert.equal(later.conversations.resolution_rate, 0.25);

    // The range counts conversations by their first turn: the last day alone holds B's second one.
    const lastDay = await report(t, `?from=${day(server.clock.now())}&to=${day(server.clock.now())}`);
    assert.equal(lastDay.conversations.handled, 0);
    const secondDay = new Date(started.getTime() + 2 * DAY);
    const second = await report(t, `?from=${day(secondDay)}&to=${day(secondDay)}`);
    assert.deepEqual([second.conversations.handled, second.conversations.handed_over], [1, 1]);

    // The same figures as CSV, one a row.
    const csv = await t.api.get<string>('/v1/reports/ai?format=csv');
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(csv.text, /^\uFEFF?figure,value\n/);
    assert.match(csv.text, /\nconversations_handled,4\n/);
    assert.match(csv.text, /\nhanded_over_stop_word,1\n/);
    assert.match(csv.text, /\ncsat_ai_average,4\n/);
  });

  test('reports/ai › a workspace sees only its own; an agent may not read it; a bad filter is a 400 naming the field', async () => {
    const t = await team();
    model.answer(decision('reply', 'Yes.'));
    await customerWrites(t, newPhone(), 'Open today?');
    assert.equal((await report(t)).conversations.handled, 1);

    const other = await team();
    const theirs = await report(other);
    assert.deepEqual([theirs.conversations.handled, theirs.turns.total, theirs.tokens.prompt], [0, 0, 0]);
    assert.deepEqual(theirs.csat.ai, { ratings: 0, average: null, satisfied_share: null });

    const agent = await joinedTeammate(server, t.owner, 'agent');
    assert.equal((await agent.send('GET', '/api/v1/reports/ai')).status, 403);
    const marketer = await joinedTeammate(server, t.owner, 'marketer');
    assert.equal((await marketer.send('GET', '/api/v1/reports/ai')).status, 200);

    for (const [query, field] of [
      ['?from=2026-13-01', 'from'],
      ['?from=2026-03-10&to=2026-03-01', 'from'],
      [`?phone_number_id=${other.phoneNumberId}`, 'phone_number_id'],
    ]) {
      const refused = await t.owner.send<{ errors: { field: string }[] }>('GET', `/api/v1/reports/ai${query!}`);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.errors[0]?.field, field);
    }
    // Narrowed to its own number, the conversation stays.
    const mine = await t.owner.send<AiReport>('GET', `/api/v1/reports/ai?phone_number_id=${t.phoneNumberId}`);
    assert.equal(mine.body.conversations.handled, 1);
  });
});
