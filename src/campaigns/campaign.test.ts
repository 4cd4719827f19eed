import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { createTemplate } from '../../test/factories.js';
import { cliJson, runCli } from '../../test/cli.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { Message } from '../messages/message.schema.js';
import { tagRepository } from '../tags/tag.repository.js';
import type { CampaignRecord } from '../triggers/trigger.schema.js';
import { inboundTextWebhook, statusWebhook } from '../whatsapp/webhook.fixtures.js';
import { withCallbackChecked } from '../../test/graph-stand-in.js';
import type { Campaign } from './campaign.schema.js';
import { DISPATCH_PAGE as DISPATCH_PAGES, DISPATCH_PAGE_SPACING_MS } from './campaign.dispatch.js';
import { newContactRow } from '../contacts/contact.repository.js';
import { logInOverHttp } from '../../test/dashboard-session.js';

const { graph, server, cloudWorkspace, postWebhook, connect } = await startWhatsappServer({ outbox: true });
const DISPATCH_PAGE = DISPATCH_PAGES[ENGINE];
const { services } = server.app;
const { scheduler, outbox, deps } = services;
/** Modest jumps: on PostgreSQL an outbox whose clock runs far ahead would claim other files' messages. */
const MINUTE = 60_000;

interface Problem {
  code: string;
  status: number;
  campaign_status?: string;
  errors?: { field: string; message: string }[];
}

interface TestContact {
  id: string;
  phone: string;
  name: string;
}

const stamp = () => server.clock.now().toISOString();
const formatted = (iso: string) => iso.replace('Z', '+00:00');

/** Runs the workspace's due jobs, then lets the outbox deliver what they queued. */
async function runDue(cloud: CloudWorkspace): Promise<void> {
  await scheduler.runDue(cloud.ws.workspaceId);
  outbox.wake();
  await outbox.idle();
}

/** A Cloud workspace whose number is paced at Meta's top tier, 1,000 messages a second. */
async function topTierWorkspace(): Promise<CloudWorkspace> {
  const cloud = await cloudWorkspace();
  const { phoneNumberId, wabaId, accessToken } = cloud;
  await services.channels.useWhatsappCloud(
    { workspaceId: cloud.ws.workspaceId },
    { phoneNumberId, wabaId, accessToken, messagesPerSecond: 1000 },
  );
  return cloud;
}

/** Runs the dispatch's pages, each due DISPATCH_PAGE_SPACING_MS after the one before, and their sends. */
async function dispatchPages(cloud: CloudWorkspace, recipients: number): Promise<void> {
  await runDue(cloud);
  for (let page = 1; page < Math.ceil(recipients / DISPATCH_PAGE); page++) {
    server.clock.advance(DISPATCH_PAGE_SPACING_MS);
    await runDue(cloud);
  }
}

/** Contacts written straight into the table (1,000 API calls would be slow), optionally tagged. */
async function insertContacts(workspaceId: string, count: number, tag?: string): Promise<TestContact[]> {
  const { db, newId } = deps;
  const at = stamp();
  const rows = Array.from({ length: count }, (_, i) =>
    newContactRow({
      id: newId(),
      workspaceId,
      phone: `+1415${2_000_000 + i}`,
      name: `Customer ${i}`,
      email: null,
      customAttributes: '{}',
      at,
    }),
  );
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('contacts')
      .values(rows.slice(i, i + 500))
      .execute();
  if (tag) {
    const [row] = await tagRepository(db).ensure(workspaceId, [tag], newId, at);
    const links = rows.map((contact) => ({ contact_id: contact.id, tag_id: row!.id, created_at: at }));
    for (let i = 0; i < links.length; i += 500) {
      await db
        .insertInto('contact_tags')
        .values(links.slice(i, i + 500))
        .execute();
    }
  }
  return rows.map(({ id, phone, name }) => ({ id, phone, name: name! }));
}

/** Message requests the Graph stand-in received from this workspace's number. */
const sentTo = (cloud: CloudWorkspace) =>
  graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`);

/** Meta's template request; every send carries a Parley message id, for Meta to echo in its statuses. */
const templatePayload = (to: string, name: string, customer: string, code: string) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'template',
  template: {
    name,
    language: { code: 'en_US' },
    components: [
      {
        type: 'body',
        parameters: [
          { type: 'text', text: customer },
          { type: 'text', text: code },
        ],
      },
    ],
  },
});

async function createCampaign(cloud: CloudWorkspace, body: object): Promise<Campaign> {
  const response = await cloud.ws.action<Campaign>('create-campaign', body);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function getCampaign(cloud: CloudWorkspace, campaignId: string): Promise<Campaign> {
  const response = await cloud.ws.action<Campaign>('get-campaign', { campaign_id: campaignId });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function listCampaigns(cloud: CloudWorkspace, status = ''): Promise<string[]> {
  const response = await cloud.ws.action<Campaign[]>('list-campaigns', { status });
  assert.equal(response.status, 200, response.text);
  return response.body.map((campaign) => campaign.id);
}

const counts = (fields: Partial<Campaign['counts']>): Campaign['counts'] => ({
  recipients: 0,
  skipped: 0,
  opted_out: 0,
  queued: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  replied: 0,
  ...fields,
});

describe(`campaigns (${ENGINE})`, () => {
  test('a 1,000-contact campaign by tag: each recipient once in Meta’s format, the opted-out skipped, then sent', async () => {
    const cloud = await topTierWorkspace();
    const { workspaceId } = cloud.ws;
    const template = await createTemplate(services, workspaceId, {
      name: `spring_sale_${randomInt(1e9)}`,
      translations: [{ language: 'en_US', status: 'APPROVED', body: 'Hi {{1}}, use code {{2}} today.' }],
    });
    const contacts = await insertContacts(workspaceId, 1001, 'vip');
    const optedOut = contacts[500]!;
    await deps.db.updateTable('contacts').set({ opted_out_at: stamp() }).where('id', '=', optedOut.id).execute();

    const created = await createCampaign(cloud, {
      name: 'Spring sale',
      template_id: template.id,
      variables: ['{{contact.name}}', 'SPRING'],
      audience: { tag: 'VIP' },
    });
    assert.equal(created.status, 'scheduled');
    assert.equal(created.scheduled_at, null);
    assert.equal(created.template_name, template.name);
    assert.equal(created.language, 'en_US');

    await dispatchPages(cloud, contacts.length);
    const sending = await getCampaign(cloud, created.id);
    assert.equal(sending.status, 'sending');
    assert.deepEqual(sending.counts, counts({ recipients: 1000, skipped: 1, opted_out: 1, sent: 1000 }));

    const requests = sentTo(cloud);
    assert.equal(requests.length, 1000);
    const names = new Map(contacts.filter((c) => c !== optedOut).map((c) => [c.phone, c.name]));
    const seen = new Set<string>();
    for (const { body } of requests) {
      const to = (body as { to: string }).to;
      assert.ok(names.has(to) && !seen.has(to), `one message to each recipient, none to others (${to})`);
      seen.add(to);
      assert.deepEqual(withCallbackChecked(body), templatePayload(to, template.name, names.get(to)!, 'SPRING'));
    }
    assert.equal(seen.size, 1000);

    server.clock.advance(1000);
    await runDue(cloud);
    const sent = await getCampaign(cloud, created.id);
    assert.equal(sent.status, 'sent');
    assert.equal(sent.sent_at, formatted(stamp()));
    const feed = await cloud.ws.get<CampaignRecord[]>('/v1/triggers/new-campaign-sent');
    assert.equal(feed.status, 200, feed.text);
    assert.deepEqual(
      feed.body.map((record) => [record.id, record.status, record.template_name, record.created_at]),
      [[created.id, 'sent', template.name, sent.sent_at]],
    );
  });

  test('a campaign larger than a dispatch page goes out a page a job, each recipient once; a cancel between pages stops the rest', async () => {
    const cloud = await topTierWorkspace();
    const { workspaceId } = cloud.ws;
    const template = await createTemplate(services, workspaceId);
    const contacts = await insertContacts(workspaceId, DISPATCH_PAGE * 1.5, 'crowd');
    const body = { template_id: template.id, variables: ['{{contact.name}}', 'ORD-1'], audience: { tag: 'crowd' } };

    const whole = await createCampaign(cloud, { name: 'Everyone', ...body });
    await runDue(cloud);
    await runDue(cloud);
    // Each page is a job of its own, due a little after the one before: the server answers between pages.
    assert.deepEqual(
      (await getCampaign(cloud, whole.id)).counts,
      counts({ recipients: DISPATCH_PAGE, sent: DISPATCH_PAGE }),
    );
    server.clock.advance(DISPATCH_PAGE_SPACING_MS);
    await runDue(cloud);
    assert.deepEqual(
      (await getCampaign(cloud, whole.id)).counts,
      counts({ recipients: contacts.length, sent: contacts.length }),
    );
    const phones = sentTo(cloud).map(({ body }) => (body as { to: string }).to);
    assert.equal(new Set(phones).size, contacts.length, 'every recipient got one message');
    assert.equal(phones.length, contacts.length, 'nobody got two');
    server.clock.advance(1000);
    await runDue(cloud);
    assert.equal((await getCampaign(cloud, whole.id)).status, 'sent');

    const stopped = await createCampaign(cloud, { name: 'Stopped halfway', ...body });
    await runDue(cloud);
    await runDue(cloud);
    const cancelled = await cloud.ws.action<Campaign>('cancel-campaign', { campaign_id: stopped.id });
    assert.equal(cancelled.status, 200, cancelled.text);
    server.clock.advance(1000);
    await runDue(cloud);
    assert.equal(sentTo(cloud).length, contacts.length + DISPATCH_PAGE, 'the pages after the cancel were never queued');
    assert.deepEqual(
      (await getCampaign(cloud, stopped.id)).counts,
      counts({ recipients: DISPATCH_PAGE, sent: DISPATCH_PAGE }),
    );
  });

  test('variables keyed by the pick-list ids fill the header, the body per recipient, and a URL button', async () => {
    const cloud = await cloudWorkspace();
    const { workspaceId } = cloud.ws;
    const template = await createTemplate(services, workspaceId, {
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          header_type: 'TEXT',
          header_content: 'Your {{1}} order',
          body: 'Hi {{1}}, it has shipped.',
          buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}' }],
        },
      ],
    });
    const contacts = await insertContacts(workspaceId, 2);
    const variables = { '1': '{{contact.name}}', header_1: 'spring', button_0_1: 'ORD-7' };
    const created = await createCampaign(cloud, {
      name: 'Shipped',
      template_id: template.id,
      variables,
      audience: { contact_ids: contacts.map((c) => c.id) },
    });
    assert.deepEqual(created.variables, variables);

    await runDue(cloud);
    const bodies = new Map(sentTo(cloud).map(({ body }) => [(body as { to: string }).to, withCallbackChecked(body)]));
    for (const contact of contacts) {
      // Meta's "Send template messages": a text header parameter, the body's, then the URL button's suffix.
      assert.deepEqual(bodies.get(contact.phone), {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: contact.phone,
        type: 'template',
        template: {
          name: template.name,
          language: { code: 'en_US' },
          components: [
            { type: 'header', parameters: [{ type: 'text', text: 'spring' }] },
            { type: 'body', parameters: [{ type: 'text', text: contact.name }] },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ORD-7' }] },
          ],
        },
      });
    }

    const missing = await cloud.ws.action<Problem>('create-campaign', {
      name: 'Shipped again',
      template_id: template.id,
      variables: { '1': '{{contact.name}}' },
      audience: { contact_ids: contacts.map((c) => c.id) },
    });
    assert.equal(missing.status, 422, missing.text);
    assert.equal(missing.body.code, 'template_variables_mismatch');
  });

  test('create-campaign › a media-header template takes header_media_url; Meta gets the image in the header', async () => {
    const cloud = await cloudWorkspace();
    const { workspaceId } = cloud.ws;
    const template = await createTemplate(services, workspaceId, {
      translations: [
        // A synced template's sample is Meta's upload handle (not a link), so a send must give the image.
        {
          language: 'en_US',
          status: 'APPROVED',
          header_type: 'IMAGE',
          header_content: '4::aW1hZ2UvanBlZw==:ARb',
          body: 'Spring is here.',
        },
      ],
    });
    const [contact] = await insertContacts(workspaceId, 1);
    const base = { name: 'Spring', template_id: template.id, audience: { contact_ids: [contact!.id] } };
    const withoutImage = await cloud.ws.action<Problem>('create-campaign', base);
    assert.equal(withoutImage.status, 422, withoutImage.text);
    assert.deepEqual(
      withoutImage.body.errors?.map((e) => e.field),
      ['header_media_url'],
    );

    const link = 'https://shop.example/spring.jpg';
    const created = await createCampaign(cloud, { ...base, header_media_url: link });
    assert.equal(created.header_media_url, link);
    await runDue(cloud);
    const [sent] = sentTo(cloud);
    // Meta's "Send template messages", media header: {type: "image", image: {link}}.
    assert.deepEqual((withCallbackChecked(sent!.body) as { template: { components: unknown } }).template.components, [
      { type: 'header', parameters: [{ type: 'image', image: { link } }] },
    ]);
  });

  test('dashboard › the review’s audience count and the test send see only their workspace; bad input is a 400', async () => {
    const owner = async (name: string) => {
      const credentials = { email: `${randomUUID()}@example.com`, password: 'correct horse battery' };
      await services.workspaces.setup({ name, ...credentials });
      return logInOverHttp(server, credentials);
    };
    const [shop, other] = [await owner('Shop'), await owner('Other')];
    const { phoneNumberId } = await connect(shop.workspaceId, { messagesPerSecond: 1000 });
    const contacts = await insertContacts(shop.workspaceId, 3, 'vip');
    const template = await createTemplate(services, shop.workspaceId);
    const otherTemplate = await createTemplate(services, other.workspaceId);
    const count = (session: typeof shop, audience: object) =>
      session.send<{ code?: string; contacts?: number; opted_out?: number }>(
        'POST',
        '/api/dashboard/campaigns/review',
        {
          template_id: session === shop ? template.id : otherTemplate.id,
          variables: ['{{contact.name}}', 'ORD-1'],
          audience,
        },
      );
    const counted = async (session: typeof shop, audience: object) => {
      const { contacts, opted_out } = (await count(session, audience)).body;
      return { contacts, opted_out };
    };

    assert.deepEqual(await counted(shop, { tag: 'VIP' }), { contacts: 3, opted_out: 0 });
    assert.deepEqual(await counted(other, { tag: 'vip' }), { contacts: 0, opted_out: 0 });
    const foreign = await count(other, { contact_ids: [contacts[0]!.id] });
    assert.equal(foreign.status, 400, foreign.text);
    assert.equal((await count(shop, { tag: 5 })).status, 400);

    const sample = (session: typeof shop, body: object) =>
      session.send<{ code?: string }>('POST', '/api/dashboard/campaigns/sample', {
        template_id: template.id,
        variables: ['{{contact.name}}', 'ORD-1'],
        ...body,
      });
    assert.equal((await sample(other, { phone: contacts[0]!.phone })).status, 404);
    assert.equal((await sample(shop, { phone: 'not a number' })).status, 400);
    const sent = await sample(shop, { phone: contacts[0]!.phone });
    assert.equal(sent.status, 200, sent.text);
    outbox.wake();
    await outbox.idle();
    const requests = graph.requests.filter((r) => r.path === `/${API_VERSION}/${phoneNumberId}/messages`);
    // Meta's template request, the placeholders filled for the contact with that phone.
    assert.deepEqual(
      requests.map((r) => withCallbackChecked(r.body)),
      [templatePayload(contacts[0]!.phone, template.name, contacts[0]!.name, 'ORD-1')],
    );
  });

  test('create-campaign › refused up front, and nothing is written', async () => {
    const cloud = await cloudWorkspace();
    const { workspaceId } = cloud.ws;
    const [contact] = await insertContacts(workspaceId, 1);
    const approved = await createTemplate(services, workspaceId);
    const pending = await createTemplate(services, workspaceId, {
      translations: [{ language: 'en_US', status: 'PENDING', body: 'Hi {{1}}, your order {{2}} has shipped.' }],
    });
    const base = {
      name: 'Launch',
      template_id: approved.id,
      variables: ['{{contact.name}}', 'ORD-1'],
      audience: { contact_ids: [contact!.id] },
    };
    const refused = async (body: object) => {
      const response = await cloud.ws.action<Problem>('create-campaign', { ...base, ...body });
      return { status: response.status, code: response.body.code, fields: response.body.errors?.map((e) => e.field) };
    };

    assert.deepEqual(await refused({ template_id: randomUUID() }), {
      status: 404,
      code: 'not_found',
      fields: ['template_id'],
    });
    assert.deepEqual(await refused({ template_id: pending.id }), {
      status: 422,
      code: 'template_not_approved',
      fields: ['language'],
    });
    assert.deepEqual(await refused({ variables: ['{{contact.name}}'] }), {
      status: 422,
      code: 'template_variables_mismatch',
      fields: ['variables'],
    });
    const twoKeys = await refused({ audience: { tag: 'vip', contact_ids: [contact!.id] } });
    assert.equal(twoKeys.status, 400);
    assert.equal(twoKeys.code, 'validation_failed');
    assert.ok(
      twoKeys.fields?.length && twoKeys.fields.every((field) => field.startsWith('audience')),
      String(twoKeys.fields),
    );
    const stranger = randomUUID();
    const problems = async (body: object) => {
      const response = await cloud.ws.action<Problem>('create-campaign', { ...base, ...body });
      assert.equal(response.status, 400, response.text);
      return response.body.errors;
    };
    assert.deepEqual(await problems({ audience: { contact_ids: [contact!.id, stranger] } }), [
      {
        field: 'audience.contact_ids',
        message: `1 name no contact of this workspace: ${stranger}`,
        code: 'campaigns.unknown_contacts',
        params: { count: 1, ids: stranger },
      },
    ]);
    assert.deepEqual(await problems({ variables: ['{{context.order}}', 'ORD-1'] }), [
      {
        field: 'variables',
        message: 'a campaign has no context: use {{contact.…}} or {{attributes.…}}',
        code: 'campaigns.no_context',
        params: { contact: '{{contact.…}}', attributes: '{{attributes.…}}' },
      },
    ]);
    assert.deepEqual(await problems({ name: '   ' }), [
      { field: 'name', message: 'must not be blank', code: 'campaigns.not_blank' },
    ]);
    assert.deepEqual(await problems({ audience: { tag: '  ' } }), [
      { field: 'audience.tag', message: 'must not be blank', code: 'campaigns.not_blank' },
    ]);
    // A leap second: the schema's date-time admits it, Date cannot read it.
    assert.deepEqual(await problems({ scheduled_at: '2030-06-30T23:59:60Z' }), [
      { field: 'scheduled_at', message: 'is not a time this server can read', code: 'campaigns.unreadable_time' },
    ]);

    assert.deepEqual(await listCampaigns(cloud), []);
    const jobs = await deps.db.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).execute();
    assert.deepEqual(jobs, []);
  });

  test('a scheduled campaign waits for its time; a cancelled one is never sent', async () => {
    const cloud = await cloudWorkspace();
    const [contact] = await insertContacts(cloud.ws.workspaceId, 1);
    const template = await createTemplate(services, cloud.ws.workspaceId);
    const scheduledAt = new Date(server.clock.now().getTime() + 10 * MINUTE).toISOString();
    const schedule = (name: string) =>
      createCampaign(cloud, {
        name,
        template_id: template.id,
        variables: ['{{contact.name}}', 'ORD-1'],
        audience: { contact_ids: [contact!.id] },
        scheduled_at: scheduledAt,
      });
    const later = await schedule('Later');
    const dropped = await schedule('Dropped');
    assert.equal(later.scheduled_at, formatted(scheduledAt));

    server.clock.advance(10 * MINUTE - 1000);
    await runDue(cloud);
    assert.equal(sentTo(cloud).length, 0, 'nothing before its time');
    assert.equal((await getCampaign(cloud, later.id)).status, 'scheduled');

    const cancelled = await cloud.ws.action<Campaign>('cancel-campaign', { campaign_id: dropped.id });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    const again = await cloud.ws.action<Problem>('cancel-campaign', { campaign_id: dropped.id });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'conflict');
    // The problem's status is the HTTP status; the campaign's own is beside it (as run_status for a flow run).
    assert.equal(again.body.status, 409);
    assert.equal(again.body.campaign_status, 'cancelled');

    server.clock.advance(1000);
    await runDue(cloud);
    server.clock.advance(1000);
    await runDue(cloud);
    const [request] = sentTo(cloud);
    assert.equal(sentTo(cloud).length, 1, 'only the campaign that was not cancelled');
    assert.deepEqual(
      withCallbackChecked(request?.body),
      templatePayload(contact!.phone, template.name, contact!.name, 'ORD-1'),
    );
    const sent = await getCampaign(cloud, later.id);
    assert.equal(sent.status, 'sent');
    assert.deepEqual(sent.counts, counts({ recipients: 1, sent: 1 }));
    const stillCancelled = await getCampaign(cloud, dropped.id);
    assert.equal(stillCancelled.status, 'cancelled');
    assert.deepEqual(stillCancelled.counts, counts({}));
    assert.deepEqual(await listCampaigns(cloud), [dropped.id, later.id], 'newest first');
    assert.deepEqual(await listCampaigns(cloud, 'cancelled'), [dropped.id]);
  });

  test('cancel-campaign › a sending campaign’s messages still in the outbox fail and are never sent', async () => {
    const cloud = await cloudWorkspace();
    const { workspaceId } = cloud.ws;
    const [contact] = await insertContacts(workspaceId, 1);
    const template = await createTemplate(services, workspaceId);
    const campaign = await createCampaign(cloud, {
      name: 'Interrupted',
      template_id: template.id,
      variables: ['Ada', 'ORD-2'],
      audience: { contact_ids: [contact!.id] },
      scheduled_at: new Date(server.clock.now().getTime() + 10 * MINUTE).toISOString(),
    });
    // Mid-dispatch, as the engine leaves it: sending, one message waiting (due later, so the outbox leaves it).
    const { db, newId } = deps;
    await db.updateTable('campaigns').set({ status: 'sending' }).where('id', '=', campaign.id).execute();
    const later = new Date(server.clock.now().getTime() + 5 * MINUTE).toISOString();
    const message = { id: newId() };
    await db
      .insertInto('messages')
      .values({
        id: message.id,
        workspace_id: workspaceId,
        contact_id: contact!.id,
        campaign_id: campaign.id,
        direction: 'outbound',
        type: 'template',
        content: '{}',
        status: 'queued',
        next_attempt_at: later,
        created_at: stamp(),
        updated_at: stamp(),
        feed_record: null,
      })
      .execute();

    const cancelled = await cloud.ws.action<Campaign>('cancel-campaign', { campaign_id: campaign.id });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.deepEqual(cancelled.body.counts, counts({ failed: 1 }));
    const failed = await cloud.ws.action<Message>('get-message', { message_id: message.id });
    assert.equal(failed.body.status, 'failed');
    assert.deepEqual(failed.body.error, { code: null, title: 'campaign cancelled', details: null, reason: null });
    const row = await db
      .selectFrom('messages')
      .select('next_attempt_at')
      .where('id', '=', message.id)
      .executeTakeFirst();
    assert.equal(row?.next_attempt_at, null);
    const jobs = await db.selectFrom('jobs').select('id').where('subject_id', '=', campaign.id).execute();
    assert.deepEqual(jobs, [], 'the pending dispatch is gone');

    server.clock.advance(15 * MINUTE);
    await runDue(cloud);
    assert.equal(sentTo(cloud).length, 0);
  });

  test('get-campaign › counts follow status webhooks, and replies after the dispatch count', async () => {
    const cloud = await cloudWorkspace();
    const { workspaceId } = cloud.ws;
    const { phoneNumberId } = cloud;
    const contacts = await insertContacts(workspaceId, 3);
    const template = await createTemplate(services, workspaceId);
    const writes = async (contact: TestContact) => {
      const body = inboundTextWebhook({
        phoneNumberId,
        from: contact.phone.replace('+', ''),
        name: contact.name,
        wamid: `wamid.IN${randomInt(1e9)}`,
        text: 'STOP? no, tell me more',
        timestamp: server.clock.now(),
      });
      assert.equal((await postWebhook(body)).status, 200);
    };
    // Wrote in before the campaign: not a reply to it.
    await writes(contacts[0]!);
    server.clock.advance(2000);

    const campaign = await createCampaign(cloud, {
      name: 'Follow-up',
      template_id: template.id,
      variables: ['{{contact.name}}', 'ORD-9'],
      audience: { contact_ids: contacts.map((c) => c.id) },
    });
    await runDue(cloud);
    const messages = await deps.db
      .selectFrom('messages as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .select(['m.provider_message_id as wamid', 'c.phone'])
      .where('m.campaign_id', '=', campaign.id)
      .orderBy('c.phone')
      .execute();
    assert.deepEqual(
      messages.map((m) => m.phone),
      contacts.map((c) => c.phone),
    );
    const status = async (index: number, value: string) => {
      const { wamid, phone } = messages[index]!;
      const body = statusWebhook({ phoneNumberId, wamid: wamid!, status: value, recipient: phone });
      assert.equal((await postWebhook(body)).status, 200);
    };
    await status(0, 'delivered');
    await status(1, 'delivered');
    await status(1, 'read');
    server.clock.advance(2000);
    await writes(contacts[2]!);

    const live = await getCampaign(cloud, campaign.id);
    // One count everywhere: a read message was delivered and sent too (sent ≥ delivered ≥ read).
    assert.deepEqual(live.counts, counts({ recipients: 3, sent: 3, delivered: 2, read: 1, replied: 1 }));
    const listed = await cloud.ws.action<Campaign[]>('list-campaigns', {});
    assert.deepEqual(listed.body.find((c) => c.id === campaign.id)?.counts, live.counts, 'the list counts alike');
  });

  test('dashboard › the review shows the message as its first recipient gets it, and its cost at the rates', async () => {
    const credentials = { email: `${randomUUID()}@example.com`, password: 'correct horse battery' };
    await services.workspaces.setup({ name: 'Spring Shop', ...credentials });
    const session = await logInOverHttp(server, credentials);
    const caller = { workspaceId: session.workspaceId };
    const contacts = await insertContacts(caller.workspaceId, 3, 'spring');
    await services.contacts.setOptedOut(caller, contacts[0]!.id, true);
    const template = await createTemplate(services, caller.workspaceId, {
      category: 'MARKETING',
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          header_type: 'TEXT',
          header_content: 'Spring sale',
          body: 'Hi {{1}}, use {{2}} at the till.',
          footer: 'Reply STOP to opt out',
          buttons: [{ type: 'QUICK_REPLY', text: 'Not now' }],
        },
      ],
    });
    const review = () =>
      session.send<{
        contacts: number;
        opted_out: number;
        preview: { contact_name: string; header_text: string; text: string; footer: string; buttons: unknown };
        cost: { currency: string; amount: number; markets: { rate: number | null; source: string | null }[] };
      }>('POST', '/api/dashboard/campaigns/review', {
        template_id: template.id,
        variables: ['{{contact.first_name}}', 'SPRING'],
        audience: { tag: 'spring' },
      });
    const before = await review();
    assert.equal(before.status, 200, before.text);
    assert.deepEqual([before.body.contacts, before.body.opted_out], [3, 1]);
    // Customer 0 opted out: the first to receive it is Customer 1, whose first name fills the body.
    assert.deepEqual(before.body.preview, {
      contact_name: 'Customer 1',
      contact_phone: contacts[1]!.phone,
      header_text: 'Spring sale',
      header_media: null,
      text: 'Hi Customer, use SPRING at the till.',
      footer: 'Reply STOP to opt out',
      buttons: [{ type: 'QUICK_REPLY', text: 'Not now' }],
    });
    // Without rates of its own, Meta's shipped USD card prices the two +1 numbers (North America).
    assert.deepEqual(before.body.cost, {
      currency: 'USD',
      category: 'marketing',
      messages: 2,
      amount: 0.05,
      unpriced: 0,
      markets: [{ market: 'North America', messages: 2, rate: 0.025, amount: 0.05, source: 'meta_card' }],
      messaging_limit: null,
      past_room: 0,
    });

    await services.reports.saveRates(caller, { currency: 'EUR', rates: { marketing: 0.0613 } });
    assert.deepEqual((await review()).body.cost, {
      currency: 'EUR',
      category: 'marketing',
      messages: 2,
      amount: 0.1226,
      unpriced: 0,
      markets: [{ market: 'North America', messages: 2, rate: 0.0613, amount: 0.1226, source: 'workspace_rate' }],
      messaging_limit: null,
      past_room: 0,
    });
  });

  test('cli › campaign create, get, list and cancel, with the same checks as the API', async () => {
    const cloud = await cloudWorkspace();
    const template = await createTemplate(services, cloud.ws.workspaceId, { name: `cli_${Date.now()}` });
    await insertContacts(cloud.ws.workspaceId, 3, 'cli');
    const workspace = ['--workspace', cloud.ws.workspaceId];
    const later = new Date(server.clock.now().getTime() + 3_600_000).toISOString();
    const created = await cliJson<Campaign>(
      server,
      'campaign',
      'create',
      ...workspace,
      '--name',
      'Launch',
      '--template-id',
      template.id,
      '--tag',
      'cli',
      '--variables',
      '["Ada","ORD-1"]',
      '--scheduled-at',
      later,
    );
    assert.equal(created.status, 'scheduled');
    const fetched = await cliJson<Campaign>(server, 'campaign', 'get', ...workspace, '--id', created.id);
    assert.equal(fetched.name, 'Launch');
    const listed = await cliJson<Campaign[]>(server, 'campaign', 'list', ...workspace, '--status', 'scheduled');
    assert.deepEqual(
      listed.map((c) => c.id),
      [created.id],
    );
    assert.equal(
      (await cliJson<Campaign>(server, 'campaign', 'cancel', ...workspace, '--id', created.id)).status,
      'cancelled',
    );
    const refused = await runCli(
      server,
      'campaign',
      'create',
      ...workspace,
      '--name',
      'X',
      '--template-id',
      template.id,
      '--tag',
      'a',
      '--search',
      'b',
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /audience/);
    const lone = await runCli(
      server,
      'campaign',
      'create',
      ...workspace,
      '--name',
      'Y',
      '--template-id',
      template.id,
      '--tag',
      'cli',
      '--variables',
      '["\\ud800","ORD-1"]',
    );
    assert.equal(lone.code, 1, lone.stderr);
    assert.match(lone.stderr, /^parley: variables\.0: must not contain a lone UTF-16 surrogate/);
    const all = await cliJson<Campaign[]>(server, 'campaign', 'list', ...workspace);
    assert.deepEqual(
      all.map((c) => c.id),
      [created.id],
      'the refused campaigns were not created',
    );
  });
});
