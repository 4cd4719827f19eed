import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cliJson, runCli, stderrLines } from '../../test/cli.js';
import { logInOverHttp, ownerSession } from '../../test/dashboard-session.js';
import { ENGINE, startServer } from '../../test/server.js';

const server = await startServer();
const NEW_PASSWORD = 'a remembered passphrase';

interface ResetOutput {
  email: string;
  link: string;
  expires_at: string;
}
interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; message: string; code?: string }[];
}

/** The address users open, as an operator gives it to the CLI (a proxy's, not the listener's). */
const PUBLIC_BASE_URL = 'https://parley.example.com';
const withBaseUrl = { ...server, env: { ...server.env, PUBLIC_BASE_URL } };

/** `parley user reset-password`: the printed link's token (after the #, never sent to a server). */
async function resetToken(email: string): Promise<{ output: ResetOutput; token: string }> {
  const output = await cliJson<ResetOutput>(withBaseUrl, 'user', 'reset-password', '--email', email);
  const [, token] = /^https:\/\/parley\.example\.com\/reset-password#([A-Za-z0-9_-]{43})$/.exec(output.link) ?? [];
  assert.ok(token, `a link to the reset page: ${output.link}`);
  return { output, token };
}

const useLink = (token: string, password = NEW_PASSWORD) =>
  server.http.send<Problem>('POST', '/api/dashboard/password-reset', { body: { token, password } });
const logIn = (email: string, password: string) =>
  server.http.send('POST', '/api/dashboard/login', { body: { email, password } });

describe(`password reset by the CLI's link (${ENGINE})`, () => {
  test('reset-password › prints a one-time link; it sets the password once and ends every session', async () => {
    const owner = await ownerSession(server);
    const { output, token } = await resetToken(owner.email.toUpperCase());
    assert.equal(output.email, owner.email);
    assert.ok(Date.parse(output.expires_at) > Date.now());
    const stored = await server.app.services.deps.db.selectFrom('password_resets').select('token_hash').execute();
    assert.ok(!JSON.stringify(stored).includes(token), 'only a hash of the token is stored');

    const tooShort = await useLink(token, 'short');
    assert.deepEqual(
      [tooShort.status, tooShort.body.errors?.[0]?.field, tooShort.body.errors?.[0]?.code],
      [400, 'password', 'workspaces.password_too_short'],
    );
    assert.equal((await owner.send('GET', '/api/dashboard/tokens')).status, 200, 'a refusal changes nothing');

    assert.equal((await useLink(token)).status, 200);
    assert.equal((await owner.send('GET', '/api/dashboard/tokens')).status, 401, 'sessions end');
    assert.equal((await logIn(owner.email, owner.password)).status, 401);
    assert.equal((await logIn(owner.email, NEW_PASSWORD)).status, 200);

    const again = await useLink(token, 'yet another passphrase');
    assert.deepEqual([again.status, again.body.code], [409, 'conflict']);
    assert.match(again.body.detail, /already used/);
    assert.equal((await logIn(owner.email, NEW_PASSWORD)).status, 200, 'the second use changed nothing');
  });

  test('reset-password › one link used twice at once sets one of the two passwords; the other use is a 409', async () => {
    const owner = await ownerSession(server);
    const { token } = await resetToken(owner.email);
    const passwords = ['first remembered phrase', 'second remembered phrase'];
    const answers = await Promise.all(passwords.map((password) => useLink(token, password)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    assert.equal(answers.find((a) => a.status === 409)!.body.code, 'conflict');
    const logins = await Promise.all(passwords.map((password) => logIn(owner.email, password)));
    assert.deepEqual(
      logins.map((login) => login.status),
      answers.map((answer) => (answer.status === 200 ? 200 : 401)),
      'the password of the use that won is set',
    );
  });

  test('reset-password › a link expires, and a newer link replaces an older one', async () => {
    const owner = await ownerSession(server);
    const { token: older } = await resetToken(owner.email);
    const { token: newer } = await resetToken(owner.email);
    assert.equal((await useLink(older)).status, 404, 'the older link stopped working');

    server.clock.advance(48 * 3_600_000); // the CLI stamps the link by the real clock; the server's stands still
    const expired = await useLink(newer);
    assert.deepEqual([expired.status, expired.body.code], [404, 'not_found']);
    assert.equal((await logInOverHttp(server, owner)).email, owner.email, 'the password is unchanged');
  });

  test('reset-password › without PUBLIC_BASE_URL it refuses, naming the variable, and issues no link', async () => {
    const owner = await ownerSession(server);
    const refused = await runCli(server, 'user', 'reset-password', '--email', owner.email);
    assert.deepEqual([refused.code, refused.stdout], [1, '']);
    assert.deepEqual(stderrLines(refused), [
      'parley: the link needs the dashboard’s address: set PUBLIC_BASE_URL to the address users open (e.g. https://parley.example.com)',
    ]);
    const issued = await server.app.services.deps.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select('password_resets.user_id')
      .where('users.email', '=', owner.email)
      .execute();
    assert.deepEqual(issued, []);
  });

  test('reset-password › an unknown email or a missing --email fails with one line and no link', async () => {
    const unknown = await runCli(withBaseUrl, 'user', 'reset-password', '--email', 'nobody@example.com');
    assert.deepEqual([unknown.code, unknown.stdout], [1, '']);
    assert.deepEqual(stderrLines(unknown), ['parley: user not found (not_found)']);
    const missing = await runCli(withBaseUrl, 'user', 'reset-password');
    assert.equal(missing.code, 2);
    assert.match(stderrLines(missing)[0]!, /--email is required/);
  });

  test('reset-password › a made-up token is a 404 and a malformed body a 400', async () => {
    const madeUp = await useLink('A'.repeat(43));
    assert.deepEqual([madeUp.status, madeUp.body.code], [404, 'not_found']);
    const malformed = await server.http.send<Problem>('POST', '/api/dashboard/password-reset', {
      body: { token: 'x'.repeat(500), password: NEW_PASSWORD },
    });
    assert.deepEqual([malformed.status, malformed.body.code], [400, 'validation_failed']);
  });
});
