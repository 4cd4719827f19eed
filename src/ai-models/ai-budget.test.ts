/**
 * The month's token budget under concurrency: three real Parley processes on one database (the
 * in-process test server and two `src/main.ts` children), many AI calls at once against the OpenAI
 * stand-in. What must hold: the model is asked no more than the budget has room for, the rest are
 * refused with the documented answer, and the ledger ends equal to what the model reported.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asClient, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import {
  CHAT_MODEL,
  STAND_IN_API_KEY,
  startOpenAiStandIn,
  type ChatCompletionRequest,
  type OpenAiStandIn,
} from '../../test/openai-stand-in.js';
import { startParleyProcess } from '../../test/parley-process.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { AiSettingsTest, AiUsage } from './ai-settings.schema.js';
import { chatWorstCase } from './worst-case.js';

const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
const certificate = server.app.tls!.cert;
const children = await Promise.all(
  ['process B', 'process C'].map((name) => startParleyProcess(name, server.env, certificate)),
);

interface Problem {
  code: string;
  detail: string;
}

/** A workspace with a stand-in of its own as its model, and a client for it on each of the three processes. */
async function workspaceOnEveryProcess(model: OpenAiStandIn): Promise<TestWorkspace[]> {
  const workspace = await createWorkspace(server);
  const saved = await workspace.action('save-ai-settings', {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
  });
  assert.equal(saved.status, 200, saved.text);
  return [workspace, ...children.map((child) => asClient(child.http, workspace))];
}

/** What the stand-in reported for the chats it answered since `from` (its usage is what it answers). */
const reported = (answered: { promptTokens: number; completionTokens: number }[]) =>
  answered.reduce((sum, usage) => sum + usage.promptTokens + usage.completionTokens, 0);

/** The worst case Parley reserves for a chat the stand-in received (the pure bound of worst-case.ts). */
function worstCaseOf(request: ChatCompletionRequest): number {
  const schema = request.response_format?.json_schema;
  return chatWorstCase({
    purpose: 'copilot',
    messages: request.messages.map((m) => ({ role: m.role as 'user', content: String(m.content) })),
    ...(schema && { schema: { name: schema.name, schema: schema.schema } }),
    maxTokens: request.max_tokens!,
  });
}

describe(`AI token budget across processes (${ENGINE})`, () => {
  test('suggest-reply › a burst over three processes asks the model only as often as the budget has room; the rest are 429; the ledger equals the model’s count', async () => {
    const model = await startOpenAiStandIn();
    // Long enough that every request of a burst is in flight before the first answer settles.
    model.latencyMs = 400;
    const suggestion = JSON.stringify({ reply: 'Yes, we deliver on Sundays.' });
    model.respond = () => ({ content: suggestion });
    const through = await workspaceOnEveryProcess(model);
    const [first] = through;
    const simulated = await first!.action<{ contact_id: string }>('simulate-inbound-message', {
      phone: '+14155550142',
      text: 'Hello! Do you deliver flowers on Sundays?',
    });
    const contactId = simulated.body.contact_id;

    // One call first, with no budget, to learn the worst case Parley reserves for this conversation.
    const pilot = await first!.action('suggest-reply', { contact_id: contactId });
    assert.equal(pilot.status, 200, pilot.text);
    const worstCase = worstCaseOf(model.chats().at(-1)!);

    // Room for three and a half worst cases; each answer costs nine tenths of one (within its bound):
    // after three answers no fourth fits, whatever the order. Without reservations all twelve are asked.
    const before = await first!.action<AiUsage>('get-ai-usage');
    const budget = before.body.tokens_used + Math.floor(3.5 * worstCase);
    assert.equal((await first!.action('save-ai-settings', { monthly_token_budget: budget })).status, 200);
    const answered: { promptTokens: number; completionTokens: number }[] = [];
    model.respond = () => {
      const usage = { promptTokens: Math.floor(0.6 * worstCase), completionTokens: Math.floor(0.3 * worstCase) };
      answered.push(usage);
      return { content: suggestion, usage };
    };
    const chatsBefore = model.chats().length;

    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => through[i % 3]!.action<Problem>('suggest-reply', { contact_id: contactId })),
    );

    assert.equal(model.chats().length - chatsBefore, 3, 'the model was asked three times');
    assert.deepEqual(
      burst.map((r) => r.status).sort(),
      [...Array<number>(3).fill(200), ...Array<number>(9).fill(429)],
      burst.map((r) => r.text).join('\n'),
    );
    for (const refused of burst.filter((r) => r.status === 429)) {
      assert.equal(refused.body.code, 'ai_budget_exhausted');
      assert.ok(refused.headers['retry-after'], 'a refusal says when the month ends');
    }
    const after = await first!.action<AiUsage>('get-ai-usage');
    assert.equal(after.body.tokens_used - before.body.tokens_used, reported(answered));
    assert.ok(after.body.tokens_used <= budget, `${after.body.tokens_used} used of ${budget}`);
    const copilot = after.body.purposes.find((p) => p.purpose === 'copilot');
    assert.equal(copilot?.calls, 1 + 3, 'the pilot and the three answered calls');
  });

  test('test-ai-settings › a failed call gives its reservation back; answered calls are settled to what the model counted', async () => {
    const model = await startOpenAiStandIn();
    const through = await workspaceOnEveryProcess(model);
    const [first] = through;
    // A test round trip's worst case is a few dozen tokens: room for two, and not a third, at once.
    const worstCase = chatWorstCase({
      purpose: 'test',
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      maxTokens: 32,
    });
    const budget = 2 * worstCase + 10;
    assert.equal((await first!.action('save-ai-settings', { monthly_token_budget: budget })).status, 200);
    const answered: { promptTokens: number; completionTokens: number }[] = [];
    model.respond = () => {
      const usage = { promptTokens: 12, completionTokens: 1 };
      answered.push(usage);
      return { content: 'OK', usage };
    };

    // More failures in a row than the budget has room for worst cases: none holds any back.
    model.failNext(3);
    for (const [i, process] of [...through].entries()) {
      const failed = await process.action<AiSettingsTest>('test-ai-settings');
      assert.equal(failed.body.problem?.reason, 'model_error', `call ${i}: ${failed.text}`);
    }

    // Answered calls cost what the model counted, not their worst case, so more fit in turn.
    for (const process of [...through, ...through]) {
      const tried = await process.action<AiSettingsTest>('test-ai-settings');
      assert.equal(tried.body.ok, true, tried.text);
    }
    const usage = await first!.action<AiUsage>('get-ai-usage');
    assert.equal(usage.body.tokens_used, reported(answered));
    assert.deepEqual(
      usage.body.purposes.map((p) => [p.purpose, p.calls]),
      [['test', 6]],
    );

    // One token short of a round trip's worst case: refused before the model is asked.
    const tight = usage.body.tokens_used + worstCase - 1;
    assert.equal((await first!.action('save-ai-settings', { monthly_token_budget: tight })).status, 200);
    const received = model.requests.length;
    const refused = await first!.action<AiSettingsTest>('test-ai-settings');
    assert.equal(refused.body.problem?.reason, 'budget_exhausted', refused.text);
    assert.equal(model.requests.length, received);
  });
});
