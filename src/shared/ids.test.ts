import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createIdGenerator } from './ids.js';

test('ids are RFC 9562 UUIDv7s, unique and strictly increasing, many within one millisecond', () => {
  const frozen = new Date('2026-11-26T08:00:00Z');
  const newId = createIdGenerator({ now: () => frozen });
  const ids = Array.from({ length: 50_000 }, newId);
  assert.ok(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)));
  assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]!));
  assert.equal(ids[0]!.replace(/-/g, '').slice(0, 12), frozen.getTime().toString(16).padStart(12, '0'));
});
