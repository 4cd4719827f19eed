import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FirstRowByPhone } from './first-row-by-phone.js';

test('each phone keeps its first row, across the table growing many times over', () => {
  const seen = new FirstRowByPhone();
  const phones = Array.from({ length: 200_000 }, (_, i) => `+1415${String(2_000_000 + i * 37)}`);
  phones.forEach((phone, i) => assert.equal(seen.firstOrNote(phone, i + 2), undefined));
  phones.forEach((phone, i) => assert.equal(seen.firstOrNote(phone, 999_999), i + 2));
  assert.equal(seen.firstOrNote('+123456789012345', 7), undefined, 'fifteen digits');
  assert.equal(seen.firstOrNote('+123456789012346', 8), undefined, 'its neighbour is another phone');
  assert.equal(seen.firstOrNote('+123456789012345', 9), 7);
});
