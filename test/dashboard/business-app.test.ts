import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { echoWebhook, historyWebhook } from '../../src/whatsapp/webhook.coexistence-fixtures.js';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';

const { server, connect, postWebhook } = await startWhatsappServer();

describe(`dashboard: the WhatsApp Business app on a number (${ENGINE})`, () => {
  test('the thread names what the business sent from the app; Settings shows the number’s pace and its history’s import', async () => {
    const owner = await createOwner(server, 'Coexisting Shop');
    const number = await connect(owner.workspaceId);
    const customer = '4915112345678';
    const at = server.clock.now();
    for (const body of [
      inboundTextWebhook({ phoneNumberId: number.phoneNumberId, from: customer, text: 'Open today?', timestamp: at }),
      echoWebhook(number, [{ to: customer, wamid: 'wamid.ECHO1', at, content: { body: 'Until six, come by!' } }]),
      historyWebhook(number, {
        phase: 0,
        chunkOrder: 1,
        progress: 55,
        threads: [
          {
            customer,
            messages: [
              {
                from: 'customer',
                wamid: 'wamid.OLD1',
                at: new Date(at.getTime() - 86_400_000),
                body: 'Hello',
                status: 'READ',
              },
            ],
          },
        ],
      }),
    ]) {
      const response = await postWebhook(body);
      assert.equal(response.status, 200, response.text);
    }
    const contact = await server.app.services.deps.db
      .selectFrom('contacts')
      .select('id')
      .where('workspace_id', '=', owner.workspaceId)
      .where('phone', '=', `+${customer}`)
      .executeTakeFirstOrThrow();

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${contact.id}`);
    const echo = page.locator('.bubble.outbound', { hasText: 'Until six, come by!' });
    await echo.locator('.bubble-sender', { hasText: 'WhatsApp Business app' }).waitFor();
    await page.locator('.bubble', { hasText: 'Hello' }).waitFor();

    await page.goto('/settings/channel');
    const row = page.getByTestId('numbers').getByRole('listitem').filter({ hasText: number.phoneNumberId });
    await row.getByText('also in the WhatsApp Business app: paced at 20 messages per second').waitFor();
    await row.getByText('chat history importing (55 %), messages imported: 1').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });
});
