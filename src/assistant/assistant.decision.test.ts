import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { unsupportedClaims } from './assistant.claims.js';
import { judge, parseDecision, type Decision } from './assistant.decision.js';
import { stopWordIn } from './assistant.guards.js';
import type { Citation } from './assistant.schema.js';

const chunk = (id: string, text: string): Citation => ({
  chunk_id: id,
  source_id: 's1',
  source: 'FAQ',
  heading: null,
  text,
});
const given = new Map([
  ['c1', chunk('c1', 'A dozen red roses costs $45.00. Delivery takes 2 business days.')],
  ['c2', chunk('c2', 'We are open Monday to Friday, 9:00 to 17:30. Refunds within 14 days.')],
]);

const decision = (fields: Partial<Decision>): Decision => ({
  action: 'reply',
  reply: 'Hello!',
  confidence: 0.9,
  citations: [],
  hand_over: null,
  tags: [],
  attributes: [],
  ...fields,
});

describe('assistant decision', () => {
  test('claims › a figure or a day the cited text states passes; one it does not is caught', () => {
    const cited = [given.get('c1')!.text, given.get('c2')!.text];
    assert.deepEqual(unsupportedClaims('A dozen roses is $45, delivered in 2 business days.', cited), []);
    assert.deepEqual(unsupportedClaims('Una docena cuesta 45,00 $.', cited), [], 'decimal comma, zero cents');
    assert.deepEqual(unsupportedClaims('We open Monday at 9:00.', cited), []);
    assert.deepEqual(unsupportedClaims('It is $40 today, with 10% off.', cited), ['40', '10']);
    assert.deepEqual(unsupportedClaims('It arrives tomorrow.', cited), ['tomorrow']);
    assert.deepEqual(unsupportedClaims('Llega el sábado 3 de mayo.', cited), ['3', 'sabado', 'mayo']);
    assert.deepEqual(
      unsupportedClaims('You may return it, how can I help today?', []),
      [],
      'neither "may" nor "today"',
    );
  });

  test('stop words › whole words, any case or accent, the workspace’s own too', () => {
    assert.equal(stopWordIn('Can I talk to a HUMAN please?', []), 'human');
    assert.equal(stopWordIn('¡Quiero un humano!', []), 'humano');
    assert.equal(stopWordIn('Preciso de um atendente', []), 'atendente');
    assert.equal(stopWordIn('Is there an agency near me?', []), null, 'agency is not agent');
    assert.equal(stopWordIn('Put me through to your Manager', ['manager']), 'manager');
    assert.equal(stopWordIn('What are your opening hours?', ['manager']), null);
  });

  test('parse › the structured output as a decision; anything else is none', () => {
    const parsed = parseDecision({
      action: 'reply',
      reply: 'Yes',
      confidence: 0.8,
      citations: ['c1'],
      hand_over: null,
      tags: ['roses', 3],
      attributes: [{ name: 'order', value: '12' }, { name: 1 }],
    });
    assert.deepEqual(parsed?.tags, ['roses']);
    assert.deepEqual(parsed?.attributes, [{ name: 'order', value: '12' }]);
    assert.equal(parseDecision({ action: 'sing', reply: 'la', confidence: 1, citations: [], hand_over: null }), null);
    assert.equal(
      parseDecision({ action: 'reply', reply: 'x', confidence: '0.9', citations: [], hand_over: null }),
      null,
    );
    assert.equal(parseDecision('{"action":"reply"}'), null);
  });

  test('judge › a backed reply is sent with its citations; each broken rule hands over with its reason', () => {
    const backed = judge(decision({ reply: 'Roses are $45.', citations: ['c1', 'c1'] }), given, 0.6);
    assert.equal(backed.action, 'reply');
    assert.deepEqual(backed.action === 'reply' && backed.citations.map((c) => c.chunk_id), ['c1']);

    const reasonOf = (d: Decision, floor = 0.6) => {
      const verdict = judge(d, given, floor);
      return verdict.action === 'hand_over' ? verdict.reason : verdict.action;
    };
    assert.equal(reasonOf(decision({ reply: 'Roses are $39.', citations: ['c1'] })), 'unsupported_claim');
    assert.equal(reasonOf(decision({ reply: 'Roses are $45.', citations: [] })), 'unsupported_claim', 'uncited');
    assert.equal(reasonOf(decision({ citations: ['c9'] })), 'unknown_citation');
    assert.equal(reasonOf(decision({ confidence: 0.59 })), 'low_confidence');
    assert.equal(reasonOf(decision({ confidence: 0.6 })), 'reply', 'the floor itself passes');
    assert.equal(reasonOf(decision({ reply: '  ' })), 'invalid_decision');
    assert.equal(reasonOf(decision({ action: 'close', reply: null })), 'close');
    const handOver = judge(
      decision({ action: 'hand_over', reply: null, hand_over: { reason: 'angry', summary: ' Wants a refund. ' } }),
      given,
      0.6,
    );
    assert.deepEqual(handOver, { action: 'hand_over', reason: 'model_decided', summary: 'Wants a refund.' });
  });

  test('judge › tags and attributes are kept within bounds', () => {
    const verdict = judge(
      decision({
        tags: [' roses ', 'roses', '', 'x'.repeat(65)],
        attributes: [
          { name: 'order_number', value: 'A-1' },
          { name: 'bad name', value: 'x' },
        ],
      }),
      given,
      0.6,
    );
    assert.ok(verdict.action === 'reply');
    assert.deepEqual(verdict.tags, ['roses']);
    assert.deepEqual(verdict.attributes, [{ name: 'order_number', value: 'A-1' }]);
  });
});
