import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { phoneOfWaId } from './inbound-senders.js';

describe('phoneOfWaId', () => {
  test("Mexico's 521 mobile form is the +52 number Meta documents it stands for", () => {
    assert.equal(phoneOfWaId('5214428968441'), '+524428968441');
    assert.equal(phoneOfWaId('524428968441'), '+524428968441');
  });

  test('a valid wa_id is its E.164 number; Argentina keeps its mobile 9', () => {
    assert.equal(phoneOfWaId('16505551234'), '+16505551234');
    assert.equal(phoneOfWaId('5491123456789'), '+5491123456789');
  });

  test('a wa_id that is no valid number gives null (the sender is then kept under the raw id)', () => {
    assert.equal(phoneOfWaId('123456'), null);
    assert.equal(phoneOfWaId('22501234567'), null);
  });
});
