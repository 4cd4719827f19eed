import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi, type TestWorkspace } from '../../test/factories.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn } from '../../test/openai-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import { scheduleJob } from '../automation/scheduler.js';
import type { ListedMessage } from '../messages/message.schema.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Decision } from './assistant.decision.js';
import type { AssistantSettings, AssistantTurn } from './assistant.schema.js';

// Meta's webhook in, the model's stand-in on loopback (the operator allows private AI endpoints).
const { server, connect, postWebhook } = await startWhatsappServer({
  env: { PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' },
});
const model = await startOpenAiStandIn();

let phones = 0;
const newPhone = () => `+1415555${String(3000 + phones++)}`;

const SETTINGS: AssistantSettings = {
  enabled: true,
  channel_ids: [],
  team_ids: [],
  hours: 'always',
  name: 'Flora',
  instructions: 'Warm and brief.',
  reply_limit: 3,
  confidence_floor: 0.6,
  stop_words: ['manager'],
  handover_message: 'A florist will answer you here shortly.',
};

export interface Team {
  owner: DashboardSession;
  api: TestWorkspace;
  phoneNumberId: string;
}

/** A workspace on WhatsApp Cloud (the stand-in) whose model is the OpenAI stand-in, with the assistant as given. */
async function team(settings: Partial<AssistantSettings> = {}, ai: Record<string, unknown> = {}): Promise<Team> {
  const owner = await ownerSession(server);
  const api = await ownerApi(server, owner);
  const { phoneNumberId } = await connect(api.workspaceId);
  const aiSaved = await api.action('save-ai-settings', {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
    ...ai,
  });
  assert.equal(aiSaved.status, 200, aiSaved.text);
  const saved = await api.action('update-assistant-settings', { ...SETTINGS, ...settings });
  assert.equal(saved.status, 200, saved.text);
  return { owner, api, phoneNumberId };
}

/** The model's decision as its structured output (the stand-in answers it as the message content). */
const decision = (fields: Partial<Decision>) =>
  JSON.stringify({
    action: 'reply',
    reply: 'Happy to help!',
    confidence: 0.9,
    citations: [],
    hand_over: null,
    tags: [],
    attributes: [],
    ...fields,
  } satisfies Decision);

/** A customer's message through Meta's signed webhook, then the jobs it queued; returns the contact's id. */
async function customerWrites(t: Team, phone: string, text: string): Promise<string> {
  const body = inboundTextWebhook({ phoneNumberId: t.phoneNumberId, from: phone, text, timestamp: server.clock.now() });
  assert.equal((await postWebhook(body)).status, 200);
  await server.app.services.scheduler.runDue(t.api.workspaceId);
  const messages = await t.api.action<ListedMessage[]>('list-messages', { phone });
  return messages.body.at(-1)!.contact_id;
}

async function turnsOf(t: Team, contactId: string): Promise<AssistantTurn[]> {
  const turns = await t.api.action<{ turns: AssistantTurn[] }>('list-assistant-turns', { contact_id: contactId });
  assert.equal(turns.status, 200, turns.text);
  return turns.body.turns;
}

/** The business's messages to the contact, oldest first, as list-messages shows them. */
async function sentTo(t: Team, phone: string): Promise<ListedMessage[]> {
  const messages = await t.api.action<ListedMessage[]>('list-messages', { phone, limit: 50 });
  return messages.body.filter((message) => message.direction === 'outbound').reverse();
}

interface Thread {
  conversation: { needs_person: boolean; done: boolean };
  notes: { body: string; author: unknown; ai_author: string | null }[];
}

const threadOf = async (t: Team, contactId: string) =>
  (await t.owner.send<Thread>('GET', `/api/dashboard/conversations/${contactId}`)).body;

describe(`AI assistant (${ENGINE})`, () => {
  test('assistant › a reply goes out through the one outbound path, signed ai with the assistant’s name, and its turn is kept', async () => {
    const t = await team();
    model.answer(
      decision({
        reply: 'We deliver roses every day!',
        tags: ['roses'],
        attributes: [{ name: 'interest', value: 'roses' }],
      }),
    );
    const phone = newPhone();
    const contactId = await customerWrites(t, phone, 'Do you deliver roses?');

    const [reply] = await sentTo(t, phone);
    assert.equal(reply?.content.body, 'We deliver roses every day!');
    assert.deepEqual(reply?.sender, { type: 'ai', id: null, name: 'Flora' });
    const [turn] = await turnsOf(t, contactId);
    assert.equal(turn?.action, 'reply');
    assert.equal(turn?.reply_message_id, reply?.id);
    assert.equal(turn?.model, CHAT_MODEL);
    assert.equal(turn?.confidence, 0.9);
    assert.ok(turn.prompt_tokens > 0 && turn.completion_tokens > 0, 'the tokens the stand-in counted');
    assert.ok(turn.total_ms >= turn.model_ms!);
    const contact = await t.api.action<{ tags: string[]; custom_attributes: Record<string, unknown> }>('get-contact', {
      contact_id: contactId,
    });
    assert.deepEqual([contact.body.tags, contact.body.custom_attributes.interest], [['roses'], 'roses']);

    // What the model was asked: its rules and the decision's schema, strict; the customer's words as the user's.
    const chat = model.chats().at(-1)!;
    assert.equal(chat.response_format?.type, 'json_schema');
    assert.equal(chat.response_format?.json_schema?.strict, true);
    assert.match(String(chat.messages[0]!.content), /Answer only from the knowledge/);
    assert.deepEqual(chat.messages.at(-1), { role: 'user', content: 'Do you deliver roses?' });
  });

  test('assistant › a question answered from the knowledge: the chunks found are given, the reply cites them, the cited text is kept as it was', async () => {
    const t = await team();
    const qa = await t.api.action<{ id: string }>('create-knowledge-qa', {
      question: 'How much is a dozen red roses?',
      answer: 'A dozen red roses costs $45, delivered the same day in Lisbon.',
    });
    assert.equal(qa.status, 200, qa.text);
    // The model cites the chunk it was given by its id, as the system message shows it.
    model.answer((request) => {
      const system = String(request.messages[0]!.content);
      const id = /\[chunk ([0-9a-f-]{36})\]/.exec(system)?.[1] ?? 'none';
      return decision({ reply: 'Una docena de rosas rojas cuesta $45.', citations: [id], confidence: 0.92 });
    });
    const phone = newPhone();
    const contactId = await customerWrites(t, phone, '¿Cuánto cuesta una docena de roses?');

    const system = String(model.chats().at(-1)!.messages[0]!.content);
    assert.match(system, /\[chunk [0-9a-f-]{36}\] How much is a dozen red roses\?/);
    assert.match(system, /costs \$45, delivered the same day in Lisbon/);
    const [reply] = await sentTo(t, phone);
    assert.deepEqual([reply?.content.body, reply?.sender?.type], ['Una docena de rosas rojas cuesta $45.', 'ai']);
    const [turn] = await turnsOf(t, contactId);
    assert.equal(turn?.action, 'reply');
    assert.deepEqual(
      turn?.citations.map((c) => [c.source_id, c.source, c.text]),
      [
        [
          qa.body.id,
          'How much is a dozen red roses?',
          'A dozen red roses costs $45, delivered the same day in Lisbon.',
        ],
      ],
    );

    // The source changes; the turn still says what the reply relied on.
    const deleted = await t.api.action('delete-knowledge-source', { source_id: qa.body.id });
    assert.equal(deleted.status, 200, deleted.text);
    const [kept] = await turnsOf(t, contactId);
    assert.equal(kept?.citations[0]?.text, 'A dozen red roses costs $45, delivered the same day in Lisbon.');

    // A figure the cited chunk does not state is held back, cited or not.
    const again = await t.api.action<{ id: string }>('create-knowledge-qa', {
      question: 'Do you deliver tulips?',
      answer: 'Yes, tulips are delivered in Lisbon.',
    });
    assert.equal(again.status, 200, again.text);
    model.answer((request) => {
      const id = /\[chunk ([0-9a-f-]{36})\]/.exec(String(request.messages[0]!.content))?.[1] ?? 'none';
      return decision({ reply: 'Yes, tulips for $12 a bunch.', citations: [id] });
    });
    const tulips = await customerWrites(t, newPhone(), 'Do you deliver tulips?');
    assert.deepEqual(
      (await turnsOf(t, tulips)).map((x) => [x.action, x.reason]),
      [['hand_over', 'unsupported_claim']],
    );
  });

  test('assistant › a hand-over: Needs a person, the summary as the assistant’s note, the customer told once; then it stays silent', async () => {
    const t = await team();
    model.answer(
      decision({
        action: 'hand_over',
        reply: null,
        hand_over: { reason: 'a complaint', summary: 'Roses arrived wilted; wants a refund.' },
      }),
    );
    const phone = newPhone();
    const contactId = await customerWrites(t, phone, 'My roses arrived wilted!');

    const thread = await threadOf(t, contactId);
    assert.equal(thread.conversation.needs_person, true);
    assert.equal(thread.notes.length, 1);
    assert.equal(thread.notes[0]!.ai_author, 'Flora');
    assert.equal(thread.notes[0]!.author, null);
    assert.match(thread.notes[0]!.body, /a complaint/);
    assert.match(thread.notes[0]!.body, /Roses arrived wilted; wants a refund\./);
    const sent = await sentTo(t, phone);
    assert.deepEqual(
      sent.map((m) => [m.content.body, m.sender?.type]),
      [['A florist will answer you here shortly.', 'ai']],
    );
    const [turn] = await turnsOf(t, contactId);
    assert.deepEqual(
      [turn?.action, turn?.reason, turn?.summary],
      ['hand_over', 'model_decided', 'Roses arrived wilted; wants a refund.'],
    );
    assert.equal(turn?.notice_message_id, sent[0]!.id);

    // The conversation is a person's now: the customer's next message asks the model nothing.
    const chats = model.chats().length;
    await customerWrites(t, phone, 'Hello??');
    assert.equal(model.chats().length, chats);
    assert.equal((await sentTo(t, phone)).length, 1, 'told once');
  });

  test('assistant › stop words and opt-out keywords go to a person without asking the model; an opt-out is not told', async () => {
    const t = await team();
    const chats = model.chats().length;
    const cases = [
      ['Can I talk to a HUMAN please?', 'stop_word', 1],
      ['Put me through to your manager', 'stop_word', 1],
      ['STOP', 'opt_out', 0],
    ] as const;
    for (const [text, reason, told] of cases) {
      const phone = newPhone();
      const contactId = await customerWrites(t, phone, text);
      const [turn] = await turnsOf(t, contactId);
      assert.deepEqual([turn?.action, turn?.reason, turn?.model], ['hand_over', reason, null], text);
      assert.equal((await threadOf(t, contactId)).conversation.needs_person, true, text);
      const fromAi = (await sentTo(t, phone)).filter((m) => m.sender?.type === 'ai');
      assert.equal(fromAi.length, told, text);
    }
    assert.equal(model.chats().length, chats, 'the model was never asked');
  });

  test('assistant › past its reply limit, the customer’s next message goes to a person', async () => {
    const t = await team({ reply_limit: 2 });
    const phone = newPhone();
    model.answer(decision({ reply: 'Hello!' }), decision({ reply: 'Anything else?' }));
    await customerWrites(t, phone, 'Hi');
    const contactId = await customerWrites(t, phone, 'Still there?');
    const chats = model.chats().length;
    await customerWrites(t, phone, 'And one more question');
    assert.equal(model.chats().length, chats);
    const turns = await turnsOf(t, contactId);
    assert.deepEqual(
      turns.map((turn) => [turn.action, turn.reason]),
      [
        ['hand_over', 'reply_limit'],
        ['reply', null],
        ['reply', null],
      ],
    );
  });

  test('assistant › a person replying or taking the conversation stops it', async () => {
    const t = await team();
    const replied = newPhone();
    model.answer(decision({ reply: 'Hello!' }));
    const contactId = await customerWrites(t, replied, 'Hi');
    const sent = await t.api.action('send-text-message', {
      phone: replied,
      message: 'Ana here, I will take it from here.',
    });
    assert.equal(sent.status, 200, sent.text);
    const chats = model.chats().length;
    await customerWrites(t, replied, 'Thanks Ana');
    assert.equal((await turnsOf(t, contactId)).length, 1);

    const assigned = newPhone();
    const other = await customerWrites(t, assigned, 'Hi again');
    const assign = await server.http.send('PUT', `/api/v1/conversations/${other}/assignment`, {
      token: t.api.token,
      body: { team_id: null, assignee_id: t.api.userId },
    });
    assert.equal(assign.status, 200, assign.text);
    await customerWrites(t, assigned, 'Are you there?');
    assert.equal(model.chats().length, chats + 1, 'only the unassigned first message asked the model');
  });

  test('assistant › below the confidence floor, or stating a price its knowledge does not, the reply is held back and a person takes over', async () => {
    const t = await team({ confidence_floor: 0.7 });
    const unsure = newPhone();
    model.answer(decision({ reply: 'Maybe tomorrow?', confidence: 0.4 }));
    const unsureId = await customerWrites(t, unsure, 'When will it arrive?');
    assert.deepEqual(
      (await turnsOf(t, unsureId)).map((turn) => turn.reason),
      ['low_confidence'],
    );

    const pricey = newPhone();
    model.answer(decision({ reply: 'A dozen roses is $39 this week.', confidence: 0.95 }));
    const priceyId = await customerWrites(t, pricey, 'How much are roses?');
    const [turn] = await turnsOf(t, priceyId);
    assert.deepEqual([turn?.action, turn?.reason], ['hand_over', 'unsupported_claim']);
    for (const phone of [unsure, pricey]) {
      const bodies = (await sentTo(t, phone)).map((m) => m.content.body);
      assert.deepEqual(bodies, ['A florist will answer you here shortly.'], 'only the hand-over notice went out');
    }
  });

  test('assistant › a model that fails, is rate limited, times out or is over budget hands over with its reason', async () => {
    const t = await team({}, { timeout_seconds: 1 });
    const reasonAfter = async (script: () => void) => {
      script();
      const contactId = await customerWrites(t, newPhone(), 'Do you sell tulips?');
      const turns = await turnsOf(t, contactId);
      assert.equal(turns.length, 1);
      assert.equal((await threadOf(t, contactId)).conversation.needs_person, true);
      return turns[0]!.reason;
    };
    assert.equal(await reasonAfter(() => model.failNext()), 'model_error');
    assert.equal(await reasonAfter(() => model.rateLimitNext(30)), 'rate_limited');
    assert.equal(await reasonAfter(() => model.hangNext()), 'timeout');
    assert.equal(await reasonAfter(() => model.answer('this is no JSON')), 'model_error');
    assert.equal(await reasonAfter(() => model.answer('{"action":"dance","confidence":1}')), 'invalid_decision');

    // Room for one call's worst case (its prompt and the 4096 tokens a reply may take); the first
    // answer leaves too little for another.
    const budget = await team({}, { monthly_token_budget: 20_000 });
    const phone = newPhone();
    model.answer({
      content: decision({ reply: 'Yes, we do!' }),
      usage: { promptTokens: 17_000, completionTokens: 100 },
    });
    await customerWrites(budget, phone, 'Do you deliver?');
    const contactId = await customerWrites(budget, phone, 'And on Sundays?');
    assert.deepEqual(
      (await turnsOf(budget, contactId)).map((turn) => turn.reason),
      ['budget_exhausted', null],
    );

    const off = await team();
    assert.equal((await off.api.action('save-ai-settings', { enabled: false })).status, 200);
    const offId = await customerWrites(off, newPhone(), 'Hello');
    assert.deepEqual(
      (await turnsOf(off, offId)).map((turn) => turn.reason),
      ['not_configured'],
    );
  });

  test('assistant › a burst of messages makes one turn, answering them all', async () => {
    const t = await team();
    const phone = newPhone();
    for (const text of ['Hi', 'Do you deliver', 'to Lisbon?']) {
      const body = inboundTextWebhook({
        phoneNumberId: t.phoneNumberId,
        from: phone,
        text,
        timestamp: server.clock.now(),
      });
      assert.equal((await postWebhook(body)).status, 200);
    }
    const chats = model.chats().length;
    model.answer(decision({ reply: 'We do!' }));
    await server.app.services.scheduler.runDue(t.api.workspaceId);
    assert.equal(model.chats().length, chats + 1);
    assert.deepEqual(
      model
        .chats()
        .at(-1)!
        .messages.filter((m) => m.role === 'user')
        .map((m) => m.content),
      ['Hi', 'Do you deliver', 'to Lisbon?'],
    );
    assert.equal((await sentTo(t, phone)).length, 1);
  });

  test('assistant › a second job for the same message (as another process would queue) sends nothing more', async () => {
    const t = await team();
    const phone = newPhone();
    const body = inboundTextWebhook({
      phoneNumberId: t.phoneNumberId,
      from: phone,
      text: 'Hi',
      timestamp: server.clock.now(),
    });
    assert.equal((await postWebhook(body)).status, 200);
    const contactId = (await t.api.action<ListedMessage[]>('list-messages', { phone })).body[0]!.contact_id;
    const { deps } = server.app.services;
    await deps.db.transaction().execute((trx) =>
      scheduleJob(trx, deps, {
        workspaceId: t.api.workspaceId,
        kind: 'assistant_reply',
        subjectId: contactId,
        dueAt: server.clock.now(),
      }),
    );
    model.answer(decision({ reply: 'One' }), decision({ reply: 'Two' }));
    await server.app.services.scheduler.runDue(t.api.workspaceId);
    assert.equal((await sentTo(t, phone)).length, 1);
    assert.equal((await turnsOf(t, contactId)).length, 1);
  });

  test('assistant › a flow’s ai_assistant node hands it the conversation, even off its numbers; switched off, a person gets it', async () => {
    const t = await team({ hours: 'inside_hours' });
    const closed = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, []]),
    );
    const hours = await t.api.action('update-business-hours', {
      enabled: false,
      time_zone: 'UTC',
      weekly: closed,
      holidays: [],
      away_message: 'Closed',
    });
    assert.equal(hours.status, 200, hours.text);
    const definition = { start: 'ai', keywords: ['florist'], nodes: [{ id: 'ai', type: 'ai_assistant' }] };
    const flow = await t.api.action<{ id: string }>('save-flow', { name: 'To the assistant', definition });
    assert.equal(flow.status, 200, flow.text);

    // Closed all week: the assistant's settings leave this customer alone, but the flow hands it over.
    const ignored = newPhone();
    const chats = model.chats().length;
    const ignoredId = await customerWrites(t, ignored, 'hello');
    assert.deepEqual([model.chats().length, (await turnsOf(t, ignoredId)).length], [chats, 0]);

    const phone = newPhone();
    model.answer(decision({ reply: 'Hi! I am Flora. What can I do for you?' }), decision({ reply: 'Red ones, yes.' }));
    const contactId = await customerWrites(t, phone, 'florist');
    await customerWrites(t, phone, 'Do you have red roses?');
    assert.deepEqual(
      (await sentTo(t, phone)).map((m) => [m.content.body, m.sender?.type]),
      [
        ['Hi! I am Flora. What can I do for you?', 'ai'],
        ['Red ones, yes.', 'ai'],
      ],
    );
    const runs = await server.app.services.deps.db
      .selectFrom('flow_runs')
      .select(['status', 'ended_reason'])
      .where('contact_id', '=', contactId)
      .execute();
    assert.deepEqual(runs, [{ status: 'completed', ended_reason: 'ai_assistant' }]);

    const off = await team({ enabled: false });
    assert.equal((await off.api.action('save-flow', { name: 'To the assistant', definition })).status, 200);
    const offId = await customerWrites(off, newPhone(), 'florist');
    const [turn] = await turnsOf(off, offId);
    assert.deepEqual([turn?.action, turn?.reason], ['hand_over', 'assistant_off']);
  });

  test('assistant › it answers only on the numbers and in the teams its settings name', async () => {
    const t = await team();
    const added = await t.api.action<{ id: string }>('add-channel', { provider: 'simulator', phone_number_id: '7070' });
    assert.equal(added.status, 200, added.text);
    const onlyOther = await t.api.action('update-assistant-settings', { ...SETTINGS, channel_ids: [added.body.id] });
    assert.equal(onlyOther.status, 200, onlyOther.text);
    const chats = model.chats().length;
    const phone = newPhone();
    const contactId = await customerWrites(t, phone, 'Hello?');
    assert.equal(model.chats().length, chats, 'not on this number');

    const florists = await t.api.action<{ id: string }>('create-team', { name: 'Florists', member_ids: [] });
    assert.equal(florists.status, 200, florists.text);
    const channels = await t.api.action<{ channels: { id: string; phone_number_id: string }[] }>('list-channels');
    const cloud = channels.body.channels.find((c) => c.phone_number_id === t.phoneNumberId)!;
    const inTeam = { ...SETTINGS, channel_ids: [cloud.id], team_ids: [florists.body.id] };
    assert.equal((await t.api.action('update-assistant-settings', inTeam)).status, 200);
    await customerWrites(t, phone, 'Anyone?');
    assert.equal(model.chats().length, chats, 'not in the team');

    const moved = await server.http.send('PUT', `/api/v1/conversations/${contactId}/assignment`, {
      token: t.api.token,
      body: { team_id: florists.body.id, assignee_id: null },
    });
    assert.equal(moved.status, 200, moved.text);
    model.answer(decision({ reply: 'Here!' }));
    await customerWrites(t, phone, 'Hello, florists?');
    assert.equal(model.chats().length, chats + 1);
    assert.deepEqual(
      (await sentTo(t, phone)).map((m) => m.content.body),
      ['Here!'],
    );
  });

  test('assistant › settings: every role reads them, automation changes them; wrong ids are named; workspaces never see each other’s turns', async () => {
    const t = await team();
    const stranger = await createWorkspace(server);
    const defaults = await stranger.action<AssistantSettings>('get-assistant-settings');
    assert.equal(defaults.status, 200, defaults.text);
    assert.equal(defaults.body.enabled, false);
    assert.equal(defaults.body.name, 'AI assistant');

    const foreignTeam = await stranger.action<{ id: string }>('create-team', { name: 'Theirs', member_ids: [] });
    const wrong = await t.api.action<{ code: string; errors: { field: string; code: string }[] }>(
      'update-assistant-settings',
      { ...SETTINGS, team_ids: [foreignTeam.body.id] },
    );
    assert.equal(wrong.status, 400, wrong.text);
    assert.deepEqual(
      wrong.body.errors.map((e) => [e.field, e.code]),
      [['team_ids', 'assistant.unknown_team']],
    );
    const blank = await t.api.action<{ errors: { field: string }[] }>('update-assistant-settings', {
      ...SETTINGS,
      handover_message: '   ',
    });
    assert.deepEqual([blank.status, blank.body.errors[0]?.field], [400, 'handover_message']);
    const out = await t.api.action('update-assistant-settings', { ...SETTINGS, confidence_floor: 1.5 });
    assert.equal(out.status, 400, out.text);
    assert.equal((await t.api.action<AssistantSettings>('get-assistant-settings')).body.confidence_floor, 0.6);

    const agent = await joinedTeammate(server, t.owner, 'agent');
    const read = await agent.send<AssistantSettings>('POST', '/api/v1/actions/get-assistant-settings', { body: {} });
    assert.deepEqual([read.status, read.body.name], [200, 'Flora']);
    const change = await agent.send('POST', '/api/v1/actions/update-assistant-settings', { body: SETTINGS });
    assert.equal(change.status, 403, change.text);

    model.answer(decision({ reply: 'Hello!' }));
    const contactId = await customerWrites(t, newPhone(), 'Hi');
    const foreign = await stranger.action('list-assistant-turns', { contact_id: contactId });
    assert.equal(foreign.status, 404, foreign.text);
  });
});
