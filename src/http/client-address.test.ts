import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientNetwork } from './client-address.js';

describe('clientNetwork', () => {
  test('an IPv4 address is its own network; an IPv4-mapped IPv6 address counts as the IPv4 one', () => {
    assert.equal(clientNetwork('203.0.113.7'), '203.0.113.7');
    assert.equal(clientNetwork('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientNetwork('::FFFF:127.0.0.1'), '127.0.0.1');
  });

  test('IPv6 addresses of one /64 are one network, however they are written', () => {
    const network = '2001:db8:0:12::/64';
    for (const ip of [
      '2001:db8:0:12::1',
      '2001:0DB8:0000:0012:ffff:1:2:3',
      '2001:db8::12:0:0:0:9',
      '2001:db8:0:12::',
    ]) {
      assert.equal(clientNetwork(ip), network, ip);
    }
    assert.notEqual(clientNetwork('2001:db8:0:13::1'), network);
    assert.equal(clientNetwork('::1'), '0:0:0:0::/64');
    assert.equal(clientNetwork('fe80::1%eth0'), 'fe80:0:0:0::/64');
  });
});
