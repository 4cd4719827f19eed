import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { request } from 'undici';
import { ENGINE, startServer, type HttpResponse, type TestServer } from '../../test/server.js';
import type { SessionUser } from '../access/principal.js';

interface Problem {
  code: string;
  errors?: { field: string; message: string }[];
}

const OWNER_PASSWORD = 'correct horse battery';

/** Behind a TLS-terminating proxy (TRUST_PROXY), so each request can come from an address of its own. */
const proxied = await startServer({ TRUST_PROXY: '1' });

/**
 * A POST as the proxy forwards it from a client at `address`. The client may write its own
 * X-Forwarded-For entries (`spoofed`); the proxy appends the address it saw.
 */
async function fromAddress(
  server: TestServer,
  address: string,
  pathname: string,
  body: object,
  spoofed?: string,
): Promise<HttpResponse<Problem>> {
  const port = new URL(server.baseUrl).port;
  const res = await request(`http://127.0.0.1:${port}${pathname}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-proto': 'https',
      'x-forwarded-for': spoofed ? `${spoofed}, ${address}` : address,
    },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, body: JSON.parse(text) as Problem };
}

const logIn = (server: TestServer, address: string, email: string, password: string, spoofed?: string) =>
  fromAddress(server, address, '/api/dashboard/login', { email, password }, spoofed);

async function createOwner(server: TestServer) {
  const email = `owner-${randomUUID()}@example.com`;
  const { workspace, user } = await server.app.services.workspaces.setup({
    name: 'Guarded',
    email,
    password: OWNER_PASSWORD,
  });
  return { email, workspaceId: workspace.id, userId: user.id };
}

/** An open invitation to the owner's workspace, as Settings → Team makes it. */
async function invitation(server: TestServer, owner: Awaited<ReturnType<typeof createOwner>>): Promise<string> {
  const session: SessionUser = {
    ...owner,
    name: 'Owner',
    role: 'owner',
    workspaceName: 'Guarded',
    workspaceTimeZone: 'UTC',
    language: null,
    sessionId: '',
    csrfToken: '',
    rateLimitPerMinute: 60,
  };
  const invite = await server.app.services.accounts.invite(session, {
    email: `${randomUUID()}@example.com`,
    role: 'member',
  });
  return invite.token;
}

const codes = (answers: HttpResponse<Problem>[]) =>
  answers.reduce<Record<string, number>>((counts, res) => {
    const key = `${res.status} ${res.body.code ?? ''}`.trim();
    return { ...counts, [key]: (counts[key] ?? 0) + 1 };
  }, {});

const countRows = async (server: TestServer, table: 'users' | 'workspaces') =>
  Number(
    (
      await server.app.services.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(`sign-in guards (${ENGINE})`, () => {
  test('lockout › 40 parallel wrong passwords check at most 5; the right one is refused until the lock lifts', async () => {
    const owner = await createOwner(proxied);
    // From 40 addresses, so only the per-email lock stands in the way (a botnet's view).
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => logIn(proxied, `203.0.113.${i + 1}`, owner.email, `wrong guess ${i}`)),
    );
    assert.deepEqual(codes(answers), { '401 invalid_credentials': 5, '429 login_locked': 35 });
    const right = await logIn(proxied, '203.0.113.99', owner.email, OWNER_PASSWORD);
    assert.equal(right.status, 429, 'the right password waits out the lock too');
    assert.equal(right.body.code, 'login_locked');
    proxied.clock.advance(61_000);
    assert.equal((await logIn(proxied, '203.0.113.99', owner.email, OWNER_PASSWORD)).status, 200, 'the lock lifts');
  });

  test('per address › 20 failed sign-ins from one address, across emails, stop its logins, set-ups and invitations', async () => {
    const owner = await createOwner(proxied);
    const sprayer = '198.51.100.7';
    for (let i = 0; i < 20; i++) {
      const res = await logIn(proxied, sprayer, `someone-${i}@example.com`, 'Spring2026!!');
      assert.equal(res.status, 401, `attempt ${i + 1}: ${res.text}`);
    }
    const refused = [
      await logIn(proxied, sprayer, owner.email, OWNER_PASSWORD),
      await logIn(proxied, sprayer, owner.email, OWNER_PASSWORD, '192.0.2.1'), // a made-up X-Forwarded-For entry
      await fromAddress(proxied, sprayer, '/api/dashboard/setup', {
        workspace: 'W',
        email: 'x@example.com',
        password: OWNER_PASSWORD,
      }),
      await fromAddress(proxied, sprayer, '/api/dashboard/invites/accept', {
        token: await invitation(proxied, owner),
        name: 'Mo',
        password: OWNER_PASSWORD,
      }),
    ];
    for (const res of refused) {
      assert.deepEqual([res.status, res.body.code], [429, 'rate_limited'], res.text);
      assert.ok(Number(res.headers['retry-after']) > 0);
    }
    assert.equal((await logIn(proxied, '198.51.100.8', owner.email, OWNER_PASSWORD)).status, 200, 'another address');
  });

  test('per address › an IPv6 client’s whole /64 is one address; successful sign-ins are not counted', async () => {
    const owner = await createOwner(proxied);
    const fail = (address: string) => logIn(proxied, address, `nobody-${randomUUID()}@example.com`, 'Spring2026!!');
    for (let i = 0; i < 19; i++) assert.equal((await fail(`2001:db8:7:7::${i + 1}`)).status, 401);
    for (let i = 0; i < 5; i++) {
      assert.equal((await logIn(proxied, `2001:db8:7:7:ffff::${i}`, owner.email, OWNER_PASSWORD)).status, 200);
    }
    assert.equal((await fail('2001:db8:7:7::abc')).status, 401, 'the 20th failure');
    const limited = await logIn(proxied, '2001:db8:7:7::def', owner.email, OWNER_PASSWORD);
    assert.deepEqual([limited.status, limited.body.code], [429, 'rate_limited']);
    assert.equal((await logIn(proxied, '2001:db8:7:8::1', owner.email, OWNER_PASSWORD)).status, 200, 'the next /64');
  });

  test('per address › two Parley processes on one database count the same address together', async () => {
    const first = await startServer();
    const second = await startServer({
      DATA_DIR: first.env.DATA_DIR!,
      ...(first.env.DATABASE_URL && { DATABASE_URL: first.env.DATABASE_URL }),
    });
    const owner = await createOwner(first);
    for (const server of [first, second]) {
      for (let i = 0; i < 10; i++) {
        // A different made-up email each time: the per-email lock is not what stops them.
        const res = await server.http.send('POST', '/api/dashboard/login', {
          body: { email: `nobody-${randomUUID()}@example.com`, password: 'Spring2026!!' },
        });
        assert.equal(res.status, 401, res.text);
      }
    }
    for (const server of [first, second]) {
      const res = await server.http.send<Problem>('POST', '/api/dashboard/login', {
        body: { email: owner.email, password: OWNER_PASSWORD },
      });
      assert.deepEqual([res.status, res.body.code], [429, 'rate_limited']);
    }
  });

  test('made-up emails › failed-login rows stay bounded: one address makes at most 20, and a day forgets them', async () => {
    const server = await startServer({ TRUST_PROXY: '1' });
    const { db } = server.app.services.deps;
    const rows = async () =>
      Number(
        (
          await db
            .selectFrom('login_failures')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const answers = [];
    for (let i = 0; i < 50; i++) {
      answers.push(await logIn(server, '198.51.100.20', `made-up-${i}@example.com`, 'Spring2026!!'));
    }
    assert.deepEqual(codes(answers), { '401 invalid_credentials': 20, '429 rate_limited': 30 });
    assert.equal(await rows(), 20);
    server.clock.advance(25 * 3_600_000);
    assert.equal((await logIn(server, '198.51.100.21', 'made-up-new@example.com', 'Spring2026!!')).status, 401);
    assert.equal(await rows(), 1, 'rows untouched for a day are swept');
  });

  test('first-run set-up › 10 at once on a fresh server: exactly one succeeds, the others get a clean 409', async () => {
    const fresh = await startServer();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fresh.http.send<Problem>('POST', '/api/dashboard/setup', {
          body: { workspace: `Shop ${i}`, email: `owner-${i}@example.com`, password: OWNER_PASSWORD },
        }),
      ),
    );
    assert.deepEqual(codes(answers), { '200': 1, '409 conflict': 9 });
    assert.deepEqual([await countRows(fresh, 'workspaces'), await countRows(fresh, 'users')], [1, 1]);
  });

  test('passwords › set-up and invitations refuse short and common passwords, naming the field; nothing is created', async () => {
    const fresh = await startServer();
    const owner = await createOwner(proxied);
    const tooShort = {
      field: 'password',
      message: 'must be at least 12 characters',
      code: 'workspaces.password_too_short',
      params: { min: 12 },
    };
    const tooCommon = {
      field: 'password',
      message: 'is too common or predictable; try a few unrelated words',
      code: 'workspaces.password_too_common',
    };
    const cases = [
      ['elevenchars', tooShort],
      ['password1234', tooCommon],
      ['Summer2026!!', tooCommon],
    ] as const;
    for (const [password, problem] of cases) {
      const setup = await fresh.http.send<Problem>('POST', '/api/dashboard/setup', {
        body: { workspace: 'W', email: 'ada@example.com', password },
      });
      const accept = await fromAddress(proxied, '198.51.100.30', '/api/dashboard/invites/accept', {
        token: await invitation(proxied, owner),
        name: 'Mo',
        password,
      });
      for (const res of [setup, accept]) {
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.body.errors, [problem]);
      }
    }
    assert.equal(await countRows(fresh, 'users'), 0);
    const team = await proxied.app.services.accounts.team(owner.workspaceId);
    assert.equal(team.length, 1, 'no invitation was accepted');
  });
});
