import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinedTeammate, logInOverHttp, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { startSmtpStand } from '../../test/smtp-stand.js';
import { ENGINE, startServer } from '../../test/server.js';
import { loadConfig } from '../config.js';
import { EMAIL_RETRY_DELAYS_MS } from './email.service.js';

const smtp = await startSmtpStand();
const PUBLIC_BASE_URL = 'https://parley.example.test';
const server = await startServer({
  SMTP_URL: `smtp://${smtp.user}:${smtp.password}@127.0.0.1:${smtp.port}`,
  SMTP_FROM: 'Parley <parley@example.test>',
  PUBLIC_BASE_URL,
});
const { scheduler } = server.app.services;

/** Runs the due email jobs (the test server's scheduler runs only when asked), then the mail sent to `to` (on `subject`). */
const mailTo = async (to: string, subject = /./) => {
  await scheduler.runDue();
  return smtp.received.filter(
    (mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === to && subject.test(mail.subject ?? ''),
  );
};
/** The link in an email's text that starts with the public address; as a path on the test server. */
const linkIn = (text: string | undefined) => {
  const link = new RegExp(`${PUBLIC_BASE_URL}/\\S+`).exec(text ?? '')?.[0];
  assert.ok(link, `no link in: ${text}`);
  return new URL(link);
};
const customerWrites = async (session: DashboardSession, phone: string) => {
  const body = { phone, text: 'Hello' };
  const response = await session.send<{ contact_id: string }>('POST', '/api/v1/actions/simulate-inbound-message', body);
  return response.body.contact_id;
};

describe(`email over SMTP (${ENGINE})`, () => {
  test('invitation › is emailed from SMTP_FROM with a link that opens the invitation and accepts it over HTTPS', async () => {
    const owner = await ownerSession(server, 'Flowers by Ana');
    const email = `invited-${Date.now()}@example.com`;
    const invite = await owner.send<{ emailed: boolean }>('POST', '/api/dashboard/invites', { email, role: 'agent' });
    assert.equal(invite.status, 200, invite.text);
    assert.equal(invite.body.emailed, true);

    const [mail, ...more] = await mailTo(email);
    assert.equal(more.length, 0);
    assert.equal(mail!.from?.text, '"Parley" <parley@example.test>');
    assert.match(mail!.subject ?? '', /Flowers by Ana/);
    const link = linkIn(mail!.text);
    assert.match(link.pathname, /^\/invite\/[\w-]+$/);
    const page = await server.http.send('GET', link.pathname);
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    const token = link.pathname.split('/').pop()!;
    const opened = await server.http.send<{ email: string }>('GET', `/api/dashboard/invites/${token}`);
    assert.equal(opened.body.email, email);
    const accept = { token, name: 'Ines', password: 'an invited password' };
    const joined = await server.http.send('POST', '/api/dashboard/invites/accept', { body: accept });
    assert.equal(joined.status, 200, joined.text);
    await logInOverHttp(server, { email, password: accept.password });
  });

  test('password reset › asked for on the sign-in page, emailed, and the link sets a new password once', async () => {
    const owner = await ownerSession(server);
    const asked = await server.http.send('POST', '/api/dashboard/password-reset/request', {
      body: { email: owner.email.toUpperCase() },
    });
    assert.equal(asked.status, 202, asked.text);
    const [mail] = await mailTo(owner.email);
    const link = linkIn(mail!.text);
    assert.equal(link.pathname, '/reset-password');
    const token = link.hash.slice(1);
    const body = { token, password: 'a brand new password' };
    assert.equal((await server.http.send('POST', '/api/dashboard/password-reset', { body })).status, 200);
    await logInOverHttp(server, { email: owner.email, password: body.password });
    assert.equal((await server.http.send('POST', '/api/dashboard/password-reset', { body })).status, 409);

    // An unknown email gets the same answer, and no email goes anywhere.
    const before = smtp.received.length;
    const unknown = { email: `nobody-${Date.now()}@example.com` };
    assert.equal(
      (await server.http.send('POST', '/api/dashboard/password-reset/request', { body: unknown })).status,
      202,
    );
    await scheduler.runDue();
    assert.equal(smtp.received.length, before);
  });

  test('mention › emails the mentioned person when their preference says so, and not otherwise', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const contactId = await customerWrites(owner, '+447911200001');
    await owner.send('POST', `/api/dashboard/conversations/${contactId}/notes`, { body: '@Mate the order is late' });
    const [mail, ...more] = await mailTo(mate.email, /mentioned you/);
    assert.equal(more.length, 0);
    assert.match(mail!.subject ?? '', /mentioned you: \+447911200001/);
    assert.equal(linkIn(mail!.text).pathname, `/inbox/${contactId}`);
    // The note itself stays in Parley.
    assert.doesNotMatch(mail!.text ?? '', /order is late/);

    const off = { mention: { in_app: true, email: false } };
    assert.equal((await mate.send('PUT', '/api/dashboard/notification-preferences', off)).status, 200);
    await owner.send('POST', `/api/dashboard/conversations/${contactId}/notes`, { body: '@Mate again' });
    assert.equal((await mailTo(mate.email, /mentioned you/)).length, 1);
    const listed = await mate.send<{ unread: number }>('GET', '/api/dashboard/notifications/unread');
    assert.equal(listed.body.unread, 2);
  });

  test('retry › a refused send is tried again later and delivered once; the request that caused it did not wait', async () => {
    const owner = await ownerSession(server);
    const mate = await joinedTeammate(server, owner);
    const contactId = await customerWrites(owner, '+447911200002');
    await scheduler.runDue();
    smtp.refuseNext(1);
    const assigned = await owner.send('PUT', `/api/v1/conversations/${contactId}/assignment`, {
      team_id: null,
      assignee_id: mate.userId,
    });
    assert.equal(assigned.status, 200);
    assert.equal((await mailTo(mate.email, /Assigned/)).length, 0);
    const [queued] = await server.app.services.deps.db
      .selectFrom('emails')
      .select(['state', 'attempts', 'last_error'])
      .where('to_address', '=', mate.email)
      .where('notification_id', 'is not', null)
      .execute();
    assert.equal(queued!.state, 'pending');
    assert.match(queued!.last_error ?? '', /Try again later/);

    server.clock.advance(EMAIL_RETRY_DELAYS_MS[0]!);
    const [mail] = await mailTo(mate.email, /Assigned to you/);
    assert.ok(mail);
    server.clock.advance(24 * 3_600_000);
    assert.equal((await mailTo(mate.email, /Assigned to you/)).length, 1);
  });

  test('config › SMTP needs SMTP_FROM and PUBLIC_BASE_URL, and a problem never repeats the password', () => {
    assert.throws(
      () => loadConfig({ SMTP_URL: 'smtp://user:hunter2-secret@mail.example.com:587' }),
      (error: Error) =>
        /SMTP_FROM is required/.test(error.message) &&
        /PUBLIC_BASE_URL is required/.test(error.message) &&
        !error.message.includes('hunter2-secret'),
    );
    assert.throws(
      () => loadConfig({ SMTP_URL: 'http://user:hunter2-secret@x', SMTP_FROM: 'a@b.c' }),
      (error: Error) => !error.message.includes('hunter2-secret'),
    );
  });
});
