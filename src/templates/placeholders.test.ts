import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractPlaceholders, fillPlaceholders } from './placeholders.js';

describe('extractPlaceholders', () => {
  test('lists each placeholder number once, ascending, whatever order the body uses', () => {
    assert.deepEqual(extractPlaceholders('{{2}} {{1}} {{2}}'), ['1', '2']);
    assert.deepEqual(extractPlaceholders('Hi {{1}}, your order {{2}} has shipped.'), ['1', '2']);
  });

  test('sorts numerically, not as text: 10 comes after 9', () => {
    const body = Array.from({ length: 11 }, (_, i) => `{{${11 - i}}}`).join(' ');
    assert.deepEqual(extractPlaceholders(body), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
  });

  test('a body without placeholders expects no variables', () => {
    assert.deepEqual(extractPlaceholders('Thanks for your order!'), []);
    assert.deepEqual(extractPlaceholders(''), []);
  });

  test('ignores braces that are not a numbered placeholder', () => {
    assert.deepEqual(extractPlaceholders('{{name}} {1} {{}} {{1a}} {{-1}} {{ 2 x}}'), []);
    assert.deepEqual(extractPlaceholders('{{{3}}}'), ['3'], 'extra braces around a placeholder still count');
  });

  test('tolerates spaces inside the braces and leading zeros: {{ 1 }} and {{01}} are {{1}}', () => {
    assert.deepEqual(extractPlaceholders('{{ 1 }} {{01}} {{1}} {{ 2}}'), ['1', '2']);
  });

  test('keeps a long number exact instead of rounding it', () => {
    assert.deepEqual(extractPlaceholders('{{12345678901234567890}} {{3}}'), ['3', '12345678901234567890']);
  });

  test('gaps are kept as written: {{1}} and {{3}} expect 1 and 3', () => {
    assert.deepEqual(extractPlaceholders('{{3}} then {{1}}'), ['1', '3']);
  });

  test('reads placeholders across lines and WhatsApp markup', () => {
    assert.deepEqual(extractPlaceholders('*Order {{2}}*\n_for {{1}}_\n~{{4}}~'), ['1', '2', '4']);
  });
});

describe('extractPlaceholders › NAMED', () => {
  test('lists names once, in order of first appearance; numbers are not names', () => {
    assert.deepEqual(extractPlaceholders('{{order_id}} for {{first_name}}, {{order_id}} {{1}}', 'NAMED'), [
      'order_id',
      'first_name',
    ]);
    assert.deepEqual(extractPlaceholders('{{ first_name }} {{Name}} {{a-b}}', 'NAMED'), ['first_name']);
  });
});

describe('fillPlaceholders', () => {
  test('replaces every occurrence, numbered or named, and leaves unknown ones as written', () => {
    const numbered = new Map([['1', 'Ada']]);
    assert.equal(fillPlaceholders('Hi {{1}}, {{ 01 }} and {{2}}', 'POSITIONAL', numbered), 'Hi Ada, Ada and {{2}}');
    const named = new Map([['first_name', 'Ada']]);
    assert.equal(fillPlaceholders('Hi {{first_name}} {{x}}', 'NAMED', named), 'Hi Ada {{x}}');
  });
});
