import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Flow } from '../../src/flows/flow.schema.js';
import type { Sequence } from '../../src/sequences/sequence.schema.js';
import { inboundMessageWebhook, inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { createTemplate, ownerApi } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { inboxWorld } from './inbox-world.js';

const whatsapp = await startWhatsappServer({ outbox: true });
const { server, postWebhook } = whatsapp;
const { scheduler, outbox } = server.app.services;

const world = inboxWorld(whatsapp);

/** A workspace on the Graph API stand-in: its owner (who logs in) and an API client for the same workspace. */
async function cloudOwner(name: string) {
  const owner = await world.cloudOwner(name);
  return { ...owner, api: await ownerApi(server, owner) };
}

/** The customer writes a text, or taps a reply button, through Meta's webhook; what it starts is sent. */
async function customerSends(
  owner: { phoneNumberId: string; workspaceId: string },
  from: string,
  message: { text: string } | { button: string },
) {
  const line = { phoneNumberId: owner.phoneNumberId, from, name: 'Ada' };
  const body =
    'text' in message
      ? inboundTextWebhook({ ...line, text: message.text })
      : inboundMessageWebhook({
          ...line,
          type: 'interactive',
          content: { type: 'button_reply', button_reply: { id: message.button, title: message.button } },
        });
  assert.equal((await postWebhook(body)).status, 200);
  await scheduler.runDue(owner.workspaceId);
  outbox.wake();
  await outbox.idle();
}

/** A flow the keyword "help" starts: buttons, a wait, and a hand-off with a note when a person is asked for. */
const supportFlow = {
  start: 'menu',
  keywords: ['help'],
  nodes: [
    {
      id: 'menu',
      type: 'send_buttons',
      text: 'What do you need?',
      buttons: [
        { id: 'order', title: 'My order' },
        { id: 'person', title: 'A person' },
      ],
      next: 'wait',
    },
    { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'route' },
    { id: 'route', type: 'branch', branches: [{ when: { button_id: 'person' }, next: 'handoff' }], default: 'end' },
    { id: 'handoff', type: 'handoff', note: 'Asked about a refund' },
    { id: 'end', type: 'end' },
  ],
};

const panel = (page: Page) => page.getByRole('complementary', { name: 'Contact and automation' });

describe(`dashboard: the thread's side panel (${ENGINE})`, () => {
  test('shows the contact, tags, a waiting flow, sequences and campaigns; stops them; shows the hand-off note', async () => {
    const owner = await cloudOwner('Panel Bakery');
    const { api } = owner;
    const customer = `491511${randomInt(1_000_000, 9_999_999)}`;
    const saved = await api.action<Flow>('save-flow', { name: 'Support bot', definition: supportFlow });
    assert.equal(saved.status, 200, saved.text);
    const flow = saved.body;
    await customerSends(owner, customer, { text: 'help' });
    const contact = (await api.action<{ id: string }>('get-contact', { phone: `+${customer}` })).body;
    await api.action('update-contact', { contact_id: contact.id, metadata: { plan: 'Gold' } });
    const sequence = await api.action<Sequence>('save-sequence', {
      name: 'Nurture',
      exit_on: { reply: false, tags: [] },
      steps: [{ delay: 'P1D', action: { type: 'add_tag', tag: 'nurtured' } }],
    });
    const enrolled = await api.action('trigger-sequence', { sequence_id: sequence.body.id, contact_id: contact.id });
    assert.equal(enrolled.status, 200, enrolled.text);
    const template = await createTemplate(server.app.services, owner.workspaceId);
    const campaign = await api.action('create-campaign', {
      name: 'Spring sale',
      template_id: template.id,
      variables: ['{{contact.name}}', 'A-1'],
      audience: { contact_ids: [contact.id] },
    });
    assert.equal(campaign.status, 200, campaign.text);
    await scheduler.runDue(owner.workspaceId);
    outbox.wake();
    await outbox.idle();

    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/inbox/${contact.id}`);
    const side = panel(page);
    await side.getByText('Support bot is waiting for the customer’s reply.').waitFor();
    await side.getByText('Gold').waitFor();
    await side.getByText(/Spring sale/).waitFor();
    await side.getByText('Subscribed to marketing messages.').waitFor();
    await screenshot(page, 'side-panel');

    await side.getByLabel('New tag').fill('vip');
    await side.getByRole('button', { name: 'Add tag' }).click();
    await side.getByRole('button', { name: 'Remove tag vip' }).waitFor();
    assert.deepEqual((await api.action<{ tags: string[] }>('get-contact', { contact_id: contact.id })).body.tags, [
      'vip',
    ]);

    await side.getByRole('button', { name: 'Stop sequence Nurture' }).click();
    await side.getByText(/Nurture · stopped/).waitFor();
    const nurture = await api.action<Sequence>('get-sequence', { sequence_id: sequence.body.id });
    assert.equal(nurture.body.enrolments.exited, 1);

    await side.getByRole('status').getByRole('button', { name: 'Stop flow Support bot' }).click();
    await side.getByText(/Support bot · stopped/).waitFor();
    assert.equal(await side.getByText('is waiting for the customer’s reply').count(), 0);
    assert.equal((await api.action<Flow>('get-flow', { flow_id: flow.id })).body.runs.cancelled, 1);

    // The bot runs again and the customer asks for a person: the note reaches the agent, live.
    await customerSends(owner, customer, { text: 'help' });
    await side.getByText('Support bot is waiting for the customer’s reply.').waitFor();
    await customerSends(owner, customer, { button: 'person' });
    await side.getByText('Support bot handed this conversation to a person: “Asked about a refund”').waitFor();
    await page.getByText('Needs a person').first().waitFor();
  });

  test('at 375 px the panel folds above the thread, with the automation status in view, and is accessible', async () => {
    const owner = await cloudOwner('Small Bakery');
    const customer = `491511${randomInt(1_000_000, 9_999_999)}`;
    await owner.api.action('save-flow', { name: 'Support bot', definition: supportFlow });
    await customerSends(owner, customer, { text: 'help' });
    const contact = (await owner.api.action<{ id: string }>('get-contact', { phone: `+${customer}` })).body;

    const { page } = await newPage(server, { width: 375, height: 740, bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${contact.id}`);
    const side = panel(page);
    await side.getByText('Support bot is waiting for the customer’s reply.').waitFor();
    assert.equal(await side.getByRole('heading', { name: 'Tags' }).isVisible(), false, 'folded on a phone');
    await side.getByText('Contact details').click();
    await side.getByRole('heading', { name: 'Tags' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page scrolls sideways: ${width}px`);
    await screenshot(page, 'side-panel-375');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('the contact page links to the conversation and starts one with a template outside the window', async () => {
    const owner = await cloudOwner('Quiet Bakery');
    const template = await createTemplate(server.app.services, owner.workspaceId);
    const created = await owner.api.action<{ id: string }>('create-contact', {
      phone: '+4915112349999',
      name: 'Quinn',
    });

    const { page } = await newPage(server, { width: 375, height: 740 });
    await logIn(page, owner);
    await page.goto(`/contacts/${created.body.id}`);
    const conversation = page.getByRole('region', { name: 'Conversation' });
    await conversation.getByRole('link', { name: 'Start a conversation' }).waitFor();
    await conversation.getByRole('button', { name: 'Send a template' }).click();
    await conversation.getByLabel('Template', { exact: true }).selectOption(template.id);
    await conversation.getByLabel('Variable {{1}}').fill('Quinn');
    await conversation.getByLabel('Variable {{2}}').fill('B-12');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page scrolls sideways: ${width}px`);
    await screenshot(page, 'contact-start-conversation-375');
    await conversation.getByRole('button', { name: 'Send template' }).click();

    await page.waitForURL(`**/inbox/${created.body.id}`);
    await page.getByRole('list', { name: 'Messages' }).getByText('Hi Quinn, your order B-12 has shipped.').waitFor();
    await page.goto(`/contacts/${created.body.id}`);
    await page.getByRole('link', { name: 'Open in the inbox' }).click();
    await page.waitForURL(`**/inbox/${created.body.id}`);
  });
});
