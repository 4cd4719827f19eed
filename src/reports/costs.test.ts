import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../test/cli.js';
import { action, campaignWorld, PHONES } from '../../test/campaign-world.js';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import type { InboxMessage } from '../inbox/inbox.presenter.js';
import type { CampaignEstimate, CostLedger } from './cost.schema.js';

const { server, postWebhook, connect } = await startWhatsappServer({ outbox: true });
const { shop, sentCampaign, statuses } = campaignWorld({ server, postWebhook, connect });

/**
 * Meta's rate card CSV as its downloads lay it out: the card's title lines, then a header row with one
 * column per pricing category, one row per market, n/a where a market has no rate.
 */
const CARD = [
  'WhatsApp Business Platform rate card,,,,,,',
  'Rates effective for messages delivered on or after the date shown,,,,,,',
  'Market,Currency,Marketing,Utility,Authentication,Authentication-International,Service',
  'Brazil,USD,0.5000,0.0080,0.0080,n/a,0.00',
  'North America,USD,0.3000,0.0040,0.0040,n/a,0.00',
].join('\n');

const day = (offsetDays: number) =>
  new Date(server.clock.now().getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const importCard = (session: DashboardSession, body: object) =>
  session.send<{ effective_from: string; markets: number; errors?: { field: string; code: string }[] }>(
    'POST',
    '/api/dashboard/reports/rate-cards',
    body,
  );

const ledger = (session: DashboardSession, groupBy: string) =>
  session.send<CostLedger>('GET', `/api/v1/reports/costs?group_by=${groupBy}`);

describe(`message costs (${ENGINE})`, () => {
  test('Meta’s rate card CSV: a malformed file is refused naming the row and column; a member may not import', async () => {
    const owner = await ownerSession(server);
    const bad: [string, string, Record<string, unknown>?][] = [
      ['Country code,Price\n55,0.1', 'reports.card_header'],
      ['Market,Marketing\nBrazil,0.1\nAtlantis,0.2', 'reports.card_market', { row: 3, market: 'Atlantis' }],
      [
        'Market,Marketing,Utility\nBrazil,0.1,cheap',
        'reports.card_price',
        { row: 2, column: 'Utility', value: 'cheap' },
      ],
      ['Market,Currency,Marketing\nBrazil,USD,0.1\nIndia,EUR,0.2', 'reports.card_currency_varies', { row: 3 }],
    ];
    for (const [csv, code, params] of bad) {
      const refused = await importCard(owner, { csv, effective_from: '2026-01-01', currency: 'USD' });
      assert.equal(refused.status, 400, csv);
      assert.deepEqual(
        { field: refused.body.errors?.[0]?.field, code: refused.body.errors?.[0]?.code },
        { field: 'file', code },
      );
      if (params) assert.deepEqual((refused.body.errors?.[0] as { params?: object }).params, params);
    }
    const badDate = await importCard(owner, { csv: CARD, effective_from: '2026-02-30' });
    assert.equal(badDate.body.errors?.[0]?.field, 'effective_from');
    const mate = await joinedTeammate(server, owner);
    assert.equal((await importCard(mate, { csv: CARD, effective_from: '2026-01-01' })).status, 403);
    assert.deepEqual((await owner.send('GET', '/api/dashboard/reports/rate-cards')).body, []);
  });

  test('a campaign is estimated, then priced by the card in effect when sent; the ledger adds it up by day, number and campaign', async () => {
    const s = await shop();
    const imported = await importCard(s.owner, { csv: CARD, effective_from: day(-30), source: 'usd.csv' });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    assert.equal(imported.body.markets, 2);
    const twice = await importCard(s.owner, { csv: CARD, effective_from: day(-30) });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.errors?.[0]?.code, 'reports.card_date_taken');
    // The workspace prices in the card's currency: rates in another one are refused.
    const euros = await s.owner.send('PUT', '/api/dashboard/reports/rates', { currency: 'EUR', rates: {} });
    assert.equal(euros.status, 400);

    // The dry run: Brazil and North America at the card's rates, India (no card row) at Meta's shipped card.
    const body = {
      template_id: s.templateId,
      variables: ['{{contact.name}}', 'SPRING'],
      audience: { contact_ids: Object.values(s.contacts) },
    };
    const estimate = await action<CampaignEstimate>(s.owner, 'estimate-campaign', body);
    assert.equal(estimate.status, 200, estimate.text);
    assert.deepEqual(estimate.body, {
      currency: 'USD',
      category: 'marketing',
      messages: 5,
      amount: 1.6118,
      unpriced: 0,
      markets: [
        { market: 'Brazil', messages: 2, rate: 0.5, amount: 1, source: 'rate_card' },
        { market: 'North America', messages: 2, rate: 0.3, amount: 0.6, source: 'rate_card' },
        { market: 'India', messages: 1, rate: 0.0118, amount: 0.0118, source: 'meta_card' },
      ],
      messaging_limit: null,
      past_room: 0,
    });
    const listed = await action<unknown[]>(s.owner, 'list-campaigns', {});
    assert.deepEqual(listed.body, [], 'a dry run creates nothing');

    const campaign = await sentCampaign(s);
    const charged = { pricing_model: 'PMP', category: 'marketing', type: 'regular' };
    const sent = [PHONES.brazilRead, PHONES.brazil, PHONES.india, PHONES.us];
    await statuses(s, campaign, Object.fromEntries(sent.map((phone) => [phone, ['sent' as const]])), () => charged);
    // A later card prices later messages only: these stay at the card in effect when they were sent.
    const later = await importCard(s.owner, { csv: CARD.replace('0.5000', '9.0000'), effective_from: day(1) });
    assert.equal(later.status, 201);

    // The report and the ledger price alike: the estimate less the recipient whose message failed (US 0.3).
    const report = await s.owner.send<{ campaigns: { cost: { amount: number } }[] }>(
      'GET',
      '/api/v1/reports/campaigns',
    );
    assert.equal(report.body.campaigns[0]!.cost.amount, 1.3118);
    const byCampaign = (await ledger(s.owner, 'campaign')).body;
    assert.deepEqual(
      byCampaign.groups.map((g) => ({ key: g.key, name: g.name, amount: g.cost.amount, billable: g.cost.billable })),
      [{ key: campaign.id, name: 'Spring sale', amount: 1.3118, billable: 4 }],
    );
    assert.deepEqual(
      byCampaign.pricing.rate_cards.map((card) => card.effective_from),
      [day(1), day(-30)],
    );
    const byNumber = (await ledger(s.owner, 'channel')).body;
    assert.deepEqual(
      byNumber.groups.map((g) => [g.key, g.cost.amount]),
      [[s.phoneNumberId, 1.3118]],
    );
    const byDay = (await ledger(s.owner, 'day')).body;
    assert.equal(byDay.groups.length, 30);
    assert.deepEqual(
      byDay.groups.filter((g) => g.cost.billable > 0).map((g) => [g.key, g.cost.amount]),
      [[day(0), 1.3118]],
    );
    assert.equal(byDay.total.amount, 1.3118);
    const csv = await s.owner.send('GET', '/api/v1/reports/costs?group_by=campaign&format=csv');
    assert.match(csv.text, /^campaign,name,billable,unpriced,cost_usd\r?\n/);

    // The next day the later card prices new estimates; another workspace sees none of it.
    server.clock.advance(2 * 86_400_000);
    const tomorrow = await action<CampaignEstimate>(s.owner, 'estimate-campaign', body);
    assert.equal(tomorrow.body.markets[0]!.rate, 9);
    const other = await ownerSession(server);
    assert.equal((await ledger(other, 'campaign')).body.groups.length, 0);
    const removed = await s.owner.send<unknown[]>('DELETE', `/api/dashboard/reports/rate-cards/${day(-1)}`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.length, 1);
  });

  test('a message’s own cost in its thread: the ledger’s rule for each charged message, none for a free one', async () => {
    const s = await shop();
    assert.equal((await importCard(s.owner, { csv: CARD, effective_from: day(-30) })).status, 201);
    const campaign = await sentCampaign(s);
    const pricing: Record<string, Record<string, unknown>> = {
      [PHONES.brazil]: { pricing_model: 'PMP', category: 'marketing', type: 'regular' },
      [PHONES.india]: { pricing_model: 'PMP', category: 'marketing', type: 'regular' },
      [PHONES.brazilRead]: { pricing_model: 'PMP', category: 'service', type: 'free_customer_service' },
    };
    const sent = Object.fromEntries(Object.keys(pricing).map((phone) => [phone, ['sent' as const]]));
    await statuses(s, campaign, sent, (phone) => pricing[phone]);

    const costIn = async (contact: keyof typeof PHONES) => {
      const thread = await s.owner.send<{ messages: InboxMessage[] }>(
        'GET',
        `/api/dashboard/conversations/${s.contacts[contact]}`,
      );
      assert.equal(thread.status, 200, thread.text);
      return thread.body.messages.find((m) => m.direction === 'outbound')?.cost;
    };
    assert.deepEqual(await costIn('brazil'), {
      category: 'marketing',
      market: 'Brazil',
      amount: 0.5,
      currency: 'USD',
      source: 'rate_card',
    });
    // India has no row on the imported card: Meta's shipped USD card prices it, as in the ledger.
    assert.deepEqual(await costIn('india'), {
      category: 'marketing',
      market: 'India',
      amount: 0.0118,
      currency: 'USD',
      source: 'meta_card',
    });
    assert.equal(await costIn('brazilRead'), null, 'a free customer-service message costs nothing');
    assert.equal(await costIn('us'), null, 'a message Meta has not priced yet has no cost');
  });

  test('parley rates import › the same import as the dashboard’s: the card is listed; a bad file exits 1 naming its row', async () => {
    const owner = await ownerSession(server);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-rates-'));
    const file = path.join(dir, 'meta-usd.csv');
    fs.writeFileSync(file, CARD);
    const args = ['rates', 'import', '--workspace', owner.workspaceId, file, '--effective-from', '2026-01-01'];
    const imported = await runCli(server, ...args);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(pick(JSON.parse(imported.stdout) as Record<string, unknown>), {
      effective_from: '2026-01-01',
      currency: 'USD',
      source: 'meta-usd.csv',
      markets: 2,
    });
    const cards = await owner.send<Record<string, unknown>[]>('GET', '/api/dashboard/reports/rate-cards');
    assert.deepEqual(cards.body.map(pick), [JSON.parse(imported.stdout) as Record<string, unknown>].map(pick));
    assert.equal((await runCli(server, ...args)).code, 1, 'a second card from the same day is refused');

    fs.writeFileSync(file, 'Market,Marketing\nBrazil,0.1\nAtlantis,0.2');
    const bad = await runCli(server, ...args.slice(0, -1), '2026-02-01', '--currency', 'USD');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^parley: .*row 3: “Atlantis” is not a market/m);
    assert.equal((await owner.send<unknown[]>('GET', '/api/dashboard/reports/rate-cards')).body.length, 1);
    fs.rmSync(dir, { recursive: true });
  });
});

const pick = ({ effective_from, currency, source, markets }: Record<string, unknown>) => ({
  effective_from,
  currency,
  source,
  markets,
});
