import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { action, campaignReport, campaignWorld, PHONES } from '../../test/campaign-world.js';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import type { Campaign } from '../campaigns/campaign.schema.js';
import { plainReason } from '../messages/error-reasons.js';

const { server, postWebhook, connect } = await startWhatsappServer({ outbox: true });
const { shop, sentCampaign, statuses, playedOut, runDue } = campaignWorld({ server, postWebhook, connect });
const report = campaignReport;

describe(`campaign report (${ENGINE})`, () => {
  test('the funnel, Meta’s reasons and the cost from Meta’s rate card by each recipient’s market', async () => {
    const s = await shop();
    const campaign = await playedOut(s);
    const answer = await report(s.owner);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.currency, 'USD');
    assert.deepEqual(answer.body.pricing.workspace_rates, []);
    assert.match(answer.body.pricing.rate_card!, /Effective 2025-07-01/);
    const [outcome] = answer.body.campaigns;
    assert.equal(answer.body.campaigns.length, 1);
    assert.equal(outcome!.id, campaign.id);
    assert.equal(outcome!.recipients, 5);
    assert.deepEqual(outcome!.funnel, { sent: 4, delivered: 3, read: 1, replied: 1, opted_out: 1, failed: 1 });
    assert.equal(outcome!.not_read, 3);
    assert.deepEqual(
      outcome!.failure_reasons.map(({ code, count, reason }) => ({ code, count, reason })),
      [{ code: 131050, count: 1, reason: plainReason(131050) }],
    );
    // Four billable marketing messages: two to Brazil (0.0625), one to India (0.0118), one to the US (0.025).
    assert.deepEqual(outcome!.cost, {
      amount: 0.1618,
      billable: 4,
      unpriced: 0,
      categories: [{ category: 'marketing', billable: 4, priced: 4, amount: 0.1618 }],
    });
    assert.equal(answer.body.total_cost, 0.1618);
    assert.equal(outcome!.resent_as, null);
  });

  test('the workspace’s rates override the card; in another currency the card prices nothing', async () => {
    const s = await shop();
    await playedOut(s);
    const usd = await s.owner.send('PUT', '/api/dashboard/reports/rates', {
      currency: 'USD',
      rates: { marketing: 0.1 },
    });
    assert.equal(usd.status, 200, usd.text);
    const overridden = (await report(s.owner)).body;
    assert.deepEqual(overridden.pricing.workspace_rates, ['marketing']);
    assert.equal(overridden.campaigns[0]!.cost.amount, 0.4);

    await s.owner.send('PUT', '/api/dashboard/reports/rates', { currency: 'EUR', rates: { utility: 0.01 } });
    const euros = (await report(s.owner)).body;
    assert.equal(euros.currency, 'EUR');
    assert.equal(euros.pricing.rate_card, null);
    assert.deepEqual(
      { amount: euros.campaigns[0]!.cost.amount, unpriced: euros.campaigns[0]!.cost.unpriced },
      { amount: 0, unpriced: 4 },
    );
  });

  test('per-message pricing: a `regular` message is charged, a free entry point is not, with or without `billable`', async () => {
    const s = await shop();
    const campaign = await sentCampaign(s);
    // Meta's pricing object since July 2025: `type` says what is charged; the deprecated `billable` may be absent.
    const pricing: Record<string, Record<string, unknown>> = {
      [PHONES.brazilRead]: { pricing_model: 'PMP', category: 'marketing', type: 'regular' },
      [PHONES.brazil]: { pricing_model: 'PMP', category: 'marketing', type: 'free_entry_point' },
      [PHONES.india]: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'free_entry_point' },
      [PHONES.us]: { billable: true, pricing_model: 'CBP', category: 'marketing' }, // before July 2025: no type
    };
    const sent = Object.fromEntries(Object.keys(pricing).map((phone) => [phone, ['sent' as const]]));
    await statuses(s, campaign, sent, (phone) => pricing[phone]);
    const [outcome] = (await report(s.owner)).body.campaigns;
    // Charged: one to Brazil (0.0625) by its type, one to the US (0.025) by `billable`.
    assert.deepEqual(outcome!.cost, {
      amount: 0.0875,
      billable: 2,
      unpriced: 0,
      categories: [{ category: 'marketing', billable: 2, priced: 2, amount: 0.0875 }],
    });
  });

  test('filters: the range, a number and a label narrow it; a foreign one is a 400; CSV has a row per campaign', async () => {
    const s = await shop();
    await playedOut(s);
    const today = server.clock.now().toISOString().slice(0, 10);
    const yesterday = new Date(server.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    assert.equal((await report(s.owner, `?from=${yesterday}&to=${yesterday}`)).body.campaigns.length, 0);
    assert.equal((await report(s.owner, `?from=${today}&to=${today}`)).body.campaigns.length, 1);
    const byNumber = await report(s.owner, `?phone_number_id=${s.phoneNumberId}`);
    assert.equal(byNumber.body.campaigns[0]!.recipients, 5);
    const foreign = await report(s.owner, '?phone_number_id=999999999');
    assert.equal(foreign.status, 400, foreign.text);

    const created = await s.owner.send('POST', '/api/v1/conversation-labels', { name: 'vip' });
    assert.equal(created.status, 201, created.text);
    const path = `/api/v1/conversations/${s.contacts.brazilRead}/labels`;
    const label = await s.owner.send('PUT', path, { labels: ['vip'] });
    assert.equal(label.status, 200, label.text);
    const labelled = (await report(s.owner, '?label=vip')).body.campaigns[0]!;
    assert.equal(labelled.recipients, 1);
    assert.deepEqual(labelled.funnel, { sent: 1, delivered: 1, read: 1, replied: 1, opted_out: 0, failed: 0 });

    const csv = await s.owner.send<string>('GET', '/api/v1/reports/campaigns?format=csv');
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^campaign,template,dispatched_at,recipients,sent,delivered,read,replied,opted_out,failed/);
    assert.match(lines[1]!, new RegExp(`^Spring sale,.*,5,4,3,1,1,1,1,3,4,0,0.1618,`));
  });

  test('isolation and roles: another workspace sees none of it; an agent may not read it, a marketer may', async () => {
    const s = await shop();
    await playedOut(s);
    const other = await ownerSession(server);
    assert.deepEqual((await report(other)).body.campaigns, []);
    const agent = await joinedTeammate(server, s.owner, 'agent');
    assert.equal((await report(agent)).status, 403);
    const marketer = await joinedTeammate(server, s.owner, 'marketer');
    assert.equal((await report(marketer)).body.campaigns.length, 1);
  });

  test('resend-campaign › once, to those sent or delivered who did not read and have not opted out; 409 before it is sent', async () => {
    const s = await shop();
    const scheduled = await action<Campaign>(s.owner, 'create-campaign', {
      name: 'Later',
      template_id: s.templateId,
      variables: ['x', 'y'],
      audience: { contact_ids: [s.contacts.us] },
      scheduled_at: new Date(server.clock.now().getTime() + 86_400_000).toISOString(),
    });
    const early = await action<{ code: string }>(s.owner, 'resend-campaign', { campaign_id: scheduled.body.id });
    assert.equal(early.status, 409, early.text);
    const unknown = await action(s.owner, 'resend-campaign', { campaign_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.status, 404);

    const campaign = await playedOut(s);
    const resend = await action<Campaign>(s.owner, 'resend-campaign', { campaign_id: campaign.id });
    assert.equal(resend.status, 200, resend.text);
    assert.equal(resend.body.name, 'Spring sale (resend)');
    assert.deepEqual(resend.body.audience, { not_read_of: campaign.id });
    const again = await action<Campaign>(s.owner, 'resend-campaign', { campaign_id: campaign.id });
    assert.equal(again.body.id, resend.body.id, 'asking again answers the same resend');

    await runDue(s.owner.workspaceId);
    const recipients = await server.app.services.deps.db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .select('c.phone')
      .where('m.campaign_id', '=', resend.body.id)
      .orderBy('c.phone')
      .execute();
    // Not the reader, not the failed one, not the one who opted out since.
    assert.deepEqual(
      recipients.map((row) => row.phone),
      [PHONES.us, PHONES.brazil].sort(),
    );
    const outcome = (await report(s.owner)).body.campaigns.find((row) => row.id === campaign.id)!;
    assert.equal(outcome.resent_as, resend.body.id);

    const other = await ownerSession(server);
    const foreign = await action(other, 'resend-campaign', { campaign_id: campaign.id });
    assert.equal(foreign.status, 404, 'another workspace cannot resend it');
  });
});
