import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, test } from 'node:test';
import { decryptFlowRequest } from './flows-endpoint.crypto.js';
import { encryptFlowRequest, HEALTH_CHECK_REQUEST, HEALTH_CHECK_RESPONSE } from './flows-endpoint.fixtures.js';

/** A test key pair, as a business makes one for Meta (RSA 2048). */
const keyPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const { publicKey, privateKey } = keyPair();
const raw = (body: object) => Buffer.from(JSON.stringify(body));

describe("WhatsApp Flows' request encryption", () => {
  test("decryptFlowRequest › reads Meta's health check encrypted as Meta documents, and its answer decrypts under the flipped IV", () => {
    const sent = encryptFlowRequest(publicKey, HEALTH_CHECK_REQUEST);
    const decrypted = decryptFlowRequest(raw(sent.body), privateKey);
    assert.deepEqual(decrypted?.request, HEALTH_CHECK_REQUEST);
    assert.deepEqual(sent.decryptAnswer(decrypted.encryptAnswer(HEALTH_CHECK_RESPONSE)), HEALTH_CHECK_RESPONSE);
  });

  test('decryptFlowRequest › refuses another key, a changed byte, a short IV and a body that is not Meta’s', () => {
    const sent = encryptFlowRequest(publicKey, HEALTH_CHECK_REQUEST);
    assert.equal(decryptFlowRequest(raw(sent.body), keyPair().privateKey), null, 'encrypted to another key');
    const data = Buffer.from(sent.body.encrypted_flow_data, 'base64');
    data[0]! ^= 1;
    const tampered = { ...sent.body, encrypted_flow_data: data.toString('base64') };
    assert.equal(decryptFlowRequest(raw(tampered), privateKey), null, 'the tag no longer matches');
    const shortIv = { ...sent.body, initial_vector: Buffer.alloc(12).toString('base64') };
    assert.equal(decryptFlowRequest(raw(shortIv), privateKey), null, 'Meta’s IV is 128 bits');
    assert.equal(decryptFlowRequest(Buffer.from('not json'), privateKey), null);
    assert.equal(decryptFlowRequest(raw({ encrypted_flow_data: 1 }), privateKey), null);
  });

  test('decryptFlowRequest › each answer is encrypted under its own request’s key, not another’s', () => {
    const first = encryptFlowRequest(publicKey, HEALTH_CHECK_REQUEST);
    const second = encryptFlowRequest(publicKey, HEALTH_CHECK_REQUEST);
    const answer = decryptFlowRequest(raw(first.body), privateKey)!.encryptAnswer(HEALTH_CHECK_RESPONSE);
    assert.throws(() => second.decryptAnswer(answer));
  });
});
