import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inboundTextWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { createOwner, logIn, newPage, seriousAccessibilityViolations } from '../browser.js';
import { logInOverHttp } from '../dashboard-session.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';

const MINUTE = 60_000;
const { server, connect, postWebhook } = await startWhatsappServer({ outbox: true });
const { db } = server.app.services.deps;

/** An owner whose first customer got an answer after 4 minutes and was done after 25; a second customer waits. */
async function ownerWithTwoConversations() {
  const owner = await createOwner(server, 'Figures Florist');
  const { phoneNumberId } = await connect(owner.workspaceId);
  const session = await logInOverHttp(server, owner);
  const writes = async (from: string) => {
    const webhook = inboundTextWebhook({ phoneNumberId, from, text: 'Roses?', timestamp: server.clock.now() });
    assert.equal((await postWebhook(webhook)).status, 200);
    const contact = await db
      .selectFrom('contacts')
      .select('id')
      .where('workspace_id', '=', owner.workspaceId)
      .where('phone', '=', `+${from}`)
      .executeTakeFirstOrThrow();
    return contact.id;
  };
  const first = await writes('4915112349001');
  server.clock.advance(4 * MINUTE);
  const sent = await session.send('POST', '/api/v1/actions/send-text-message', { contact_id: first, message: 'Yes!' });
  assert.equal(sent.status, 200, sent.text);
  server.clock.advance(21 * MINUTE);
  assert.equal((await session.send('POST', `/api/dashboard/conversations/${first}/done`, { done: true })).status, 200);
  await writes('4915112349002');
  server.clock.advance(10 * MINUTE);
  return owner;
}

describe(`dashboard: agents and teams figures (${ENGINE})`, () => {
  test('the Reports page shows figures per agent and per team, with CSV links, and is accessible', async () => {
    const owner = await ownerWithTwoConversations();
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Agents and teams', level: 2 }).waitFor();

    const agents = page.getByRole('table', { name: 'Figures per agent' });
    const everyone = agents.getByRole('row', { name: /^Everyone/ });
    await everyone.waitFor();
    assert.deepEqual(
      [await everyone.getByRole('rowheader').textContent(), ...(await everyone.getByRole('cell').allTextContents())],
      ['Everyone', '1', '1', '4 min', '4 min', '25 min', '25 min', '1', '10 min', '10 min', '0', '—', '—'],
    );
    const nobody = agents.getByRole('row', { name: /^No one/ });
    assert.deepEqual((await nobody.getByRole('cell').allTextContents()).slice(6, 9), ['1', '10 min', '10 min']);

    const teams = page.getByRole('table', { name: 'Figures per team' });
    await teams.getByRole('row', { name: /^No team/ }).waitFor();
    assert.match(
      (await page.getByRole('link', { name: 'Download CSV of figures per agent' }).getAttribute('href')) ?? '',
      /^\/api\/v1\/reports\/agents\?.*format=csv/,
    );
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });
});
