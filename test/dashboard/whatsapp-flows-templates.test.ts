import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE } from '../server.js';
import { API_VERSION, startWhatsappServer } from '../whatsapp.js';
import { bookingFlowJson } from '../../src/whatsapp-flows/whatsapp-flow.fixtures.js';

const { server, graph, connect } = await startWhatsappServer();

describe(`dashboard: a template with a FLOW button (${ENGINE})`, () => {
  test('the template form adds a button that opens a published Flow on a screen; Meta gets Meta’s FLOW button', async () => {
    const owner = await createOwner(server, 'Rosa Flow Templates');
    const number = await connect(owner.workspaceId);
    // A Flow published in WhatsApp Manager, read by "Sync from WhatsApp".
    const flowId = `${number.wabaId}77`;
    graph.flows.set(flowId, {
      wabaId: number.wabaId,
      name: 'Book a table',
      categories: ['APPOINTMENT_BOOKING'],
      status: 'PUBLISHED',
      json: bookingFlowJson(),
      validationErrors: [],
    });
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.getByRole('link', { name: 'WhatsApp Flows' }).click();
    await page.getByRole('button', { name: 'Sync from WhatsApp' }).click();
    await page.getByText('1 Flow in your WhatsApp Business Account.').waitFor();

    await page.goto('/templates/new');
    await page.getByLabel('Name', { exact: true }).fill('book_a_table');
    await page.getByLabel('Category').selectOption('MARKETING');
    const en = page.getByRole('group', { name: /^Translation 1/ });
    await en.getByLabel('Language').fill('en_US');
    await en.getByLabel('Body').fill('Your table is waiting.');
    await en.getByRole('button', { name: 'Add button' }).click();
    await en.getByLabel('Button 1 type').selectOption({ label: 'Open a WhatsApp Flow' });
    await en.getByLabel('Button 1 text').fill('Book now');
    // No Flow chosen: the problem is named beside the Flow's field.
    await page.getByRole('button', { name: 'Create template' }).click();
    await en.getByText('a Flow button opens a published Flow: name it by its id or its name (one of them)').waitFor();
    await en.getByLabel('Button 1 Flow').selectOption({ label: 'Book a table' });
    await en.getByLabel('Button 1 first screen').fill('BOOKING');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'book_a_table' }).waitFor();

    const asked = graph.requests.filter((r) => r.path === `/${API_VERSION}/${number.wabaId}/message_templates`).at(-1);
    const components = (asked?.body as { components: { type: string; buttons?: unknown[] }[] }).components;
    assert.deepEqual(components.find((c) => c.type === 'BUTTONS')?.buttons, [
      { type: 'FLOW', text: 'Book now', flow_id: flowId, flow_action: 'navigate', navigate_screen: 'BOOKING' },
    ]);
  });
});
