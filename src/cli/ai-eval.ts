import { Type, type Static } from '@sinclair/typebox';
import { tokenCost } from '../ai-models/index.js';
import type { Decided } from '../assistant/index.js';
import type { Services } from '../services.js';
import type { Caller } from '../shared/context.js';
import { errors } from '../shared/errors.js';

/**
 * The questions file of `parley ai eval` (examples/florist-faq/questions.json): questions a business's
 * customers ask, each with the facts a right answer states, or `hand_over` when a person should answer.
 */
export const EvalFile = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    knowledge: Type.Optional(
      Type.Array(Type.String({ maxLength: 500 }), {
        maxItems: 100,
        description: 'The documents the questions are answered from (upload them to the workspace first)',
      }),
    ),
    questions: Type.Array(
      Type.Object(
        {
          question: Type.String({ minLength: 1, maxLength: 4096 }),
          facts: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 })),
          hand_over: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);
export type EvalFile = Static<typeof EvalFile>;
export type EvalQuestion = EvalFile['questions'][number];

/** A question held to the rule the schema cannot say: facts to find, or a hand-over, not both. */
export function questionProblem(question: EvalQuestion): string | null {
  const facts = question.facts?.length ?? 0;
  if (question.hand_over === true && facts > 0) return 'give facts or hand_over: true, not both';
  if (question.hand_over !== true && facts === 0) return 'give the facts a right answer states, or hand_over: true';
  return null;
}

/** One question as the assistant answered it, and how it scored. */
export interface EvalResult {
  question: string;
  expected: 'reply' | 'hand_over';
  outcome: 'reply' | 'close' | 'hand_over';
  /** Why it handed over (the assistant's hand-over reasons); null when it answered. */
  reason: string | null;
  reply: string | null;
  facts_found: string[];
  facts_missing: string[];
  correct: boolean;
  /** The whole decision's time (the knowledge search, the model, the checks), and the model's part of it. */
  latency_ms: number;
  model_ms: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  citations: number;
}

/** Case and accents aside: "LISBOA" holds "lisboa", "día" holds "dia". */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Scores the assistant's decision on one question: a right hand-over, or a reply stating every fact. */
export function scoreQuestion(question: EvalQuestion, decided: Decided, latencyMs: number): EvalResult {
  const { verdict } = decided;
  const reply = verdict.action === 'hand_over' ? null : verdict.text;
  const expected = question.hand_over === true ? 'hand_over' : 'reply';
  const facts = question.facts ?? [];
  const said = folded(reply ?? '');
  const found = facts.filter((fact) => said.includes(folded(fact)));
  const answered = verdict.action !== 'hand_over' && reply !== null;
  return {
    question: question.question,
    expected,
    outcome: verdict.action,
    reason: verdict.action === 'hand_over' ? verdict.reason : null,
    reply,
    facts_found: found,
    facts_missing: facts.filter((fact) => !found.includes(fact)),
    correct: expected === 'hand_over' ? verdict.action === 'hand_over' : answered && found.length === facts.length,
    latency_ms: Math.round(latencyMs),
    model_ms: decided.modelMs === null ? null : Math.round(decided.modelMs),
    prompt_tokens: decided.usage.promptTokens,
    completion_tokens: decided.usage.completionTokens,
    citations: verdict.action === 'hand_over' ? 0 : verdict.citations.length,
  };
}

/** Nearest-rank percentile (`p` from 0 to 1) of the values; null for none. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000);

/** The run's figures: accuracy, hand-overs (right, wrong, missed), latency, tokens and their cost. */
export function summarise(
  results: EvalResult[],
  cost: (tokens: { promptTokens: number; completionTokens: number }) => number | null,
) {
  const correct = results.filter((result) => result.correct).length;
  const handedOver = results.filter((result) => result.outcome === 'hand_over');
  const latencies = results.map((result) => result.latency_ms);
  const modelTimes = results.flatMap((result) => (result.model_ms === null ? [] : [result.model_ms]));
  const tokens = {
    promptTokens: results.reduce((sum, result) => sum + result.prompt_tokens, 0),
    completionTokens: results.reduce((sum, result) => sum + result.completion_tokens, 0),
  };
  return {
    questions: results.length,
    correct,
    accuracy: share(correct, results.length),
    hand_overs: {
      total: handedOver.length,
      rate: share(handedOver.length, results.length),
      right: handedOver.filter((result) => result.expected === 'hand_over').length,
      wrong: handedOver.filter((result) => result.expected === 'reply').length,
      missed: results.filter((result) => result.expected === 'hand_over' && result.outcome !== 'hand_over').length,
    },
    latency_ms: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
    model_ms: { p50: percentile(modelTimes, 0.5), p99: percentile(modelTimes, 0.99) },
    tokens: { prompt: tokens.promptTokens, completion: tokens.completionTokens },
    cost: cost(tokens),
  };
}
export type EvalSummary = ReturnType<typeof summarise>;

const mark = (result: EvalResult) => (result.correct ? 'PASS' : 'FAIL');

/** One question's lines for people: its mark and question, then what the assistant did and the facts. */
function questionLines(result: EvalResult, index: number): string[] {
  const did =
    result.outcome === 'hand_over'
      ? `handed over (${result.reason})${result.expected === 'hand_over' ? '' : ' — an answer was expected'}`
      : `replied: ${result.reply}`;
  const facts =
    result.expected === 'hand_over'
      ? 'expected: a hand-over'
      : `facts found: ${result.facts_found.join(', ') || 'none'}; missing: ${result.facts_missing.join(', ') || 'none'}`;
  return [`${index + 1}. ${mark(result)}  ${result.question}`, `   ${did}`, `   ${facts}; ${result.latency_ms} ms`];
}

const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

/** The run as text for people: each question, then the summary. */
export function evalText(model: string | null, results: EvalResult[], summary: EvalSummary): string {
  const { hand_overs: handOvers } = summary;
  const lines = [
    ...results.flatMap(questionLines),
    '',
    `Model: ${model ?? 'unknown'}`,
    `Accuracy: ${summary.correct}/${summary.questions} (${Math.round(summary.accuracy * 100)}%)`,
    `Hand-overs: ${handOvers.total} (${Math.round(handOvers.rate * 100)}%): ${handOvers.right} right, ${handOvers.wrong} wrong (an answer was expected), ${handOvers.missed} missed`,
    `Latency: p50 ${ms(summary.latency_ms.p50)}, p99 ${ms(summary.latency_ms.p99)} (the model's own: p50 ${ms(summary.model_ms.p50)}, p99 ${ms(summary.model_ms.p99)})`,
    `Tokens: ${summary.tokens.prompt} prompt, ${summary.tokens.completion} completion${summary.cost === null ? '' : `; cost ${summary.cost.toFixed(4)}`}`,
  ];
  return lines.join('\n') + '\n';
}

/** The file's questions, each held to questionProblem: a problem names the question by its place. */
export function checkQuestions(file: EvalFile): EvalFile {
  const problems = file.questions.flatMap((question, index) => {
    const problem = questionProblem(question);
    return problem === null ? [] : [{ field: `/questions/${index}`, message: problem }];
  });
  if (problems.length > 0) throw errors.invalid(...problems.slice(0, 10));
  return file;
}

/** The hand-over reasons that say the model gave no answer at all (not a decision to hand over). */
const NO_ANSWER = new Set(['not_configured', 'model_error', 'timeout', 'rate_limited', 'budget_exhausted']);

/**
 * `parley ai eval`: each question through the assistant's own decision function (the workspace's saved
 * assistant settings, knowledge and model; nothing is sent to anyone, no turn is recorded), one after
 * another so each latency is the question's own. JSON for `--json`; else text, written here.
 */
export async function runEval(services: Services, caller: Caller, file: EvalFile, json: boolean) {
  const settings = await services.aiSettings.get(caller);
  if (!settings.enabled) {
    throw errors.conflict(
      'no AI model is switched on for the workspace: save its base URL, model and API key with enabled: true (Settings → AI model, or save-ai-settings)',
    );
  }
  const results: EvalResult[] = [];
  let model: string | null = null;
  for (const question of file.questions) {
    const started = performance.now();
    const decided = await services.assistant.trial(caller, question.question);
    results.push(scoreQuestion(question, decided, performance.now() - started));
    model ??= decided.model;
  }
  const failed = results.find((result) => result.reason !== null && NO_ANSWER.has(result.reason));
  if (model === null && failed) throw errors.conflict(`the model answered none of the questions (${failed.reason})`);
  const summary = summarise(results, (tokens) => tokenCost(tokens, settings));
  const named = model ?? settings.model;
  if (json) return { name: file.name ?? null, model: named, questions: results, summary };
  process.stdout.write(evalText(named, results, summary));
  return undefined;
}
