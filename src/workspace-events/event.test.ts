import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import {
  ACCOUNT_ALERT,
  ACCOUNT_VIOLATION,
  QUALITY_DOWNGRADE,
  RATE_LIMIT_ERROR,
  accountWebhook,
  valueErrorsWebhook,
} from '../whatsapp/webhook.delivery-fixtures.js';
import { DOCUMENTED_FIELDS, UNKNOWN_FIELD } from '../whatsapp/webhook.field-fixtures.js';
import type { WorkspaceEvent } from './event.schema.js';

const { server, cloudWorkspace, postWebhook } = await startWhatsappServer();

describe(`workspace event log (${ENGINE})`, () => {
  test('list-workspace-events › account updates and value.errors from Meta, newest first, per workspace', async () => {
    const cloud = await cloudWorkspace();
    const bystander = await cloudWorkspace();
    const at = new Date(Math.floor(server.clock.now().getTime() / 1000) * 1000);
    const bodies = [
      accountWebhook(cloud.wabaId, 'account_update', ACCOUNT_VIOLATION, at),
      accountWebhook(cloud.wabaId, 'phone_number_quality_update', QUALITY_DOWNGRADE, at),
      accountWebhook(cloud.wabaId, 'account_alerts', ACCOUNT_ALERT, at),
      valueErrorsWebhook({ phoneNumberId: cloud.phoneNumberId }),
    ];
    for (const body of bodies) {
      const response = await postWebhook<{ account_events: number }>(body);
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.account_events, 1);
      server.clock.advance(1_000);
    }
    // Meta retries a delivery it believes failed: the account update is recorded once.
    assert.equal((await postWebhook(bodies[0]!)).status, 200);
    const listed = await cloud.ws.action<WorkspaceEvent[]>('list-workspace-events', {});
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.map((event) => [event.kind, event.summary]),
      [
        ['errors', 'error 130429: Rate limit hit'],
        ['account_alerts', 'account alerts: OBA_REJECTED'],
        ['phone_number_quality_update', 'phone number quality update: DOWNGRADE: 15550783881'],
        ['account_update', 'account update: ACCOUNT_VIOLATION: 15550783881'],
      ],
    );
    const [rateLimit, , quality, violation] = listed.body;
    assert.equal(
      rateLimit!.reason,
      'More messages were sent than this number’s throughput allows; they are retried after a pause.',
    );
    assert.deepEqual(quality!.details, QUALITY_DOWNGRADE, "Meta's object is kept whole");
    assert.deepEqual(rateLimit!.details, RATE_LIMIT_ERROR);
    assert.equal(violation!.occurred_at, at.toISOString().replace('Z', '+00:00'));
    assert.equal(violation!.reason, null);

    const oneOnly = await cloud.ws.action<WorkspaceEvent[]>('list-workspace-events', { limit: 1 });
    assert.deepEqual(
      oneOnly.body.map((event) => event.kind),
      ['errors'],
    );
    const theirs = await bystander.ws.action<WorkspaceEvent[]>('list-workspace-events', {});
    assert.deepEqual(theirs.body, [], "another workspace's log is its own");
  });

  test('list-workspace-events › a limit out of range is a 400 naming the field', async () => {
    const cloud = await cloudWorkspace();
    for (const limit of [0, 101, 'ten']) {
      const response = await cloud.ws.action<{ code: string; errors: { field: string }[] }>('list-workspace-events', {
        limit,
      });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.code, 'validation_failed');
      assert.match(response.body.errors[0]!.field, /limit/);
    }
  });

  test('webhook › an account update for an account no workspace connected is counted unrouted', async () => {
    const response = await postWebhook<{ unrouted: number; account_events: number }>(
      accountWebhook('999000111222333', 'account_update', ACCOUNT_VIOLATION, server.clock.now()),
    );
    assert.equal(response.status, 200, response.text);
    assert.deepEqual([response.body.unrouted, response.body.account_events], [1, 0]);
  });

  test('webhook › every field Meta documents that Parley does not model is answered 200 and recorded whole, none dropped', async () => {
    const cloud = await cloudWorkspace();
    const bystander = await cloudWorkspace();
    const line = { phoneNumberId: cloud.phoneNumberId, displayPhoneNumber: '15550783881' };
    const fields = [...DOCUMENTED_FIELDS, UNKNOWN_FIELD];
    for (const { field, route, value } of fields) {
      // A change naming the business number reaches its workspace by the number alone, whatever the entry's account.
      const account = route === 'number' ? '999000111222333' : cloud.wabaId;
      const response = await postWebhook<{ account_events: number; unrouted: number }>(
        accountWebhook(account, field, value(line), server.clock.now()),
      );
      assert.equal(response.status, 200, `${field}: ${response.text}`);
      assert.deepEqual([response.body.account_events, response.body.unrouted], [1, 0], field);
      server.clock.advance(1_000);
    }
    const listed = await cloud.ws.action<WorkspaceEvent[]>('list-workspace-events', { limit: 100 });
    assert.equal(listed.status, 200, listed.text);
    const byKind = new Map(listed.body.map((event) => [event.kind, event]));
    for (const { field, value } of fields) {
      assert.deepEqual(byKind.get(field)?.details, value(line), `${field}: Meta's value is kept whole`);
    }
    assert.equal(byKind.get('security')?.summary, 'security: PIN_CHANGED: 15550783881');
    assert.equal(byKind.get(UNKNOWN_FIELD.field)?.summary, 'a field meta adds later: SOMETHING_NEW');
    const theirs = await bystander.ws.action<WorkspaceEvent[]>('list-workspace-events', { limit: 100 });
    assert.deepEqual(theirs.body, [], "another workspace's log is its own");
  });
});
