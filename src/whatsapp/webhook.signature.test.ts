import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { signBody } from './webhook.fixtures.js';
import { verifyHandshake, verifySignature } from './webhook.signature.js';

const SECRET = 'app-secret-0123456789abcdef';
const BODY = Buffer.from('{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[]}]}');

describe('verifySignature', () => {
  test('accepts the sha256= HMAC of the raw body under the app secret', () => {
    const header = `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`;
    assert.equal(verifySignature(BODY, header, SECRET), true);
    assert.equal(signBody(BODY.toString(), SECRET), header, 'the fixture signs the same way Meta does');
  });

  test('accepts upper-case hex digits', () => {
    const digest = signBody(BODY, SECRET).slice('sha256='.length);
    assert.equal(verifySignature(BODY, `sha256=${digest.toUpperCase()}`, SECRET), true);
  });

  test('refuses a signature made with another secret', () => {
    assert.equal(verifySignature(BODY, signBody(BODY, 'another-secret'), SECRET), false);
  });

  test('refuses a body changed by one byte after signing', () => {
    const header = signBody(BODY, SECRET);
    const tampered = Buffer.from(BODY);
    const at = tampered.length - 2;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0x01, at);
    assert.equal(verifySignature(tampered, header, SECRET), false);
  });

  test('refuses a body re-serialised with other whitespace: the raw bytes are signed, not the JSON', () => {
    const header = signBody(BODY, SECRET);
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 2));
    assert.equal(verifySignature(reformatted, header, SECRET), false);
  });

  test('a missing or malformed header is false, never a throw', () => {
    const digest = signBody(BODY, SECRET).slice('sha256='.length);
    for (const header of [undefined, '', 'sha256=', digest, `sha1=${digest}`, `sha256=${digest.replace(/./, 'z')}`]) {
      assert.equal(verifySignature(BODY, header, SECRET), false, `header ${String(header)}`);
    }
    assert.equal(verifySignature(BODY, ` ${signBody(BODY, SECRET)}`, SECRET), false, 'leading space');
  });

  test('a digest of the wrong length is false, never a throw', () => {
    const header = signBody(BODY, SECRET);
    assert.equal(verifySignature(BODY, header.slice(0, -2), SECRET), false, 'one byte short');
    assert.equal(verifySignature(BODY, `${header}00`, SECRET), false, 'one byte long');
    assert.equal(verifySignature(BODY, `sha256=${'ab'.repeat(64)}`, SECRET), false, 'a SHA-512-sized digest');
  });

  test('an empty app secret verifies nothing, even a matching signature', () => {
    assert.equal(verifySignature(BODY, signBody(BODY, ''), ''), false);
  });

  test('an empty body is signed like any other', () => {
    const empty = Buffer.alloc(0);
    assert.equal(verifySignature(empty, signBody(empty, SECRET), SECRET), true);
  });
});

describe('verifyHandshake', () => {
  const handshake = { 'hub.mode': 'subscribe', 'hub.verify_token': 'let-me-in', 'hub.challenge': '1158201444' };

  test('echoes the challenge when the mode is subscribe and the verify token matches', () => {
    assert.equal(verifyHandshake(handshake, 'let-me-in'), '1158201444');
  });

  test('refuses a wrong, missing or repeated verify token', () => {
    assert.equal(verifyHandshake(handshake, 'let-me-inn'), null);
    assert.equal(verifyHandshake({ ...handshake, 'hub.verify_token': undefined }, 'let-me-in'), null);
    assert.equal(verifyHandshake({ ...handshake, 'hub.verify_token': ['let-me-in', 'x'] }, 'let-me-in'), null);
  });

  test('refuses any mode other than subscribe', () => {
    assert.equal(verifyHandshake({ ...handshake, 'hub.mode': 'unsubscribe' }, 'let-me-in'), null);
    assert.equal(verifyHandshake({ ...handshake, 'hub.mode': undefined }, 'let-me-in'), null);
  });

  test('refuses a missing or empty challenge', () => {
    assert.equal(verifyHandshake({ ...handshake, 'hub.challenge': undefined }, 'let-me-in'), null);
    assert.equal(verifyHandshake({ ...handshake, 'hub.challenge': '' }, 'let-me-in'), null);
  });

  test('answers nothing while no verify token is configured, even to an empty token', () => {
    assert.equal(verifyHandshake(handshake, null), null);
    assert.equal(verifyHandshake({ ...handshake, 'hub.verify_token': '' }, ''), null);
  });
});
