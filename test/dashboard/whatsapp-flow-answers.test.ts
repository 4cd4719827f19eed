import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Message } from '../../src/messages/message.schema.js';
import type { WhatsappFlow } from '../../src/whatsapp-flows/whatsapp-flow.schema.js';
import { flowAnswerWebhook, signUpFlowJson } from '../../src/whatsapp/webhook.flow-answer-fixtures.js';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { asClient } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const { server, postWebhook, connect } = await startWhatsappServer({ outbox: true });

describe(`dashboard: WhatsApp Flows' answers (${ENGINE})`, () => {
  test('the thread shows the filled form; the contact lists it; the answers page tables, exports and maps fields to attributes', async () => {
    const owner = await createOwner(server, 'Rosa Florist');
    const line = await connect(owner.workspaceId);
    const issued = await server.app.services.tokens.create({ ...owner, name: 'integration', scope: 'full' });
    const api = asClient(server.http, { ...owner, token: issued.token, tokenId: issued.id });

    const draft = (
      await api.action<WhatsappFlow>('create-whatsapp-flow', { name: 'Join the club', categories: ['SIGN_UP'] })
    ).body;
    await api.action('update-whatsapp-flow-json', { whatsapp_flow_id: draft.id, flow_json: signUpFlowJson() });
    const flow = (await api.action<WhatsappFlow>('publish-whatsapp-flow', { whatsapp_flow_id: draft.id })).body;
    const phone = '+16505551234';
    const wrote = inboundTextWebhook({
      ...line,
      from: phone,
      name: 'Pablo',
      text: 'Hi',
      timestamp: server.clock.now(),
    });
    assert.equal((await postWebhook(wrote)).status, 200);
    const sent = await api.action<Message>('send-whatsapp-flow', {
      phone,
      whatsapp_flow_id: flow.id,
      body: 'Join the club',
      cta: 'Join',
    });
    assert.equal(sent.status, 200, sent.text);
    const { interactive } = sent.body.content as { interactive: { action: { parameters: { flow_token: string } } } };
    const answer = flowAnswerWebhook(
      { ...line, from: phone },
      {
        flow_token: interactive.action.parameters.flow_token,
        full_name: 'Pablo Morales',
        birthday: '1990-12-10',
        interests: ['roses', 'tulips'],
        newsletter: true,
        source: 'whatsapp',
      },
    );
    assert.equal((await postWebhook(answer)).status, 200);

    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto(`/inbox/${sent.body.contact_id}`);
    const thread = page.getByRole('list', { name: 'Messages' });
    const form = thread.locator('.rich-form');
    await form.getByText('Form “Join the club”').waitFor();
    assert.deepEqual(await form.locator('dt').allTextContents(), [
      'Your name',
      'Birthday',
      'What do you like?',
      'Send me the newsletter',
      'source',
    ]);
    assert.deepEqual(await form.locator('dd').allTextContents(), [
      'Pablo Morales',
      '1990-12-10',
      'roses, tulips',
      'Yes',
      'whatsapp',
    ]);
    assert.equal(await thread.getByText('response_json').count(), 0, 'not raw JSON');
    await screenshot(page, 'inbox-whatsapp-flow-answer');

    await page.goto(`/contacts/${sent.body.contact_id}`);
    const forms = page.getByRole('table', { name: 'Forms answered' });
    await forms.getByRole('link', { name: 'Join the club' }).click();

    await page.getByRole('heading', { name: 'Answers to “Join the club”' }).waitFor();
    const table = page.getByRole('table', { name: 'Answers to “Join the club”' });
    const row = table.getByRole('row', { name: /Pablo Morales/ });
    await row.waitFor();
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(1), [
      'Pablo',
      'Pablo Morales',
      '1990-12-10',
      'roses, tulips',
      'Yes',
      'whatsapp',
    ]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'Join-the-club-answers.csv');
    const records = parse<Record<string, string>>(fs.readFileSync(await download.path()), { columns: true, bom: true });
    assert.deepEqual(
      records.map(({ received_at: _, ...rest }) => rest),
      [
        {
          contact_phone: phone,
          contact_name: 'Pablo',
          'Your name': 'Pablo Morales',
          Birthday: '1990-12-10',
          'What do you like?': '["roses","tulips"]',
          'Send me the newsletter': 'true',
          source: 'whatsapp',
        },
      ],
    );

    // The birthday goes on the contact from the next answer on.
    await page.getByLabel('Birthday').fill('birthday');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved: new answers fill these attributes.').waitFor();
    await screenshot(page, 'whatsapp-flow-answers');
    const mapped = (await api.action<WhatsappFlow[]>('list-whatsapp-flows', {})).body[0]!;
    assert.deepEqual(mapped.answer_attributes, { birthday: 'birthday' });
    await page.getByLabel('What do you like?').fill('not a key!');
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal(
      await page.getByLabel('What do you like?').evaluate((input: HTMLInputElement) => input.validity.patternMismatch),
      true,
      'the browser names the field before the server is asked',
    );

    // axe's script needs the page's CSP bypassed: a page of its own, for the thread and the answers page.
    const { page: checked } = await newPage(server, { bypassCSP: true });
    await logIn(checked, owner);
    for (const [path, ready] of [
      [`/inbox/${sent.body.contact_id}`, 'Form “Join the club”'],
      [`/whatsapp-flows/${flow.id}/answers`, 'Save answers on the contact'],
    ] as const) {
      await checked.goto(path);
      await checked.getByText(ready).first().waitFor();
      assert.deepEqual(await seriousAccessibilityViolations(checked), [], path);
    }
  });
});
