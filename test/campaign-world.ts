import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import type { Campaign } from '../src/campaigns/campaign.schema.js';
import type { CampaignReport } from '../src/reports/campaign-report.schema.js';
import { documentedStatusWebhook } from '../src/whatsapp/webhook.delivery-fixtures.js';
import { inboundTextWebhook } from '../src/whatsapp/webhook.fixtures.js';
import { ownerSession, type DashboardSession } from './dashboard-session.js';
import { createTemplate } from './factories.js';
import type { WhatsappTestBed } from './whatsapp.js';

/** Recipients in three of Meta's markets (the card prices each by its country calling code). */
export const PHONES = {
  brazilRead: '+5511987650001',
  brazil: '+5511987650002',
  india: '+919876500003',
  us: '+14155550004',
  usFailed: '+14155550005',
};

export interface Shop {
  owner: DashboardSession;
  phoneNumberId: string;
  contacts: Record<keyof typeof PHONES, string>;
  templateId: string;
}

export async function action<T>(session: DashboardSession, name: string, body: object) {
  return session.send<T>('POST', `/api/v1/actions/${name}`, body);
}

export const campaignReport = (session: DashboardSession, query = '') =>
  session.send<CampaignReport>('GET', `/api/v1/reports/campaigns${query}`);

/**
 * A shop whose campaign played out through public surfaces (the API as its owner's dashboard session,
 * Meta's status webhooks in its reference's format, a customer's reply): the campaign report's and its
 * dashboard section's world.
 */
export function campaignWorld(bed: Pick<WhatsappTestBed, 'server' | 'postWebhook' | 'connect'>) {
  const { server, postWebhook, connect } = bed;
  const { scheduler, outbox } = server.app.services;

  /** Runs the workspace's due jobs, then lets the outbox deliver what they queued. */
  async function runDue(workspaceId: string): Promise<void> {
    await scheduler.runDue(workspaceId);
    outbox.wake();
    await outbox.idle();
  }

  /** A workspace on its own Cloud number with the five recipients and an approved marketing template. */
  async function shop(): Promise<Shop> {
    const owner = await ownerSession(server);
    const { phoneNumberId } = await connect(owner.workspaceId, { messagesPerSecond: 1000 });
    const contacts = {} as Shop['contacts'];
    for (const [key, phone] of Object.entries(PHONES)) {
      const created = await action<{ id: string }>(owner, 'create-contact', { phone, name: key });
      assert.equal(created.status, 201, created.text);
      contacts[key as keyof typeof PHONES] = created.body.id;
    }
    const template = await createTemplate(server.app.services, owner.workspaceId, {
      name: `spring_${randomInt(1e9)}`,
      category: 'MARKETING',
    });
    return { owner, phoneNumberId, contacts, templateId: template.id };
  }

  /** Sends a campaign to everyone and lets it finish (dispatch, outbox, the check that marks it sent). */
  async function sentCampaign(s: Shop, name = 'Spring sale'): Promise<Campaign> {
    const created = await action<Campaign>(s.owner, 'create-campaign', {
      name,
      template_id: s.templateId,
      variables: ['{{contact.name}}', 'SPRING'],
      audience: { contact_ids: Object.values(s.contacts) },
    });
    assert.equal(created.status, 200, created.text);
    await runDue(s.owner.workspaceId);
    server.clock.advance(1000);
    await runDue(s.owner.workspaceId);
    const sent = await action<Campaign>(s.owner, 'get-campaign', { campaign_id: created.body.id });
    assert.equal(sent.body.status, 'sent');
    return sent.body;
  }

  /** Meta's status webhooks (its reference's format: pricing on sent and delivered, 131050 on failed). */
  async function statuses(
    s: Shop,
    campaign: Campaign,
    byPhone: Partial<Record<string, ('sent' | 'delivered' | 'read' | 'failed')[]>>,
    /** Each recipient's `pricing` object in place of the reference example's. */
    pricingOf: (phone: string) => Record<string, unknown> | undefined = () => undefined,
  ) {
    const messages = await server.app.services.deps.db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .select(['m.provider_message_id as wamid', 'c.phone'])
      .where('m.campaign_id', '=', campaign.id)
      .execute();
    for (const { wamid, phone } of messages) {
      for (const status of byPhone[phone] ?? []) {
        const body = documentedStatusWebhook({
          phoneNumberId: s.phoneNumberId,
          wamid: wamid!,
          status,
          recipient: phone,
          timestamp: server.clock.now(),
          pricing: pricingOf(phone),
        });
        assert.equal((await postWebhook(body)).status, 200);
      }
    }
  }

  /** The week's campaign: one read and replied, two delivered (one opted out after), one sent, one failed. */
  async function playedOut(s: Shop): Promise<Campaign> {
    const campaign = await sentCampaign(s);
    await statuses(s, campaign, {
      [PHONES.brazilRead]: ['sent', 'delivered', 'read'],
      [PHONES.brazil]: ['sent', 'delivered'],
      [PHONES.india]: ['sent', 'delivered'],
      [PHONES.us]: ['sent'],
      [PHONES.usFailed]: ['failed'],
    });
    server.clock.advance(1000);
    const reply = inboundTextWebhook({
      phoneNumberId: s.phoneNumberId,
      from: PHONES.brazilRead.slice(1),
      name: 'brazilRead',
      wamid: `wamid.IN${randomInt(1e9)}`,
      text: 'Quero!',
      timestamp: server.clock.now(),
    });
    assert.equal((await postWebhook(reply)).status, 200);
    const optOut = await action(s.owner, 'update-contact', { contact_id: s.contacts.india, opted_out: true });
    assert.equal(optOut.status, 200, optOut.text);
    return campaign;
  }

  return { shop, sentCampaign, statuses, playedOut, runDue };
}
