import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Flow } from '../../src/flows/flow.schema.js';
import { bookingFlowJson } from '../../src/whatsapp-flows/whatsapp-flow.fixtures.js';
import type { WhatsappFlow } from '../../src/whatsapp-flows/whatsapp-flow.schema.js';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ownerApi, type TestWorkspace } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const whatsapp = await startWhatsappServer();
const { server } = whatsapp;

/** A WhatsApp Flow of the workspace's account with the booking form; published unless asked otherwise. */
async function bookingForm(api: TestWorkspace, name: string, publish = true): Promise<WhatsappFlow> {
  const flow = (await api.action<WhatsappFlow>('create-whatsapp-flow', { name, categories: ['OTHER'] })).body;
  await api.action('update-whatsapp-flow-json', { whatsapp_flow_id: flow.id, flow_json: bookingFlowJson() });
  if (!publish) return flow;
  return (await api.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: flow.id })).body;
}

const card = (page: Page, title: string) =>
  page.locator('.flow-card', { has: page.locator('.card-title', { hasText: new RegExp(`^${title}$`) }) });
const panel = (page: Page) => page.locator('.node-panel');

async function addNode(page: Page, type: string, name: string) {
  await page.getByLabel('New node').selectOption({ label: type });
  await page.getByRole('button', { name: 'Add node', exact: true }).click();
  await panel(page).getByLabel('Title', { exact: true }).fill(name);
  await card(page, name).waitFor();
}

async function open(page: Page, title: string) {
  await page.locator(`.react-flow__node[aria-label^="${title},"]`).focus();
  await page.keyboard.press('Enter');
  await panel(page)
    .getByRole('heading', { name: new RegExp(`^${title} ·`) })
    .waitFor();
}

/** Chooses where an exit of the open card goes, in its form. */
async function goTo(page: Page, exit: string, to: string) {
  const select = panel(page).getByRole('group', { name: 'Where it goes next' }).getByLabel(exit, { exact: true });
  const option = select.locator('option', { hasText: new RegExp(`^${to} \\(`) });
  await select.selectOption(await option.getAttribute('value'));
}

describe(`dashboard: a WhatsApp Flow in the flow builder (${ENGINE})`, () => {
  test('the node picks a published Flow from the list, keeps an answer, and a branch tests an answer field; get-flow has them', async () => {
    const owner = await createOwner(server, `Rosa Flowers ${randomInt(1e6)}`);
    await whatsapp.connect(owner.workspaceId);
    const api = await ownerApi(server, owner);
    const form = await bookingForm(api, 'Book a table');
    await bookingForm(api, 'Unfinished survey', false);

    const { page } = await newPage(server, { width: 1600, height: 1000, bypassCSP: true }); // axe runs as a script
    await logIn(page, owner);
    await page.goto('/flows/new');
    await card(page, 'Welcome').waitFor();
    await page
      .getByLabel('Name', { exact: true })
      .first()
      .fill(`Bookings ${randomInt(1e6)}`);
    await open(page, 'Welcome');
    await panel(page).getByLabel('Message').fill('Welcome to Rosa!');

    await addNode(page, 'Send a WhatsApp Flow', 'Booking form');
    const picker = panel(page).getByLabel('WhatsApp Flow', { exact: true });
    await picker.locator('option', { hasText: 'Book a table' }).waitFor({ state: 'attached' });
    assert.deepEqual(
      await picker.locator('option').allTextContents(),
      ['Choose a published Flow', 'Book a table'],
      'only published Flows are offered',
    );
    await picker.selectOption({ label: 'Book a table' });
    await panel(page).getByText('Its answer’s fields: name, day, seats, reminders').waitFor();
    await panel(page).getByLabel('Message').fill('Book your table, {{contact.first_name}}');
    await panel(page).getByLabel('Button that opens the Flow').fill('Book a table');
    await panel(page).getByRole('button', { name: 'Keep an answer' }).click();
    await panel(page).getByLabel('Answer field 1').fill('name');
    await panel(page).getByLabel('Saved as attribute 1').fill('booked_as');
    await panel(page).locator('.wa-buttons', { hasText: 'Book a table' }).waitFor();

    await addNode(page, 'Branch', 'Seats');
    await panel(page).getByLabel('Condition 1', { exact: true }).selectOption({ label: 'Flow answer field equals' });
    await panel(page).getByLabel('Condition 1: answer field').fill('seats');
    await panel(page).getByLabel('Condition 1 value').fill('4');
    await goTo(page, 'Answer’s seats is “4”', 'Welcome');
    await goTo(page, 'Otherwise', 'Welcome');

    await open(page, 'Booking form');
    await goTo(page, 'Answered', 'Seats');
    await open(page, 'Welcome');
    await goTo(page, 'Then', 'Booking form');
    // Welcome comes again after the form (the branch loops back): its answer and the attribute it keeps are offered.
    const variables = panel(page).getByLabel('Insert a variable…');
    await variables.locator('option', { hasText: '{{answer.seats}}' }).waitFor({ state: 'attached' });
    const offered = await variables.locator('option').allTextContents();
    for (const variable of ['{{attributes.booked_as}}', '{{answer.name}}', '{{answer.day}}', '{{answer.reminders}}']) {
      assert.ok(offered.includes(variable), `${variable} is offered: ${offered.join(', ')}`);
    }
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    const saved = await api.action<Flow>('get-flow', { flow_id: page.url().split('/').at(-1)! });
    assert.equal(saved.status, 200, saved.text);
    const nodes = Object.fromEntries(saved.body.nodes.map((n) => [n.type, n]));
    assert.deepEqual(Object.keys(nodes).sort(), ['branch', 'send_text', 'send_whatsapp_flow']);
    const [welcome, booking, seats] = [nodes.send_text!.id, nodes.send_whatsapp_flow!.id, nodes.branch!.id];
    assert.deepEqual(nodes.send_whatsapp_flow, {
      id: booking,
      type: 'send_whatsapp_flow',
      whatsapp_flow_id: form.id,
      text: 'Book your table, {{contact.first_name}}',
      cta: 'Book a table',
      save_answers: [{ field: 'name', attribute: 'booked_as' }],
      timeout: 'P1D',
      next: seats,
    });
    assert.deepEqual(nodes.branch, {
      id: seats,
      type: 'branch',
      branches: [{ when: { answer_field: 'seats', equals: '4' }, next: welcome }],
      default: welcome,
    });
    assert.deepEqual(nodes.send_text, { id: welcome, type: 'send_text', text: 'Welcome to Rosa!', next: booking });
  });
});
