import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentionedIn } from './mentions.js';

const ana = { id: 'ana', name: 'Ana Lima', email: 'ana@example.com' };
const anabel = { id: 'anabel', name: 'Anabel', email: 'bel@example.com' };
const bruno = { id: 'bruno', name: '', email: 'bruno.s@example.com' };
const members = [ana, anabel, bruno];

test('mentions › a name, in any case, or an email local part', () => {
  assert.deepEqual(mentionedIn('@ana lima can you call?', members), ['ana']);
  assert.deepEqual(mentionedIn('ask @ANA', members), ['ana']);
  assert.deepEqual(mentionedIn('cc @bruno.s, thanks', members), ['bruno']);
});

test('mentions › the longest handle wins and a longer word is someone else', () => {
  assert.deepEqual(mentionedIn('@Anabel please', members), ['anabel']);
  assert.deepEqual(mentionedIn('@anastasia', members), []);
});

test('mentions › an email address in the note mentions nobody; each person once', () => {
  assert.deepEqual(mentionedIn('wrote to carlos@ana.com', members), []);
  assert.deepEqual(mentionedIn('@ana and again @Ana Lima', members).sort(), ['ana']);
  assert.deepEqual(mentionedIn('(@bel) and @ana.', members).sort(), ['ana', 'anabel']);
});
