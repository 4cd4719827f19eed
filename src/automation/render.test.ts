import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { render, type RenderScope } from './render.js';

const scope = (name: string | null, attributes: object = {}): RenderScope => ({
  contact: { name, phone: '+14155550100', email: null, custom_attributes: JSON.stringify(attributes) },
  context: { order: { id: 'A-7' } },
});

describe('render', () => {
  test('fills contact fields, the first name, attributes and context paths', () => {
    assert.equal(
      render(
        '{{contact.first_name}} ({{ contact.name }}, {{contact.phone}}): {{attributes.plan}} {{context.order.id}}',
        scope('Ada Lovelace', { plan: 'Gold' }),
      ),
      'Ada (Ada Lovelace, +14155550100): Gold A-7',
    );
  });

  test('{{answer.FIELD}} reads the latest WhatsApp Flow answer; a field not answered takes the fallback', () => {
    const answered: RenderScope = { ...scope('Ada'), context: { answer: { seats: '4', day: '2025-06-01' } } };
    const text = 'A table for {{answer.seats}} on {{answer.day}}, {{answer.name | "friend"}}.';
    assert.equal(render(text, answered), 'A table for 4 on 2025-06-01, friend.');
    assert.equal(render('{{answer.seats | "some"}} seats', scope('Ada')), 'some seats', 'no answer yet');
  });

  test('an empty value takes the fallback; a present one ignores it', () => {
    const text = 'Hi {{contact.first_name | "there"}}, your plan is {{ attributes.plan | "Basic" }}.';
    assert.equal(render(text, scope(null)), 'Hi there, your plan is Basic.');
    assert.equal(render(text, scope('  ')), 'Hi there, your plan is Basic.');
    assert.equal(render(text, scope('Ada', { plan: 'Gold' })), 'Hi Ada, your plan is Gold.');
  });

  test('without a fallback an empty value leaves no stray space before punctuation', () => {
    assert.equal(render('Hi {{contact.first_name}}, how can we help?', scope(null)), 'Hi, how can we help?');
    assert.equal(render('Thanks {{contact.name}}!', scope(null)), 'Thanks!');
    assert.equal(render('Dear {{contact.name}} and team', scope(null)), 'Dear and team');
    assert.equal(render('{{contact.email}}', scope(null)), '');
  });

  test('anything else stays literal text', () => {
    assert.equal(
      render('{{contact.age}} {{1}} {{contact.name | there}}', scope('Ada')),
      '{{contact.age}} {{1}} {{contact.name | there}}',
    );
  });
});
