import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contactIdOf, createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { echoWebhook, historyWebhook } from '../../src/whatsapp/webhook.coexistence-fixtures.js';
import { inboundTextWebhook, templateCategoryWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { createTemplate } from '../factories.js';
import { ACCOUNT_VIOLATION, accountWebhook, PARTNER_REMOVED } from '../../src/whatsapp/webhook.delivery-fixtures.js';
import { VOLUME_PRICING_TIER } from '../../src/whatsapp/webhook.account-fixtures.js';
import { groupMessageWebhook, groupSubjectWebhook } from '../../src/whatsapp/webhook.group-fixtures.js';
import { BUSINESS_CAPABILITY_UPDATE, portfolioLimitWebhook } from '../../src/whatsapp/webhook.limit-fixtures.js';

const { server, graph, connect, postWebhook } = await startWhatsappServer();

describe(`dashboard: what Meta added in 2025–26 (${ENGINE})`, () => {
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
    const contactId = await contactIdOf(server, owner.workspaceId, `+${customer}`);

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${contactId}`);
    const echo = page.locator('.bubble.outbound', { hasText: 'Until six, come by!' });
    await echo.locator('.bubble-sender', { hasText: 'WhatsApp Business app' }).waitFor();
    await page.locator('.bubble', { hasText: 'Hello' }).waitFor();

    await page.goto('/settings/channel');
    const row = page.getByTestId('numbers').getByRole('listitem').filter({ hasText: number.phoneNumberId });
    await row.getByText('also in the WhatsApp Business app: paced at 20 messages per second').waitFor();
    await row.getByText('chat history importing (55 %), messages imported: 1').waitFor();
    const removed = accountWebhook(number.wabaId, 'account_update', PARTNER_REMOVED, server.clock.now());
    assert.equal((await postWebhook(removed)).status, 200);
    await page.reload();
    await row
      .getByText('disconnected by Meta (PARTNER_REMOVED): its messages wait until it is connected again')
      .waitFor();
    for (const value of [ACCOUNT_VIOLATION, VOLUME_PRICING_TIER]) {
      assert.equal(
        (await postWebhook(accountWebhook(number.wabaId, 'account_update', value, server.clock.now()))).status,
        200,
      );
    }
    await page.reload();
    await row.getByText('Meta reported a policy violation (ADULT) on').waitFor();
    await row.getByText('volume pricing tier 25000001:50000000 for UTILITY messages in INDIA from 2025-12').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('Settings → Channel: the portfolio’s messaging limit as Meta said it; the Marketing Messages API needs Meta’s terms confirmed', async () => {
    const owner = await createOwner(server, 'Limited Shop');
    const number = await connect(owner.workspaceId);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/channel');
    const row = page.getByTestId('numbers').getByRole('listitem').filter({ hasText: number.phoneNumberId });
    await row.waitFor();
    assert.doesNotMatch((await row.textContent())!, /portfolio/, 'nothing until Meta says');
    const capability = portfolioLimitWebhook(number, {
      capability: BUSINESS_CAPABILITY_UPDATE,
      at: server.clock.now(),
    });
    assert.equal((await postWebhook(capability)).status, 200);
    await page.reload();
    await row
      .getByText(/business portfolio’s messaging limit: 250 customers per 24 hours \(as Meta said on .+\)/)
      .waitFor();
    const upgrade = portfolioLimitWebhook(number, { event: 'UPGRADE', oldLimit: 'TIER_250', limit: 'TIER_UNLIMITED' });
    assert.equal((await postWebhook(upgrade)).status, 200);
    await page.reload();
    await row.getByText(/business portfolio’s messaging limit: unlimited \(Meta’s UPGRADE on .+\)/).waitFor();

    const section = page.getByRole('form', { name: 'Marketing Messages API' });
    const state = section.getByTestId('marketing-messages-state');
    await state.getByText('Off: marketing templates go through Cloud API.').waitFor();
    await section.getByRole('switch', { name: 'Send marketing templates through the Marketing Messages API' }).check();
    await section.getByRole('button', { name: 'Save' }).click();
    await section
      .getByRole('alert')
      .getByText(/^Meta’s terms accepted must be confirmed: Meta refuses/)
      .waitFor();
    await section.getByLabel('Meta’s terms accepted').check();
    assert.equal(await section.getByRole('alert').count(), 0, 'the problem goes once the field changes');
    await section.getByRole('button', { name: 'Save' }).click();
    await state.getByText(`: ${owner.email} confirmed Meta’s terms were accepted.`).waitFor();
    assert.match((await state.textContent())!, /^On since /);
    const saved = await server.app.services.marketingMessages.settings({ workspaceId: owner.workspaceId });
    assert.deepEqual([saved.enabled, saved.terms_accepted_by], [true, owner.userId]);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('a template Meta will recategorize says so, with the category and the date', async () => {
    const owner = await createOwner(server, 'Recategorized Shop');
    const number = await connect(owner.workspaceId);
    const template = await createTemplate(server.app.services, owner.workspaceId, { name: 'order_ready' });
    const at = new Date(Date.UTC(2026, 11, 2, 9, 30, 0));
    const notice = templateCategoryWebhook({
      wabaId: number.wabaId,
      templateId: 278077987957091,
      name: 'order_ready',
      language: 'en_US',
      notice: { current: 'UTILITY', correct: 'MARKETING', at },
    });
    assert.equal((await postWebhook(notice)).status, 200);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/templates/${template.id}`);
    await page
      .getByRole('note')
      .getByText(/^Meta will change its category to Marketing on .*2026/)
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });
  test('Inbox → WhatsApp groups lists a group, shows its conversation with each author, writes to it and creates one', async () => {
    const owner = await createOwner(server, 'Group Shop');
    const number = await connect(owner.workspaceId);
    const { groupId } = graph.addGroup(number.phoneNumberId);
    const at = server.clock.now();
    for (const body of [
      groupSubjectWebhook(number, { groupId, subject: 'Spring launch', at }),
      groupMessageWebhook(number, {
        groupId,
        from: '4915112345679',
        name: 'Ada',
        wamid: 'wamid.GROUP1',
        at,
        body: 'Hello all',
      }),
    ]) {
      const response = await postWebhook(body);
      assert.equal(response.status, 200, response.text);
    }

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/inbox');
    await page.getByRole('link', { name: 'WhatsApp groups' }).click();
    await page.getByRole('link', { name: 'Spring launch' }).click();
    const thread = page.getByRole('list', { name: "The group's messages" });
    await thread.locator('.bubble.inbound', { hasText: 'Hello all' }).getByText('Ada').waitFor();
    await page.getByLabel('Message', { exact: true }).fill('Welcome, everyone!');
    await page.getByRole('button', { name: 'Send to the group' }).click();
    await thread.locator('.bubble.outbound', { hasText: 'Welcome, everyone!' }).waitFor();
    // Written while the page is open: it appears by the live event stream (the page does not poll).
    const reply = groupMessageWebhook(number, {
      groupId,
      from: '4915112345680',
      name: 'Ben',
      wamid: 'wamid.GROUP2',
      at,
      body: 'Count me in',
    });
    assert.equal((await postWebhook(reply)).status, 200);
    await thread.locator('.bubble.inbound', { hasText: 'Count me in' }).getByText('Ben').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.getByRole('link', { name: 'All groups' }).click();
    await page.getByLabel('Subject').fill('Launch team');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page
      .getByRole('row', { name: /Launch team/ })
      .getByText('Being created by WhatsApp')
      .waitFor();
    assert.equal(graph.groupCreates.at(-1)?.body.subject, 'Launch team');
  });
});
