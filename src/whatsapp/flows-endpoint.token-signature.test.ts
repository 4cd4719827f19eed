import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flowTokenSignature } from './flows-endpoint.fixtures.js';
import { flowTokenSignatureHolds } from './flows-endpoint.token-signature.js';

const SECRET = 'app-secret';
const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

test('flowTokenSignatureHolds › a request of an older data_api_version (no signature) holds; a signed one holds under the app secret only', () => {
  assert.equal(flowTokenSignatureHolds({ flow_token: 't' }, SECRET), true);
  const request = { flow_token: 't', flow_token_signature: flowTokenSignature('t', SECRET) };
  assert.equal(flowTokenSignatureHolds(request, SECRET), true);
  assert.equal(flowTokenSignatureHolds(request, 'another-secret'), false);
  assert.equal(flowTokenSignatureHolds(request, null), false, 'without the app secret nothing can be checked');
});

test('flowTokenSignatureHolds › an unsigned JWT (alg none), one for another token, or one that is not a JWT fails', () => {
  const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part({ flow_token: 't' })}.`;
  assert.equal(flowTokenSignatureHolds({ flow_token: 't', flow_token_signature: unsigned }, SECRET), false);
  const other = flowTokenSignature('u', SECRET);
  assert.equal(flowTokenSignatureHolds({ flow_token: 't', flow_token_signature: other }, SECRET), false);
  for (const signature of ['', 'a.b', 'a.b.c.d', 42]) {
    assert.equal(flowTokenSignatureHolds({ flow_token: 't', flow_token_signature: signature }, SECRET), false);
  }
});
