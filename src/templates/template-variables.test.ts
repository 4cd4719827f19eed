import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { variableSlots, type TranslationParts } from './template-variables.js';

const parts = (fields: Partial<TranslationParts>): TranslationParts => ({
  body: '',
  header_type: null,
  header_content: null,
  buttons: [],
  parameter_format: 'POSITIONAL',
  other_components: [],
  ...fields,
});
const ids = (fields: Partial<TranslationParts>) => variableSlots(parts(fields)).map((slot) => slot.id);

describe('variableSlots', () => {
  test('body, then header, then the offer, then buttons in template order', () => {
    assert.deepEqual(
      ids({
        body: '{{2}} {{1}}',
        header_type: 'TEXT',
        header_content: 'Hi {{1}}',
        other_components: [{ type: 'LIMITED_TIME_OFFER', limited_time_offer: { has_expiration: true } }],
        buttons: [
          { type: 'COPY_CODE', text: 'Copy offer code' },
          { type: 'QUICK_REPLY', text: 'Stop' },
          { type: 'URL', text: 'Go', url: 'https://x.test/{{1}}' },
        ],
      }),
      ['1', '2', 'header_1', 'offer_expiration_time_ms', 'button_0_coupon_code', 'button_2_1'],
    );
  });

  test('a NAMED template names body and header variables; its URL button keeps Meta’s {{1}}', () => {
    assert.deepEqual(
      ids({
        parameter_format: 'NAMED',
        body: '{{first_name}} {{order}} {{first_name}}',
        header_type: 'TEXT',
        header_content: '{{order}}',
        buttons: [{ type: 'URL', text: 'Go', url: 'https://x.test/{{1}}' }],
      }),
      ['first_name', 'order', 'header_order', 'button_0_1'],
    );
  });

  test('no variable of its own for an OTP button, a media header, a static URL or an offer that never expires', () => {
    assert.deepEqual(
      ids({
        body: '*{{1}}* is your verification code.',
        header_type: 'IMAGE',
        header_content: 'https://cdn.test/a.jpg',
        other_components: [{ type: 'LIMITED_TIME_OFFER', limited_time_offer: { has_expiration: false } }],
        buttons: [
          { type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' },
          { type: 'URL', text: 'Site', url: 'https://x.test/' },
        ],
      }),
      ['1'],
    );
  });
});
