import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Decided } from '../assistant/index.js';
import { percentile, questionProblem, scoreQuestion } from './ai-eval.js';

const usage = { promptTokens: 100, completionTokens: 10 };
const replied = (text: string): Decided => ({
  verdict: { action: 'reply', text, citations: [], tags: [], attributes: [] },
  decision: null,
  model: 'm',
  usage,
  modelMs: 40,
});
const handedOver: Decided = {
  verdict: { action: 'hand_over', reason: 'low_confidence', summary: null },
  decision: null,
  model: 'm',
  usage,
  modelMs: 40,
};

describe('parley ai eval scoring', () => {
  test('a reply passes when every fact is in it, case and accents aside; a hand-over passes only when expected', () => {
    const question = { question: '¿Hacen entregas el mismo día?', facts: ['12:00', 'Mismo DIA'] };
    const right = scoreQuestion(question, replied('Sí: pedidos antes de las 12:00 llegan el mismo día.'), 55.4);
    assert.deepEqual(
      [right.correct, right.facts_found, right.facts_missing, right.latency_ms],
      [true, ['12:00', 'Mismo DIA'], [], 55],
    );
    const half = scoreQuestion(question, replied('Llegan el mismo día.'), 10);
    assert.deepEqual([half.correct, half.facts_missing], [false, ['12:00']]);
    const wrongHandOver = scoreQuestion(question, handedOver, 10);
    assert.deepEqual(
      [wrongHandOver.correct, wrongHandOver.reason, wrongHandOver.reply],
      [false, 'low_confidence', null],
    );
    const refund = { question: 'I want my money back', hand_over: true };
    assert.equal(scoreQuestion(refund, handedOver, 10).correct, true);
    assert.equal(scoreQuestion(refund, replied('Sure, refunded.'), 10).correct, false);
  });

  test('a question needs facts or a hand-over, not both; percentiles are by nearest rank', () => {
    assert.equal(questionProblem({ question: 'Open?', facts: ['9:00'] }), null);
    assert.equal(questionProblem({ question: 'Refund?', hand_over: true }), null);
    assert.match(questionProblem({ question: 'Open?' })!, /give the facts/);
    assert.match(questionProblem({ question: 'Open?', facts: [] })!, /give the facts/);
    assert.match(questionProblem({ question: 'Open?', facts: ['9:00'], hand_over: true })!, /not both/);
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.deepEqual([percentile(values, 0.5), percentile(values, 0.99), percentile([7], 0.99)], [50, 99, 7]);
    assert.equal(percentile([], 0.5), null);
  });
});
