import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bookingFlowJson } from './whatsapp-flow.fixtures.js';
import { fieldLabelsOf, labelledFields } from './answer-fields.js';
import { signUpFlowJson } from '../whatsapp/webhook.flow-answer-fixtures.js';

describe('the labels of a WhatsApp Flow’s answer fields', () => {
  test('come from the components the complete payload refers to, on its screen or an earlier one', () => {
    assert.deepEqual(fieldLabelsOf(signUpFlowJson()), [
      { name: 'full_name', label: 'Your name' },
      { name: 'birthday', label: 'Birthday' },
      { name: 'interests', label: 'What do you like?' },
      { name: 'newsletter', label: 'Send me the newsletter' },
      { name: 'source', label: 'source' },
    ]);
  });

  test('a payload key named otherwise than its component takes that component’s label', () => {
    const flow = JSON.parse(signUpFlowJson()) as { screens: { layout: { children: Record<string, unknown>[] } }[] };
    const footer = flow.screens[1]!.layout.children[1]!;
    footer['on-click-action'] = { name: 'complete', payload: { guest: '${screen.DETAILS.form.full_name}' } };
    assert.deepEqual(fieldLabelsOf(JSON.stringify(flow)), [{ name: 'guest', label: 'Your name' }]);
  });

  test('without a complete payload, the input components are the fields; no Flow JSON, none', () => {
    assert.deepEqual(
      fieldLabelsOf(bookingFlowJson()).map((field) => field.name),
      ['name', 'day', 'seats', 'reminders'],
    );
    assert.deepEqual(fieldLabelsOf(null), []);
    assert.deepEqual(fieldLabelsOf('not json'), []);
  });

  test('an answer’s fields: the labelled ones in the form’s order, then the others by name', () => {
    const labels = [
      { name: 'a', label: 'First' },
      { name: 'b', label: 'Second' },
    ];
    assert.deepEqual(labelledFields(labels, { extra: 1, b: ['x'], a: 'y' }), [
      { name: 'a', label: 'First', value: 'y' },
      { name: 'b', label: 'Second', value: ['x'] },
      { name: 'extra', label: 'extra', value: 1 },
    ]);
  });
});
