import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { createTemplate } from '../factories.js';
import { ENGINE } from '../server.js';
import { API_VERSION, startWhatsappServer } from '../whatsapp.js';
import { groupStatusWebhook, groupSubjectWebhook } from '../../src/whatsapp/webhook.group-fixtures.js';

const { server, graph, connect, postWebhook } = await startWhatsappServer({ outbox: true });

/** A message Parley sent, as Meta's Graph stand-in received it. */
type Sent = Record<string, unknown> & {
  type: string;
  document?: { id: string; caption?: string; filename?: string };
  template?: { name: string; components: unknown[] };
};

/** What the number sent to the group at Meta, oldest first. */
const sentToGroup = (phoneNumberId: string, groupId: string) =>
  graph.accepted
    .filter((request) => request.path === `/${API_VERSION}/${phoneNumberId}/messages`)
    .map((request) => request.body as Sent)
    .filter((body) => body.recipient_type === 'group' && body.to === groupId);

const MB = 1024 * 1024;

describe(`dashboard: a WhatsApp group's page (${ENGINE})`, () => {
  test('an active group gets a file and an approved template from its page: each in its conversation with author and status, and at Meta as a group message', async () => {
    const owner = await createOwner(server, 'Group Files Shop');
    const number = await connect(owner.workspaceId);
    const { groupId } = graph.addGroup(number.phoneNumberId);
    const subject = groupSubjectWebhook(number, { groupId, subject: 'Spring launch', at: server.clock.now() });
    assert.equal((await postWebhook(subject)).status, 200);
    const template = await createTemplate(server.app.services, owner.workspaceId, {
      translations: [{ language: 'en_US', status: 'APPROVED', body: 'Hi all, the launch is on {{1}}.' }],
    });
    const pending = await createTemplate(server.app.services, owner.workspaceId, {
      translations: [{ language: 'en_US', status: 'PENDING', body: 'Not reviewed yet' }],
    });

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/inbox/groups');
    await page.getByRole('link', { name: 'Spring launch' }).click();
    const thread = page.getByRole('list', { name: "The group's messages" });
    const attach = page.getByLabel('Attach a file');
    const send = page.getByRole('button', { name: 'Send to the group' });

    // Files WhatsApp would refuse are refused beside the attach control, in words, before any upload.
    await attach.setInputFiles({ name: 'plan.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\x03\x04') });
    await send.click();
    await page
      .getByText('File plan.zip is of a type WhatsApp does not send (application/zip). Send an image (JPEG, PNG)')
      .waitFor();
    assert.equal(await attach.getAttribute('aria-invalid'), 'true');
    await attach.setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: Buffer.alloc(6 * MB) });
    assert.equal(await page.getByText('plan.zip is of a type').count(), 0, 'the problem goes with its file');
    await send.click();
    await page.getByText('File poster.png is 6 MB: WhatsApp sends images of at most 5 MB.').waitFor();
    const uploads = graph.requests.filter(
      (request) => request.path === `/${API_VERSION}/${number.phoneNumberId}/media`,
    );
    assert.equal(uploads.length, 0, 'nothing was uploaded');

    // A document with a caption: uploaded, sent to the group, shown with who sent it and its status.
    await attach.setInputFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 plan') });
    await page.getByText('File: plan.pdf').waitFor();
    await page.getByLabel('Caption', { exact: true }).fill('The launch plan');
    await send.click();
    const document = thread.locator('.bubble.outbound', { hasText: 'Document: The launch plan' });
    await document.locator('.bubble-sender', { hasText: owner.email }).waitFor();
    await document.getByText(/ · sent$/).waitFor();
    assert.equal(await page.getByText('File: plan.pdf').count(), 0, 'the composer is cleared');
    const [file] = sentToGroup(number.phoneNumberId, groupId);
    assert.equal(file?.type, 'document');
    assert.deepEqual(
      [file.document?.caption, file.document?.filename],
      ['The launch plan', 'plan.pdf'],
      'Meta gets the file with its caption and name, addressed to the group',
    );

    // A template: only approved ones are offered; a blank variable is named beside its field.
    await page.getByRole('button', { name: 'Send a template' }).click();
    const choice = page.getByLabel('Template', { exact: true });
    await choice.locator('option', { hasText: template.name }).waitFor({ state: 'attached' });
    const offered = await choice.locator('option').allTextContents();
    assert.ok(offered.includes(`${template.name} (en_US)`), offered.join());
    assert.ok(!offered.some((option) => option.startsWith(pending.name)), 'a template under review is not offered');
    await choice.selectOption({ label: `${template.name} (en_US)` });
    const variable = page.getByLabel('Variable {{1}}');
    await variable.fill('  ');
    await page.getByRole('button', { name: 'Send template' }).click();
    await page.getByText('Variable {{1}} is required').waitFor();
    assert.equal(await variable.getAttribute('aria-invalid'), 'true');
    await variable.fill('Friday');
    assert.equal(await page.getByText('Variable {{1}} is required').count(), 0, 'the problem goes once it is filled');
    await page.getByText('Hi all, the launch is on Friday.').waitFor(); // the preview
    await page.getByRole('button', { name: 'Send template' }).click();
    const sentTemplate = thread.locator('.bubble.outbound', { hasText: 'Hi all, the launch is on Friday.' });
    await sentTemplate.locator('.bubble-sender', { hasText: owner.email }).waitFor();
    await sentTemplate.getByText(`Template ${template.name}`).waitFor();
    await sentTemplate.getByText(/ · sent$/).waitFor();
    const templated = sentToGroup(number.phoneNumberId, groupId).at(-1);
    assert.equal(templated?.type, 'template');
    assert.equal(templated.template?.name, template.name);
    assert.deepEqual(templated.template?.components, [
      { type: 'body', parameters: [{ type: 'text', text: 'Friday' }] },
    ]);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // Suspended by WhatsApp while the page is open: nothing can be sent, and the page says why.
    const suspended = groupStatusWebhook(number, { groupId, type: 'group_suspend', at: server.clock.now() });
    assert.equal((await postWebhook(suspended)).status, 200);
    await page.getByText('Messages, files and templates can be sent only to an active group.').waitFor();
    assert.equal(await send.count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Send a template' }).count(), 0);
  });
});
