import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { joinedTeammate, ownerSession } from '../dashboard-session.js';
import { ownerApi } from '../factories.js';
import { ENGINE } from '../server.js';
import { APP_SECRET, startWhatsappServer } from '../whatsapp.js';
import {
  dataExchangeRequest,
  encryptFlowRequest,
  errorNotificationRequest,
} from '../../src/whatsapp/flows-endpoint.fixtures.js';
import { signBody } from '../../src/whatsapp/webhook.fixtures.js';

const { server, graph, connect } = await startWhatsappServer();

/** Meta's request to the endpoint URL the page shows, encrypted to the key Meta holds for the number. */
async function metaSends(endpointUrl: string, phoneNumberId: string, payload: object) {
  const sent = encryptFlowRequest(graph.businessPublicKey(phoneNumberId)!, payload);
  const raw = JSON.stringify(sent.body);
  const response = await server.http.send('POST', new URL(endpointUrl).pathname, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, APP_SECRET) },
  });
  assert.equal(response.status, 200, response.text);
  return sent.decryptAnswer(response.text);
}

const section = (page: Page) => page.getByRole('region', { name: 'WhatsApp Flows data endpoint' });

describe(`dashboard: WhatsApp Flows data endpoint (${ENGINE})`, () => {
  test('an owner sets up the key, copies the endpoint URL, fills the screen table that answers the Flow, and reads what Meta reported; a member sees none of it', async () => {
    const owner = await ownerSession(server);
    const api = await ownerApi(server, owner);
    const { phoneNumberId } = await connect(api.workspaceId);

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/channel');
    const flows = section(page);
    await flows.getByTestId('flows-key-status').getByText('Not set up yet.').waitFor();
    await flows.getByRole('button', { name: 'Set up encryption' }).click();
    await flows
      .getByTestId('flows-key-status')
      .getByText("Meta holds this number's key and its signature is valid.")
      .waitFor();
    await flows.getByRole('button', { name: 'Make a new key' }).waitFor();
    const endpointUrl = (await flows.getByTestId('flows-endpoint-url').textContent())!;
    assert.match(endpointUrl, /\/webhooks\/whatsapp\/flows\/[0-9a-f-]{36}$/);

    await flows.getByLabel('Parley, from the table below').check();
    await flows.getByRole('button', { name: 'Add a row' }).click();
    await flows.getByLabel('Row 1: next screen').fill('PICK');
    await flows.getByLabel('Row 1: data of the next screen').fill('greeting: Hello {{contact.first_name | "there"}}');
    await flows.getByRole('button', { name: 'Add a row' }).click();
    await flows.getByLabel('Row 2: screen submitted').fill('PICK');
    await flows.getByLabel('Row 2: next screen').fill('SUCCESS');
    await flows.getByLabel('Row 2: data of the next screen').fill('bouquet: {{context.bouquet}}');
    await flows.getByRole('button', { name: 'Add a row' }).click();
    await flows.getByLabel('Row 3: screen submitted').fill('PICK');
    await flows.getByLabel('Row 3: next screen').fill('OTHER');
    await flows.getByRole('button', { name: 'Save', exact: true }).click();
    // The problem is named by the field's label, beside it.
    await flows.getByText('Row 3: screen submitted answers PICK again: one row per screen').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'settings-flows-endpoint-problem');

    await flows.getByRole('button', { name: 'Remove row 3' }).click();
    await flows.getByRole('button', { name: 'Save', exact: true }).click();
    await flows.getByRole('status').getByText('Screens saved.').waitFor();
    const set = await api.action<{ answered_by: string }>('get-flows-endpoint', {
      channel_id: endpointUrl.split('/').pop(),
    });
    assert.equal(set.body.answered_by, 'parley');

    // What the person wrote answers the Flow, through the endpoint, as Meta calls it.
    const flowToken = 'flows-builder-preview';
    assert.deepEqual(await metaSends(endpointUrl, phoneNumberId, dataExchangeRequest({ action: 'INIT', flowToken })), {
      screen: 'PICK',
      data: { greeting: 'Hello there' },
    });
    const picked = dataExchangeRequest({
      action: 'data_exchange',
      flowToken,
      screen: 'PICK',
      data: { bouquet: 'Tulips' },
    });
    assert.deepEqual(await metaSends(endpointUrl, phoneNumberId, picked), {
      screen: 'SUCCESS',
      data: { extension_message_response: { params: { bouquet: 'Tulips', flow_token: flowToken } } },
    });

    await metaSends(endpointUrl, phoneNumberId, errorNotificationRequest(flowToken, 'PICK'));
    await page.reload();
    await section(page)
      .getByText(
        /^Meta reported: The client received the screen data which are not conforming to screen data schema \(screen PICK, /,
      )
      .waitFor();
    assert.equal(await section(page).getByLabel('Row 2: next screen').inputValue(), 'SUCCESS', 'the table was kept');

    await section(page).getByLabel('Your own server (business endpoint)').check();
    await section(page).getByLabel('Business endpoint URL').fill('https://127.0.0.1/flows');
    await section(page).getByRole('button', { name: 'Save the URL' }).click();
    await section(page).getByText('must not point to a loopback or private address').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'settings-flows-endpoint');

    const member = await joinedTeammate(server, owner, 'member');
    const { page: memberPage } = await newPage(server, { bypassCSP: true });
    await logIn(memberPage, member);
    await memberPage.goto('/settings/channel');
    await memberPage.getByRole('heading', { name: 'Meta webhook' }).waitFor();
    assert.equal(await section(memberPage).count(), 0, 'a member sees no data endpoint controls');
  });
});
