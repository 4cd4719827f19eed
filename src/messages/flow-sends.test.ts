import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { flowAnswerOf } from './flow-sends.js';

// Meta's "Flow response message webhook" (WhatsApp Flows > Receive Flow response): a completed Flow arrives as
// an interactive nfm_reply whose response_json is a string holding the flow_token and the Flow's fields.
const nfmReply = (responseJson: string) => ({
  nfm_reply: { name: 'flow', body: 'Sent', response_json: responseJson },
});

describe('a completed WhatsApp Flow read from its message', () => {
  test('gives the send token and the fields without it', () => {
    const content = nfmReply('{"flow_token": "AQAAAAACS5FpgQ_cAAAAAD0QI3s.", "optional_param1": "<value1>", "n": 2}');
    assert.deepEqual(flowAnswerOf('interactive', content), {
      flowToken: 'AQAAAAACS5FpgQ_cAAAAAD0QI3s.',
      fields: { optional_param1: '<value1>', n: 2 },
    });
  });

  test('a Flow answered without a token still gives its fields', () => {
    assert.deepEqual(flowAnswerOf('interactive', nfmReply('{"rating": "5"}')), {
      flowToken: null,
      fields: { rating: '5' },
    });
  });

  test('is not read from a button reply, a text, an address message, or a response_json that is not a JSON object', () => {
    assert.equal(flowAnswerOf('interactive', { button_reply: { id: 'yes', title: 'Yes' } }), null);
    assert.equal(flowAnswerOf('text', { body: '{"flow_token":"x"}' }), null);
    assert.equal(flowAnswerOf('interactive', nfmReply('not json')), null);
    assert.equal(flowAnswerOf('interactive', nfmReply('[1,2]')), null);
    const address = { nfm_reply: { name: 'address_message', body: 'Address', response_json: '{"values":{}}' } };
    assert.equal(flowAnswerOf('interactive', address), null, "Meta's address message is not a Flow's answer");
  });
});
