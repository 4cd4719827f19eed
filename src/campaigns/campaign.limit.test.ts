import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTemplate, createWorkspace } from '../../test/factories.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import type { Channel } from '../channels/channel.service.js';
import {
  BUSINESS_CAPABILITY_UNLIMITED,
  BUSINESS_CAPABILITY_UPDATE,
  portfolioLimitWebhook,
} from '../whatsapp/webhook.limit-fixtures.js';
import type { Campaign } from './campaign.schema.js';

const { graph, server, connect, postWebhook } = await startWhatsappServer({ outbox: true });
const DAY_MS = 24 * 60 * 60 * 1000;

interface Estimate {
  messages: number;
  messaging_limit: { customers_per_24h: number | 'unlimited'; used: number; room: number | null } | null;
  past_room: number;
}

describe('portfolio messaging limit', () => {
  test('Meta’s limit is kept per WABA; a campaign past the room is told, and waits for room when asked', async () => {
    const ws = await createWorkspace(server);
    const stranger = await createWorkspace(server);
    const number = await connect(ws.workspaceId);
    const { services } = server.app;
    const limitOf = async () =>
      (await ws.action<{ channels: Channel[] }>('list-channels', {})).body.channels[0]!.portfolio_limit;
    assert.equal(await limitOf(), null, 'unknown until Meta says');

    const posted = await postWebhook(
      portfolioLimitWebhook(number, { capability: BUSINESS_CAPABILITY_UPDATE, at: server.clock.now() }),
    );
    assert.equal(posted.status, 200, posted.text);
    assert.deepEqual(
      { ...(await limitOf()), updated_at: undefined },
      { customers_per_24h: 250, event: null, previous: null, max_phone_numbers: 2, updated_at: undefined },
    );
    // A downgrade to Meta's lowest tier.
    const downgrade = portfolioLimitWebhook(number, { event: 'DOWNGRADE', oldLimit: 'TIER_250', limit: 'TIER_50' });
    assert.equal((await postWebhook(downgrade)).status, 200);
    const limit = await limitOf();
    assert.deepEqual([limit?.customers_per_24h, limit?.event, limit?.previous], [50, 'DOWNGRADE', 'TIER_250']);
    assert.equal(limit?.max_phone_numbers, 2, 'what the capability update said stays');
    const theirs = await stranger.action<{ channels: Channel[] }>('list-channels', {});
    assert.equal(theirs.body.channels[0]!.portfolio_limit, null, 'another workspace sees nothing of it');

    const template = await createTemplate(services, ws.workspaceId);
    const contacts: string[] = [];
    for (let i = 0; i < 52; i++) {
      const phone = `+1415555${String(1000 + i)}`;
      contacts.push((await ws.action<{ id: string }>('create-contact', { phone, name: 'Ada' })).body.id);
    }
    const body = (ids: string[]) => ({
      template_id: template.id,
      variables: ['{{contact.name}}', 'ORD-1'],
      audience: { contact_ids: ids },
    });
    const sendDue = async () => {
      await services.scheduler.runDue(ws.workspaceId);
      services.outbox.wake();
      await services.outbox.idle();
    };
    // Two customers reached first: they count for 24 hours.
    const first = await ws.action<Campaign>('create-campaign', { name: 'First', ...body(contacts.slice(0, 2)) });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.over_limit, 'send');
    await sendDue();

    const estimate = await ws.action<Estimate>('estimate-campaign', body(contacts.slice(2)));
    assert.equal(estimate.status, 200, estimate.text);
    assert.deepEqual(
      [estimate.body.messages, estimate.body.messaging_limit, estimate.body.past_room],
      [50, { customers_per_24h: 50, used: 2, room: 48 }, 2],
    );

    server.clock.advance(60_000);
    const waiting = await ws.action<Campaign>('create-campaign', {
      name: 'Waits',
      ...body(contacts.slice(2)),
      over_limit: 'wait',
    });
    assert.equal(waiting.body.over_limit, 'wait', waiting.text);
    const before = graph.accepted.length;
    await sendDue();
    assert.equal(graph.accepted.length - before, 48, 'up to the room now');
    const counts = async () => (await ws.action<Campaign>('get-campaign', { campaign_id: waiting.body.id })).body;
    assert.deepEqual([(await counts()).status, (await counts()).counts.queued], ['sending', 2]);

    // Room returns as the first two customers stop counting, 24 hours after they were reached.
    server.clock.advance(DAY_MS - 60_000 + 1_000);
    await sendDue();
    assert.equal(graph.accepted.length - before, 50, 'the rest once room returned');

    await postWebhook(
      portfolioLimitWebhook(number, { capability: BUSINESS_CAPABILITY_UNLIMITED, at: server.clock.now() }),
    );
    const unlimited = await ws.action<Estimate>('estimate-campaign', body(contacts));
    assert.deepEqual(
      [
        unlimited.body.messaging_limit?.customers_per_24h,
        unlimited.body.messaging_limit?.room,
        unlimited.body.past_room,
      ],
      ['unlimited', null, 0],
    );
  });
});
