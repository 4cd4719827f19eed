import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT, runCli, stderrLines } from '../../test/cli.js';
import { extractiveResponder } from '../../test/extractive-responder.js';
import { createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { CHAT_MODEL, STAND_IN_API_KEY, startOpenAiStandIn } from '../../test/openai-stand-in.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { EvalResult, EvalSummary } from './ai-eval.js';

const server = await startServer({ PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true' });
// The model answers from the context Parley sends it, so the figures are what Parley's retrieval earned.
const model = await startOpenAiStandIn();
model.respond = extractiveResponder;
model.latencyMs = 10;

const FLORIST = path.join(REPO_ROOT, 'examples/florist-faq');
const QUESTIONS = path.join(FLORIST, 'questions.json');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-eval-'));

interface EvalRun {
  name: string | null;
  model: string;
  questions: EvalResult[];
  summary: EvalSummary;
}

/** A workspace whose model is the stand-in (prices set), with the florist's knowledge uploaded through the API. */
async function florist(): Promise<TestWorkspace> {
  const ws = await createWorkspace(server);
  const saved = await ws.action('save-ai-settings', {
    enabled: true,
    base_url: model.url,
    model: CHAT_MODEL,
    api_key: STAND_IN_API_KEY,
    input_price_per_million: 0.4,
    output_price_per_million: 1.6,
  });
  assert.equal(saved.status, 200, saved.text);
  const data = fs.readFileSync(path.join(FLORIST, 'knowledge.md')).toString('base64');
  const uploaded = await ws.action('create-knowledge-document', { file: { name: 'knowledge.md', data } });
  assert.equal(uploaded.status, 200, uploaded.text);
  return ws;
}

function writeFile(name: string, content: string): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, content);
  return file;
}

describe(`parley ai eval (${ENGINE})`, () => {
  test('ai eval › the florist’s questions through the assistant’s decision: replies scored by their facts, hand-overs, latency and tokens; nothing sent', async () => {
    const ws = await florist();
    const chatsBefore = model.chats().length;
    const result = await runCli(server, 'ai', 'eval', '--workspace', ws.workspaceId, QUESTIONS, '--json');
    assert.equal(result.code, 0, result.stderr);
    const run = JSON.parse(result.stdout) as EvalRun;
    const expected = JSON.parse(fs.readFileSync(QUESTIONS, 'utf8')) as { questions: { question: string }[] };
    assert.deepEqual(
      run.questions.map((q) => q.question),
      expected.questions.map((q) => q.question),
    );
    assert.equal(run.model, CHAT_MODEL);

    const byQuestion = new Map(run.questions.map((q) => [q.question, q]));
    const sunday = byQuestion.get('What time do you open on Sunday?')!;
    assert.equal(sunday.outcome, 'reply');
    assert.match(sunday.reply!, /Sunday from 10:00 to 14:00/, 'the knowledge’s own sentence');
    assert.deepEqual([sunday.facts_found, sunday.facts_missing, sunday.correct], [['10:00', '14:00'], [], true]);
    assert.equal(sunday.citations, 1);
    assert.ok(sunday.model_ms! >= 10 && sunday.latency_ms >= sunday.model_ms!, JSON.stringify(sunday));
    const human = byQuestion.get('I want to talk to a human please')!;
    assert.deepEqual(
      [human.outcome, human.reason, human.correct, human.model_ms],
      ['hand_over', 'stop_word', true, null],
    );
    const wilted = byQuestion.get('My flowers arrived wilted yesterday, I want my money back.')!;
    assert.deepEqual([wilted.expected, wilted.outcome, wilted.correct], ['hand_over', 'hand_over', true]);

    // Every question scored by the one rule: a hand-over when one is expected, else a reply with every fact.
    for (const q of run.questions) {
      const right =
        q.expected === 'hand_over'
          ? q.outcome === 'hand_over'
          : q.outcome !== 'hand_over' && q.facts_missing.length === 0;
      assert.equal(q.correct, right, q.question);
    }
    const { summary } = run;
    const correct = run.questions.filter((q) => q.correct).length;
    assert.deepEqual([summary.questions, summary.correct], [16, correct]);
    assert.equal(summary.accuracy, Math.round((correct / 16) * 1000) / 1000);
    assert.ok(correct >= 10, `the extractive reader answers most: ${correct}/16`);
    const handedOver = run.questions.filter((q) => q.outcome === 'hand_over');
    assert.deepEqual(summary.hand_overs, {
      total: handedOver.length,
      rate: Math.round((handedOver.length / 16) * 1000) / 1000,
      right: handedOver.filter((q) => q.expected === 'hand_over').length,
      wrong: handedOver.filter((q) => q.expected === 'reply').length,
      missed: run.questions.filter((q) => q.expected === 'hand_over' && q.outcome !== 'hand_over').length,
    });
    assert.ok(summary.latency_ms.p50! <= summary.latency_ms.p99!);
    assert.ok(summary.model_ms.p50! >= 10);

    // The model was asked once per question but the stop word's; the tokens are the ledger's `eval` purpose.
    assert.equal(model.chats().length - chatsBefore, 15);
    const prompt = run.questions.reduce((sum, q) => sum + q.prompt_tokens, 0);
    const completion = run.questions.reduce((sum, q) => sum + q.completion_tokens, 0);
    assert.deepEqual(summary.tokens, { prompt, completion });
    assert.equal(summary.cost, (prompt * 0.4 + completion * 1.6) / 1_000_000);
    const usage = await ws.action<{
      purposes: { purpose: string; prompt_tokens: number; completion_tokens: number }[];
    }>('get-ai-usage');
    const evalUsage = usage.body.purposes.find((p) => p.purpose === 'eval');
    assert.deepEqual([evalUsage?.prompt_tokens, evalUsage?.completion_tokens], [prompt, completion]);

    // Nothing reached anyone: no contact, no message.
    const contacts = await ws.action<unknown[]>('search-contacts', { query: '' });
    assert.deepEqual(contacts.body, []);

    // For people: each question with its mark, then the summary.
    const text = await runCli(server, 'ai', 'eval', '--workspace', ws.workspaceId, QUESTIONS);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^1\. PASS {2}What time do you open on Sunday\?\n {3}replied: .*10:00 to 14:00/);
    assert.match(text.stdout, /\n\s+handed over \(stop_word\)\n/);
    assert.match(text.stdout, new RegExp(`\\nAccuracy: ${correct}/16 \\(`));
    assert.match(
      text.stdout,
      /\nHand-overs: \d+ \(\d+%\): \d+ right, \d+ wrong \(an answer was expected\), \d+ missed\n/,
    );
    assert.match(text.stdout, /\nLatency: p50 \d+ ms, p99 \d+ ms/);
  });

  test('ai eval › a bad file or no model exits non-zero with one line naming the problem', async () => {
    const ws = await florist();
    const cases: [string, RegExp][] = [
      [writeFile('not-json.json', '{ "questions": ['), /is not valid JSON/],
      [writeFile('empty.json', '{ "questions": [] }'), /\/questions/],
      [
        writeFile('no-facts.json', '{ "questions": [{ "question": "Open on Sunday?" }] }'),
        /\/questions\/0: give the facts/,
      ],
      [
        writeFile('both.json', '{ "questions": [{ "question": "Refund?", "facts": ["no"], "hand_over": true }] }'),
        /\/questions\/0: give facts or hand_over: true, not both/,
      ],
      [writeFile('typo.json', '{ "questions": [{ "question": "Open?", "fact": ["9:00"] }] }'), /\/questions\/0/],
      [path.join(scratch, 'missing.json'), /cannot be read/],
    ];
    for (const [file, problem] of cases) {
      const result = await runCli(server, 'ai', 'eval', '--workspace', ws.workspaceId, file, '--json');
      assert.equal(result.code, 1, file);
      assert.equal(result.stdout, '', file);
      const lines = stderrLines(result);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, problem);
    }

    const modelless = await createWorkspace(server);
    const off = await runCli(server, 'ai', 'eval', '--workspace', modelless.workspaceId, QUESTIONS);
    assert.equal(off.code, 1);
    assert.match(stderrLines(off)[0]!, /no AI model is switched on/);

    // A model that fails every question is no model either.
    const failing = writeFile('one.json', '{ "questions": [{ "question": "Open on Sunday?", "facts": ["10:00"] }] }');
    model.failNext(1);
    const failed = await runCli(server, 'ai', 'eval', '--workspace', ws.workspaceId, failing);
    assert.equal(failed.code, 1);
    assert.match(stderrLines(failed)[0]!, /the model answered none of the questions \(model_error\)/);

    const usage = await runCli(server, 'ai', 'eval', QUESTIONS);
    assert.equal(usage.code, 2);
  });
});
