import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { looksPubliclyReachable } from './public-address.js';

// As deployed (no PARLEY_ALLOW_PRIVATE_WEBHOOKS). Every check here happens when the URL is saved:
// nothing is resolved or connected to.
const server = await startServer();

/** Private targets in the forms an attacker would try to slip past a blocklist. */
const PRIVATE_URLS = [
  'https://[::127.0.0.1]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://[::ffff:7f00:1]/x',
  'https://[64:ff9b::127.0.0.1]/x',
  'https://[64:ff9b::10.0.0.1]/x',
  'https://[2002:7f00:1::1]/x',
  'https://[2002:a9fe:a9fe::]/latest',
  'https://[fec0::1]/x',
  'https://[ff02::1]/x',
  'https://198.18.0.1/x',
  'https://198.19.255.254/x',
  'https://192.0.0.170/x',
  'https://224.0.0.1/x',
  'https://239.255.255.250/x',
  'https://255.255.255.255/x',
  'https://localhost./x',
  'https://api.localhost./x',
  'https://127.0.0.1./x',
  'https://0x7f.1/x',
];

interface Problem {
  code: string;
  detail: string;
  errors: { field: string; message: string }[];
}

describe(`private call-out targets are refused when saved (${ENGINE})`, () => {
  test('create-webhook › IPv6 forms of private IPv4, site-local, multicast, broadcast and trailing-dot names are 400', async () => {
    const ws = await createWorkspace(server);
    for (const url of PRIVATE_URLS) {
      const response = await ws.action<Problem>('create-webhook', { url, events: ['new-message-received'] });
      assert.equal(response.status, 400, `${url}: ${response.text}`);
      assert.match(response.body.detail, /^url: must not point to a loopback or private address/, url);
    }
    assert.deepEqual((await ws.action('list-webhooks')).body, []);
  });

  test('save-flow › a webhook node calling any of them is 400 naming the node’s url, and nothing is saved', async () => {
    const ws = await createWorkspace(server);
    for (const url of [...PRIVATE_URLS, 'http://localhost:8080/x', 'http://10.1.2.3/x']) {
      const definition = {
        start: 'call',
        nodes: [
          { id: 'call', type: 'webhook', url, next: 'bye' },
          { id: 'bye', type: 'end' },
        ],
      };
      const response = await ws.action<Problem>('save-flow', { name: 'Lookup', definition });
      assert.equal(response.status, 400, `${url}: ${response.text}`);
      assert.deepEqual(
        response.body.errors.map((error) => error.field),
        ['/definition/nodes/0/url'],
        url,
      );
      assert.match(response.body.errors[0]!.message, /^must not point to a loopback or private address/, url);
    }
    const { db } = server.app.services.deps;
    const saved = await db.selectFrom('flows').select('id').where('workspace_id', '=', ws.workspaceId).execute();
    assert.deepEqual(saved, []);
  });

  test('public addresses, IPv6 forms of public IPv4 included, are accepted', async () => {
    const ws = await createWorkspace(server);
    for (const url of ['https://203.0.113.10/x', 'https://[64:ff9b::cb00:710a]/x', 'https://[2002:cb00:710a::1]/x']) {
      const response = await ws.action('create-webhook', { url, events: ['new-message-received'] });
      assert.equal(response.status, 200, `${url}: ${response.text}`);
    }
  });
});

describe('the webhook callback URL shown in Settings → Channel', () => {
  test('is flagged when Meta could not reach it', () => {
    const reachable = (url: string) => looksPubliclyReachable(new URL(url));
    assert.equal(reachable('https://parley.example.com'), true);
    assert.equal(reachable('https://203.0.113.10:8443'), true);
    for (const local of ['https://127.0.0.1:8443', 'https://localhost:8443', 'https://[::1]', 'https://10.0.0.5']) {
      assert.equal(reachable(local), false, local);
    }
    assert.equal(reachable('https://parley:8443'), false, 'a single-label name resolves only on a local network');
  });
});
