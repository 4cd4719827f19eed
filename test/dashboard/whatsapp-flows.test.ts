import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE } from '../server.js';
import { API_VERSION, startWhatsappServer } from '../whatsapp.js';
import { bookingFlowJson, misspeltFlowJson } from '../../src/whatsapp-flows/whatsapp-flow.fixtures.js';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';

const { server, graph, connect, postWebhook } = await startWhatsappServer({ outbox: true });

describe(`dashboard: WhatsApp Flows (${ENGINE})`, () => {
  test('a Flow is created, its JSON pasted with an error shown on its line, fixed, published, its screens drawn, and sent from the composer', async () => {
    const owner = await createOwner(server, 'Rosa Flows');
    const number = await connect(owner.workspaceId);
    const phone = '+14155550177';
    const wrote = inboundTextWebhook({ ...number, from: phone, text: 'Can I book?', timestamp: server.clock.now() });
    assert.equal((await postWebhook(wrote)).status, 200);

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/templates');
    await page.getByRole('link', { name: 'WhatsApp Flows' }).click();
    await page.getByRole('link', { name: 'New Flow' }).click();
    await page.getByRole('button', { name: 'Create Flow' }).click();
    await page
      .getByText('Name must not be blank')
      .or(page.getByText(/^Name /))
      .first()
      .waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Book a table');
    await page.getByLabel('Appointment booking').check();
    await page.getByRole('button', { name: 'Create Flow' }).click();
    await page.getByRole('heading', { name: 'Book a table', level: 1 }).waitFor();
    await page.getByText('Draft', { exact: true }).waitFor();

    // Meta's validation error lands on its line: the line number marked, Meta's words beside it.
    const misspelt = misspeltFlowJson();
    const line = misspelt.split('\n').findIndex((text) => text.includes('"TextHeadline"')) + 1;
    const editor = page.getByRole('textbox', { name: 'Flow JSON' });
    await editor.fill(misspelt);
    await page.getByRole('button', { name: 'Save Flow JSON' }).click();
    await page.getByText('Meta found 1 error in the Flow JSON:').waitFor();
    const marked = page.getByTestId('flow-json-gutter').locator('.marked');
    assert.equal(await marked.getAttribute('data-line'), String(line));
    const note = page.getByTestId('flow-json-notes').locator(`[data-line="${line}"]`);
    assert.equal(await note.textContent(), "Invalid value found for property 'type'.");
    await page.getByRole('button', { name: new RegExp(`^Line ${line}, column \\d+$`) }).waitFor();
    assert.equal(await editor.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // The screens as WhatsApp draws them, from the text being edited.
    const booking = page.getByRole('region', { name: 'Screen BOOKING' });
    await booking.getByText('Your name *').waitFor();
    await booking.getByRole('radio', { name: 'Four' }).waitFor();
    await booking.getByText('Continue').waitFor();
    await page.getByRole('region', { name: 'Screen CONFIRM' }).getByText('Send me a reminder').waitFor();

    await editor.fill(bookingFlowJson());
    await page.getByRole('button', { name: 'Save Flow JSON' }).click();
    await page.getByText('Saved: Meta found no errors.').waitFor();
    await marked.waitFor({ state: 'detached' }); // no line is marked any more, once Meta's answer is read again
    await booking.getByText('Book a table', { exact: true }).first().waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published', { exact: true }).waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Save Flow JSON' }).count(),
      0,
      'a published Flow is not edited',
    );
    await page.getByRole('link', { name: "Open Meta's preview" }).waitFor();

    await page.getByRole('link', { name: 'All WhatsApp Flows' }).click();
    const row = page.getByRole('row', { name: /Book a table/ });
    await row.getByText('Appointment booking').waitFor();
    assert.match(
      (await row.getByRole('link', { name: 'Answers to Book a table' }).getAttribute('href'))!,
      /\/answers$/,
    );

    // Sent from the conversation's composer: Meta gets the interactive flow message.
    await page.goto('/inbox');
    await page
      .getByRole('link', { name: new RegExp(phone.slice(-4)) })
      .first()
      .click();
    await page.getByRole('button', { name: 'Send a Flow' }).click();
    const form = page.getByRole('form', { name: 'Send a WhatsApp Flow' });
    await form.getByLabel('Flow', { exact: true }).selectOption({ label: 'Book a table' });
    await form.getByLabel('Message').fill('Book your table in a minute');
    await form.getByLabel('Button text').fill('Book now');
    await form.getByLabel('First screen').selectOption('CONFIRM');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await form.getByRole('button', { name: 'Send Flow' }).click();
    await page.locator('.bubble.outbound', { hasText: 'Book now' }).waitFor();
    const sent = graph.accepted.find(
      (r) =>
        r.path === `/${API_VERSION}/${number.phoneNumberId}/messages` &&
        (r.body as { interactive?: { type?: string } }).interactive?.type === 'flow',
    );
    const parameters = (sent?.body as { interactive: { action: { parameters: Record<string, unknown> } } }).interactive
      .action.parameters;
    assert.equal(parameters.flow_cta, 'Book now');
    assert.deepEqual(parameters.flow_action_payload, { screen: 'CONFIRM' });
  });
});
