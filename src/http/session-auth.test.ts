import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ownerSession } from '../../test/dashboard-session.js';
import { ENGINE, startServer, type HttpResponse } from '../../test/server.js';

const server = await startServer();

/** What a browser sends from a sandboxed frame, a data: or file: page (`null`), and headers no browser sends. */
const OPAQUE_OR_MALFORMED_ORIGINS = ['null', 'http://[', 'not a url', '://127.0.0.1'];

function assertForbidden(res: HttpResponse, what: string): void {
  assert.equal(res.status, 403, `${what}: ${res.text}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/, what);
  assert.equal((res.body as { code: string }).code, 'csrf_token_invalid', what);
}

describe(`session auth (${ENGINE})`, () => {
  test('origin › an opaque or unparseable Origin on a change is a 403, and changes nothing', async () => {
    const session = await ownerSession(server);
    const changes: [string, unknown][] = [
      ['/api/v1/actions/create-contact', { phone: '+14155550100' }],
      ['/api/dashboard/contacts/import', { csv: 'phone\n+14155550101', columns: ['phone'] }],
      ['/api/dashboard/invites', { email: 'new@example.com', role: 'member' }],
      ['/api/dashboard/logout', {}],
    ];
    for (const origin of OPAQUE_OR_MALFORMED_ORIGINS) {
      for (const [pathname, body] of changes) {
        assertForbidden(await session.send('POST', pathname, body, { origin }), `${origin} ${pathname}`);
      }
    }
    const contacts = await session.send<{ contacts: unknown[] }>('GET', '/api/dashboard/contacts');
    assert.equal(contacts.status, 200, 'the session survived the refused logouts');
    assert.deepEqual(contacts.body.contacts, [], 'no contact was created or imported');
  });

  test('origin › login, setup and invitation acceptance refuse an opaque or unparseable Origin with 403', async () => {
    const session = await ownerSession(server);
    const publicChanges: [string, unknown][] = [
      ['/api/dashboard/login', { email: session.email, password: session.password }],
      ['/api/dashboard/setup', { workspace: 'W', email: 'x@example.com', password: 'correct horse battery' }],
      ['/api/dashboard/invites/accept', { token: 'x', name: 'X', password: 'correct horse battery' }],
    ];
    for (const origin of OPAQUE_OR_MALFORMED_ORIGINS) {
      for (const [pathname, body] of publicChanges) {
        const res = await server.http.send('POST', pathname, { body, headers: { origin } });
        assertForbidden(res, `${origin} ${pathname}`);
        assert.equal(res.headers['set-cookie'], undefined, 'no session was started');
      }
    }
  });

  test('origin › the server’s own origin, or none, is let through', async () => {
    const session = await ownerSession(server);
    const own = await session.send(
      'POST',
      '/api/v1/actions/create-contact',
      { phone: '+14155550102' },
      { origin: server.baseUrl },
    );
    assert.equal(own.status, 201, own.text);
    const none = await session.send('POST', '/api/v1/actions/create-contact', { phone: '+14155550103' });
    assert.equal(none.status, 201, none.text);
  });
});
