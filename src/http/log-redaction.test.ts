import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { logInOverHttp, setUpOverHttp } from '../../test/dashboard-session.js';
import { CHAT_MODEL, startOpenAiStandIn } from '../../test/openai-stand-in.js';
import { startParleyProcess, type LogLine, type ParleyProcess } from '../../test/parley-process.js';
import { ENGINE, startServer } from '../../test/server.js';
import { redactSecrets } from './log-redaction.js';

const secret = (label: string) => `${label}-${randomBytes(12).toString('base64url')}`;
const verifyToken = secret('verify');
// The in-process server is only the handle on the database; the child process, logging at info
// to its stdout as a deployment does, serves every request of the test.
const server = await startServer({
  WHATSAPP_VERIFY_TOKEN: verifyToken,
  PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true',
  PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS: 'true',
});
// The AI model's key is known to this stand-in; a wrong one makes the endpoint's refusal go through the logs' way too.
const aiKey = secret('sk-ai');
const model = await startOpenAiStandIn({ apiKey: aiKey });

/** A request's line is written once its response has gone out, which may be just after the client has it. */
async function requestLine(child: ParleyProcess, requestId: string): Promise<LogLine> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const line = child.logs.find((entry) => entry.reqId === requestId && entry.msg === 'request');
    if (line) return line;
    await sleep(10);
  }
  assert.fail(`no request line for ${requestId}`);
}

describe(`secrets in the log (${ENGINE})`, () => {
  test('a real server used through every secret-bearing route logs none of the secrets', async () => {
    const child = await startParleyProcess('logged', server.env, server.app.tls!.cert);
    const { http } = child;
    const owner = { workspace: 'Logs', email: 'owner@example.com', password: secret('owner-password') };
    const setup = await setUpOverHttp(child, owner);
    const wrongPassword = secret('wrong-password');
    const refused = await http.send('POST', '/api/dashboard/login', { body: { ...owner, password: wrongPassword } });
    assert.equal(refused.status, 401);
    const session = await logInOverHttp(child, owner);

    const token = await session.send<{ token: string }>(
      'POST',
      '/api/dashboard/tokens',
      { name: 'ci' },
      { 'idempotency-key': 'mint-ci-token' },
    );
    assert.equal(token.status, 200, token.text);
    const invite = await session.send<{ token: string }>('POST', '/api/dashboard/invites', {
      email: 'member@example.com',
      role: 'member',
    });
    assert.equal(invite.status, 200, invite.text);
    const inviteToken = invite.body.token;
    await http.send('GET', `/invite/${inviteToken}`);
    assert.equal((await http.send('GET', `/api/dashboard/invites/${inviteToken}`)).status, 200);
    const memberPassword = secret('member-password');
    const accepted = await http.send('POST', '/api/dashboard/invites/accept', {
      body: { token: inviteToken, name: 'Mo', password: memberPassword },
    });
    assert.equal(accepted.status, 200, accepted.text);

    const handshake = await http.send(
      'GET',
      `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`,
    );
    assert.equal(handshake.text, '1158201444');
    const accessToken = secret('access');
    const me = await http.send('GET', `/api/v1/me?access_token=${accessToken}`, { token: token.body.token });
    assert.equal(me.status, 200, me.text);
    const webhook = await http.send<{ secret: string }>('POST', '/api/v1/actions/create-webhook', {
      token: token.body.token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['new-flow-triggered'] },
    });
    assert.match(webhook.body.secret, /^whsec_/);

    const wrongAiKey = secret('sk-wrong');
    for (const [action, key] of [
      ['save-ai-settings', aiKey],
      ['test-ai-settings', wrongAiKey],
      ['test-ai-settings', aiKey],
    ]) {
      const body = { enabled: true, base_url: model.url, model: CHAT_MODEL, api_key: key };
      const answer = await http.send('POST', `/api/v1/actions/${action}`, { token: token.body.token, body });
      assert.equal(answer.status, 200, answer.text);
      await requestLine(child, String(answer.headers['x-request-id']));
    }
    assert.equal(model.chats().length, 2, 'both keys were sent to the model, which refused the wrong one');

    const handshakeLine = await requestLine(child, String(handshake.headers['x-request-id']));
    assert.equal(
      handshakeLine.url,
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1158201444',
    );
    assert.equal(
      (await requestLine(child, String(me.headers['x-request-id']))).url,
      '/api/v1/me?access_token=[redacted]',
    );
    await requestLine(child, String(webhook.headers['x-request-id']));
    const urls = child.logs.filter((line) => line.msg === 'request').map((line) => line.url);
    assert.ok(urls.includes('/invite/[redacted]'), urls.join('\n'));
    assert.ok(urls.includes('/api/dashboard/invites/[redacted]'), urls.join('\n'));
    assert.ok(urls.includes('/api/dashboard/invites/accept'), 'a route name is not a secret');

    const everything = child.logs.map((line) => JSON.stringify(line)).join('\n');
    const secrets = {
      'owner password': owner.password,
      'wrong password': wrongPassword,
      'member password': memberPassword,
      'session cookie': session.cookie,
      'set-up session cookie': setup.cookie,
      'CSRF token': session.csrfToken,
      'API token': token.body.token,
      'invitation token': inviteToken,
      'verify token': verifyToken,
      'access token': accessToken,
      'webhook signing secret': webhook.body.secret,
      'AI model API key': aiKey,
      'wrong AI model API key': wrongAiKey,
    };
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(!everything.includes(value), `the ${name} is not in the log`);
    }
  });
});

describe('redactSecrets', () => {
  test('redacts the secret of each rule and nothing else', () => {
    const cases: [string, string][] = [
      ['/invite/abc_DEF-123', '/invite/[redacted]'],
      ['/invite/abc?x=1#top', '/invite/[redacted]?x=1#top'],
      ['/api/dashboard/invites/abc', '/api/dashboard/invites/[redacted]'],
      ['/api/dashboard/invites/accept', '/api/dashboard/invites/accept'],
      ['/api/dashboard/invites/accept-abc', '/api/dashboard/invites/[redacted]'],
      ['/reset-password/abc', '/reset-password/[redacted]'],
      [
        '/hook?hub.mode=subscribe&hub.verify_token=s3cret&hub.challenge=9',
        '/hook?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=9',
      ],
      ['/x?ACCESS_TOKEN=abc&page=2', '/x?ACCESS_TOKEN=[redacted]&page=2'],
      ['/x?client_secret=abc&password=def', '/x?client_secret=[redacted]&password=[redacted]'],
      ['/x?tokens_left=3&page=2', '/x?tokens_left=3&page=2'],
      ['{"url":"/invite/abc","msg":"request"}', '{"url":"/invite/[redacted]","msg":"request"}'],
      ['Reply was already sent for "/invite/abc" (GET)', 'Reply was already sent for "/invite/[redacted]" (GET)'],
    ];
    for (const [text, expected] of cases) assert.equal(redactSecrets(text), expected, text);
  });
});
