import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contactIdOf, createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import {
  callConnectWebhook,
  callPermissionReplyWebhook,
  callTerminateWebhook,
} from '../../src/whatsapp/webhook.calls-fixtures.js';

const { server, connect, postWebhook } = await startWhatsappServer();

describe(`dashboard: WhatsApp calls (${ENGINE})`, () => {
  test('the thread shows a call among the messages; the contact page whether they allow calls', async () => {
    const owner = await createOwner(server, 'Calling Shop');
    const number = await connect(owner.workspaceId);
    const customer = '4915112340077';
    const at = new Date(server.clock.now().getTime() - 600_000);
    const step = { callId: 'wacid.DASHBOARD1', customer, direction: 'USER_INITIATED' as const };
    for (const body of [
      callConnectWebhook(number, { ...step, at }),
      callTerminateWebhook(number, {
        ...step,
        at: new Date(at.getTime() + 100_000),
        status: 'COMPLETED',
        answered: { at: new Date(at.getTime() + 5_000), seconds: 95 },
      }),
      callPermissionReplyWebhook(number, { customer, wamid: 'wamid.PERMIT', at, response: 'accept', permanent: true }),
    ]) {
      const response = await postWebhook(body);
      assert.equal(response.status, 200, response.text);
    }
    const contactId = await contactIdOf(server, owner.workspaceId, `+${customer}`);

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${contactId}`);
    await page.locator('.thread-event.call', { hasText: 'Call from the customer · Answered · 1 min' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.goto(`/contacts/${contactId}`);
    await page.getByTestId('call-permission').getByText('Allows WhatsApp calls from you.').waitFor();
  });
});
