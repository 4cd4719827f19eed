import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent, fetch } from 'undici';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi, type TestWorkspace } from '../../test/factories.js';
import {
  CHAT_MODEL,
  STAND_IN_API_KEY,
  startOpenAiStandIn,
  type ChatCompletionRequest,
} from '../../test/openai-stand-in.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { ConversationSummary, CopilotStatus, RewrittenDraft, SuggestedReply } from './copilot.schema.js';

// The stand-in listens on loopback: the operator allows private AI endpoints here.
const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
const model = await startOpenAiStandIn();

interface Problem {
  code: string;
  detail: string;
  retry_after?: number;
  errors?: { field: string; code?: string }[];
}

const standIn = { base_url: model.url, model: CHAT_MODEL, api_key: STAND_IN_API_KEY };

/** A workspace whose AI model is the stand-in. */
async function withModel(settings: Record<string, unknown> = {}): Promise<TestWorkspace> {
  const workspace = await createWorkspace(server);
  const saved = await workspace.action('save-ai-settings', { enabled: true, ...standIn, ...settings });
  assert.equal(saved.status, 200, saved.text);
  return workspace;
}

async function ok<T>(workspace: TestWorkspace, name: string, body: object): Promise<T> {
  const response = await workspace.action<T>(name, body);
  assert.ok(response.status === 200 || response.status === 201, `${name}: ${response.status} ${response.text}`);
  return response.body;
}

/** A customer writing in on the workspace's simulator; returns the contact's id. */
const customerWrites = async (workspace: TestWorkspace, phone: string, text: string) =>
  (await ok<{ contact_id: string }>(workspace, 'simulate-inbound-message', { phone, text })).contact_id;

const messagesOf = async (workspace: TestWorkspace, contactId: string) =>
  ok<unknown[]>(workspace, 'list-messages', { contact_id: contactId, limit: 100 });

/** The last chat request the model received, with its system and user messages' text. */
function lastChat(): { request: ChatCompletionRequest; system: string; user: string } {
  const request = model.chats().at(-1)!;
  const text = (role: string) =>
    request.messages
      .filter((m) => m.role === role)
      .map((m) => String(m.content))
      .join('\n');
  return { request, system: text('system'), user: text('user') };
}

const json = (value: object) => JSON.stringify(value);

describe(`copilot (${ENGINE})`, () => {
  test('suggest-reply › drafts from the thread in the customer’s language; nothing is sent; counted as copilot', async () => {
    const workspace = await withModel();
    const contactId = await customerWrites(workspace, '+5511912340001', 'Olá! Vocês entregam no domingo?');
    await ok(workspace, 'send-text-message', { contact_id: contactId, message: 'Olá! Vou verificar.' });
    server.clock.advance(60_000);
    await customerWrites(workspace, '+5511912340001', 'E qual é o horário?');
    const sent = (await messagesOf(workspace, contactId)).length;

    model.answer(json({ reply: 'Entregamos de segunda a sábado.', language: 'pt-BR', citations: [] }));
    const suggestion = await ok<SuggestedReply>(workspace, 'suggest-reply', { contact_id: contactId });
    assert.deepEqual(suggestion, {
      reply: 'Entregamos de segunda a sábado.',
      language: 'pt-BR',
      citations: [],
      model: CHAT_MODEL,
    });

    const { request, system, user } = lastChat();
    assert.equal(request.response_format?.type, 'json_schema');
    assert.equal(request.response_format?.json_schema?.strict, true);
    assert.match(system, /Never state a price, amount, percentage, discount, refund, date/);
    assert.match(system, /Write in the customer's language: the language of their latest messages/);
    assert.match(system, /No knowledge matches this conversation/);
    const lines = user.split('\n').filter((line) => line.startsWith('['));
    assert.deepEqual(
      lines.map((line) => line.replace(/^\[[^\]]+\] /, '')),
      ['Customer: Olá! Vocês entregam no domingo?', 'Agent: Olá! Vou verificar.', 'Customer: E qual é o horário?'],
    );

    assert.equal((await messagesOf(workspace, contactId)).length, sent, 'the copilot sends nothing');
    const usage = await ok<{ purposes: { purpose: string; calls: number }[] }>(workspace, 'get-ai-usage', {});
    assert.deepEqual(
      usage.purposes.map((p) => [p.purpose, p.calls]),
      [['copilot', 1]],
    );
  });

  test('suggest-reply › searches the knowledge with the open question and returns the chunks the draft cites', async () => {
    const workspace = await withModel();
    const sundays = await ok<{ id: string }>(workspace, 'create-knowledge-qa', {
      question: 'Do you deliver on Sundays?',
      answer: 'We deliver Monday to Saturday, 9:00 to 18:00. There are no Sunday deliveries.',
    });
    await ok(workspace, 'create-knowledge-qa', {
      question: 'What is your refund policy?',
      answer: 'Refunds within 14 days of delivery, for unopened bouquets.',
    });
    const contactId = await customerWrites(workspace, '+14155550111', 'Can I get a refund for a wilted bouquet?');
    await ok(workspace, 'send-text-message', { contact_id: contactId, message: 'Let me check that for you.' });
    server.clock.advance(60_000);
    await customerWrites(workspace, '+14155550111', 'Also, do you deliver on Sundays?');

    let given: string[] = [];
    model.answer((request) => {
      given = [...String(request.messages[0]!.content).matchAll(/\[chunk ([0-9a-f-]{36})\]/g)].map((m) => m[1]!);
      const invented = '00000000-0000-4000-8000-00000000abcd';
      return json({ reply: 'We deliver Monday to Saturday.', language: 'en', citations: [given[0], invented] });
    });
    const suggestion = await ok<SuggestedReply>(workspace, 'suggest-reply', { contact_id: contactId });

    const { system } = lastChat();
    assert.match(system, /There are no Sunday deliveries\./);
    assert.doesNotMatch(system, /Refunds within 14 days/, 'the knowledge is searched with what is still unanswered');
    assert.equal(given.length, 1);
    assert.deepEqual(suggestion.citations, [
      {
        chunk_id: given[0],
        source_id: sundays.id,
        source_kind: 'qa',
        source_title: 'Do you deliver on Sundays?',
        heading: suggestion.citations[0]!.heading,
        text: suggestion.citations[0]!.text,
      },
    ]);
    assert.match(suggestion.citations[0]!.text, /There are no Sunday deliveries/);
  });

  test('suggest-reply › a contact’s `language` attribute names the language to write in', async () => {
    const workspace = await withModel();
    const contactId = await customerWrites(workspace, '+34612340002', 'Hello, where is my order?');
    await ok(workspace, 'update-contact', { contact_id: contactId, metadata: { language: 'es' } });
    model.answer(json({ reply: 'Hola, lo reviso ahora.', language: 'es', citations: [] }));
    await ok<SuggestedReply>(workspace, 'suggest-reply', { contact_id: contactId });
    assert.match(lastChat().system, /Write in the customer's language, Spanish \(es\), as their contact states/);
  });

  test('summarize-conversation › a long thread is bounded to its latest messages, in the language asked', async () => {
    const workspace = await withModel();
    const phone = '+4915112340003';
    const contactId = await customerWrites(workspace, phone, 'FIRST message about a broken vase');
    for (let n = 1; n <= 30; n++) {
      server.clock.advance(1000);
      await customerWrites(workspace, phone, `Message ${n}: ${'and some more words '.repeat(60)}`);
    }
    server.clock.advance(1000);
    await customerWrites(workspace, phone, 'LAST message: can you send a new one?');

    model.answer(json({ summary: 'El cliente quiere un jarrón nuevo.' }));
    const summary = await ok<ConversationSummary>(workspace, 'summarize-conversation', {
      contact_id: contactId,
      language: 'es',
    });
    assert.equal(summary.summary, 'El cliente quiere un jarrón nuevo.');
    assert.equal(summary.earlier_left_out, true);
    assert.ok(summary.messages > 5 && summary.messages < 32, `${summary.messages} messages`);

    const { system, user } = lastChat();
    assert.match(system, /Write the summary in Spanish \(es\)/);
    assert.ok(user.length < 25_000, `${user.length} characters sent`);
    assert.match(user, /LAST message: can you send a new one\?/);
    assert.doesNotMatch(user, /FIRST message/);
    assert.match(user, /earlier messages are left out/);
    const lines = user.split('\n').filter((line) => line.startsWith('['));
    assert.equal(lines.length, summary.messages);

    model.answer(json({ summary: 'The customer asked about a vase.' }));
    const short = await ok<ConversationSummary>(workspace, 'summarize-conversation', {
      contact_id: await customerWrites(workspace, '+4915112340004', 'Do you sell vases?'),
    });
    assert.deepEqual([short.messages, short.earlier_left_out], [1, false]);
    assert.match(lastChat().system, /Write the summary in English \(en\)/);
  });

  test('rewrite-draft › shorter and friendlier keep the draft; translate targets the customer’s language', async () => {
    const workspace = await withModel();
    const contactId = await customerWrites(workspace, '+33612340005', 'Bonjour, ma commande est en retard.');
    const draft = 'Your order ships *today*; tracking: https://example.com/t/42';

    model.answer(json({ text: 'Ships today: https://example.com/t/42', language: 'en' }));
    const shorter = await ok<RewrittenDraft>(workspace, 'rewrite-draft', {
      contact_id: contactId,
      text: draft,
      style: 'shorter',
    });
    assert.deepEqual(shorter, { text: 'Ships today: https://example.com/t/42', language: 'en', model: CHAT_MODEL });
    let chat = lastChat();
    assert.match(chat.system, /Make it shorter/);
    assert.match(chat.system, /add none: no price, date, refund or promise/);
    assert.match(chat.user, /Your order ships \*today\*; tracking: https:\/\/example.com\/t\/42/);
    assert.doesNotMatch(chat.user, /Bonjour/, 'a rewrite in the draft’s language needs no thread');

    model.answer(json({ text: 'Votre commande part aujourd’hui', language: 'fr' }));
    const translated = await ok<RewrittenDraft>(workspace, 'rewrite-draft', {
      contact_id: contactId,
      text: draft,
      style: 'translate',
    });
    assert.equal(translated.language, 'fr');
    chat = lastChat();
    assert.match(chat.system, /Translate it into the language the customer writes in/);
    assert.match(chat.user, /The customer's latest messages:\n- Bonjour, ma commande est en retard\./);

    await ok(workspace, 'update-contact', { contact_id: contactId, metadata: { language: 'pt-BR' } });
    model.answer(json({ text: 'Seu pedido sai hoje', language: 'pt-BR' }));
    await ok<RewrittenDraft>(workspace, 'rewrite-draft', { contact_id: contactId, text: draft, style: 'translate' });
    chat = lastChat();
    assert.match(chat.system, /Translate it into the customer's language, Brazilian Portuguese \(pt-BR\)/);
    assert.doesNotMatch(chat.user, /Bonjour/);

    model.answer(json({ text: 'Great news: your order ships today!', language: 'en' }));
    await ok(workspace, 'rewrite-draft', { contact_id: contactId, text: draft, style: 'friendlier' });
    assert.match(lastChat().system, /Make it warmer and friendlier/);
  });

  test('problems › an empty conversation, an unknown contact, a customer of unknown language, an empty draft', async () => {
    const workspace = await withModel();
    const received = model.requests.length;
    const silent = await ok<{ id: string }>(workspace, 'create-contact', { phone: '+14155550106' });
    for (const action of ['suggest-reply', 'summarize-conversation']) {
      const empty = await workspace.action<Problem>(action, { contact_id: silent.id });
      assert.equal(empty.status, 422, empty.text);
      assert.equal(empty.body.code, 'conversation_empty');
    }
    const unknown = await workspace.action<Problem>('suggest-reply', {
      contact_id: '00000000-0000-4000-8000-000000000000',
    });
    assert.equal(unknown.status, 404);
    const noLanguage = await workspace.action<Problem>('rewrite-draft', {
      contact_id: silent.id,
      text: 'Hello',
      style: 'translate',
    });
    assert.equal(noLanguage.status, 422, noLanguage.text);
    assert.equal(noLanguage.body.code, 'customer_language_unknown');
    const blank = await workspace.action<Problem>('rewrite-draft', {
      contact_id: silent.id,
      text: '   ',
      style: 'shorter',
    });
    assert.equal(blank.status, 400);
    assert.deepEqual(
      blank.body.errors?.map((e) => [e.field, e.code]),
      [['text', 'copilot.draft_empty']],
    );
    for (const body of [{}, { contact_id: 'nope' }, { contact_id: silent.id, text: 'x', style: 'poetic' }]) {
      const bad = await workspace.action<Problem>('rewrite-draft', body);
      assert.equal(bad.status, 400, json(body));
    }
    assert.equal(model.requests.length, received, 'the model was never asked');
  });

  test('model problems › not set up names where; 429 and timeouts are a gateway’s statuses with Retry-After; a spent budget waits for the month', async () => {
    const bare = await createWorkspace(server);
    const contactOf = (workspace: TestWorkspace, phone: string) => customerWrites(workspace, phone, 'Hi there');
    const notSet = await bare.action<Problem>('suggest-reply', { contact_id: await contactOf(bare, '+14155550107') });
    assert.equal(notSet.status, 422);
    assert.equal(notSet.body.code, 'ai_model_not_configured');
    assert.match(notSet.body.detail, /an owner or admin sets one up in Settings → AI model/);
    assert.deepEqual(await ok<CopilotStatus>(bare, 'get-copilot-status', {}), {
      available: false,
      reason: 'not_configured',
    });

    const workspace = await withModel({ timeout_seconds: 1, monthly_token_budget: 6000 });
    const contactId = await contactOf(workspace, '+14155550108');
    assert.deepEqual(await ok<CopilotStatus>(workspace, 'get-copilot-status', {}), { available: true, reason: null });

    model.rateLimitNext(7);
    const limited = await workspace.action<Problem>('suggest-reply', { contact_id: contactId });
    assert.equal(limited.status, 503, limited.text);
    assert.equal(limited.body.code, 'ai_model_rate_limited');
    assert.equal(limited.headers['retry-after'], '7');

    model.hangNext();
    const slow = await workspace.action<Problem>('summarize-conversation', { contact_id: contactId });
    assert.equal(slow.status, 504, slow.text);
    assert.equal(slow.body.code, 'ai_model_timeout');

    model.failNext();
    const failed = await workspace.action<Problem>('rewrite-draft', {
      contact_id: contactId,
      text: 'Hello',
      style: 'shorter',
    });
    assert.equal(failed.status, 502, failed.text);
    assert.equal(failed.body.code, 'ai_model_failed');

    model.answer('Sure! Here is a reply for you.');
    const notJson = await workspace.action<Problem>('suggest-reply', { contact_id: contactId });
    assert.equal(notJson.status, 502, notJson.text);

    model.answer({ content: json({ summary: 'Hi.' }), usage: { promptTokens: 5900, completionTokens: 100 } });
    await ok(workspace, 'summarize-conversation', { contact_id: contactId });
    const spent = await workspace.action<Problem>('suggest-reply', { contact_id: contactId });
    assert.equal(spent.status, 429, spent.text);
    assert.equal(spent.body.code, 'ai_budget_exhausted');
    assert.match(spent.body.detail, /raise the budget in Settings → AI model/);
    const now = server.clock.now();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    assert.equal(Number(spent.headers['retry-after']), Math.ceil((nextMonth - now.getTime()) / 1000));
    assert.deepEqual(await ok<CopilotStatus>(workspace, 'get-copilot-status', {}), {
      available: false,
      reason: 'budget_exhausted',
    });
  });

  test('roles › those who answer conversations may ask the copilot; a marketer may not; a read-only token may', async () => {
    const owner = await ownerSession(server);
    const api = await ownerApi(server, owner);
    await ok(api, 'save-ai-settings', { enabled: true, ...standIn });
    const contactId = await customerWrites(api, '+14155550109', 'Do you open on Sundays?');
    for (const role of ['member', 'agent'] as const) {
      const mate = await joinedTeammate(server, owner, role);
      const status = await mate.send<CopilotStatus>('POST', '/api/v1/actions/get-copilot-status', {});
      assert.deepEqual([status.status, status.body.available], [200, true], role);
      model.answer(json({ reply: 'We open Monday to Saturday.', language: 'en', citations: [] }));
      const asked = await mate.send('POST', '/api/v1/actions/suggest-reply', { contact_id: contactId });
      assert.equal(asked.status, 200, `${role}: ${asked.text}`);
    }
    const marketer = await joinedTeammate(server, owner, 'marketer');
    for (const action of ['get-copilot-status', 'suggest-reply', 'summarize-conversation', 'rewrite-draft']) {
      const refused = await marketer.send<Problem>('POST', `/api/v1/actions/${action}`, {
        contact_id: contactId,
        text: 'Hi',
        style: 'shorter',
      });
      assert.equal(refused.status, 403, action);
      assert.equal(refused.body.code, 'permission_denied');
    }
    const issued = await server.app.services.tokens.create({
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      name: 'reader',
      scope: 'read',
    });
    const reader = await server.http.send('POST', '/api/v1/actions/get-copilot-status', {
      token: issued.token,
      body: {},
    });
    assert.equal(reader.status, 200, 'drafting changes nothing, so reading tokens may ask');
  });

  test('isolation › another workspace’s conversation is unknown, and its model is never asked', async () => {
    const mine = await withModel();
    const contactId = await customerWrites(mine, '+14155550110', 'My secret order number is 12345');
    const theirs = await withModel();
    const received = model.requests.length;
    for (const [action, body] of [
      ['suggest-reply', {}],
      ['summarize-conversation', {}],
      ['rewrite-draft', { text: 'Hello', style: 'translate' }],
    ] as const) {
      const refused = await theirs.action<Problem>(action, { contact_id: contactId, ...body });
      assert.equal(refused.status, 404, `${action}: ${refused.text}`);
    }
    assert.equal(model.requests.length, received);
  });

  test('MCP › the copilot’s tools are read-only (they draft and change nothing) and reach the outside model', async () => {
    const workspace = await createWorkspace(server, { scope: 'read' });
    const agent = new Agent({ connect: { ca: server.app.tls!.cert } });
    after(() => agent.close());
    const trusting: FetchLike = (url, init) => fetch(url, { ...init, dispatcher: agent } as never) as never;
    const client = new Client({ name: 'copilot-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
        fetch: trusting,
        requestInit: { headers: { authorization: `Bearer ${workspace.token}` } },
      }),
    );
    after(() => client.close());
    const { tools } = await client.listTools();
    const hints = (name: string) => {
      const tool = tools.find((candidate) => candidate.name === name);
      assert.ok(tool, `${name} is listed to a read-only token`);
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations ?? {};
      return { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
    };
    const reads = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
    assert.deepEqual(hints('get_copilot_status'), { ...reads, openWorldHint: false }, 'asks no model');
    for (const name of ['suggest_reply', 'summarize_conversation', 'rewrite_draft']) {
      assert.deepEqual(hints(name), { ...reads, openWorldHint: true }, name);
      const input = tools.find((tool) => tool.name === name)!.inputSchema;
      assert.ok(input.required?.includes('contact_id'), name);
      for (const [key, property] of Object.entries(input.properties ?? {})) {
        assert.ok((property as { description?: string }).description, `${name}.${key} is described`);
      }
    }
  });
});
