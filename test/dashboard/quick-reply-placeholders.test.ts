import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { logIn, newPage } from '../browser.js';
import { ownerApi } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { inboxWorld } from './inbox-world.js';

const whatsapp = await startWhatsappServer({ outbox: true });
const { server } = whatsapp;
const { cloudOwner, customerWrites } = inboxWorld(whatsapp);

describe(`dashboard: quick replies fill placeholders (${ENGINE})`, () => {
  test('a /shortcut quick reply is filled with the open thread’s contact, with fallbacks and no stray space', async () => {
    const owner = await cloudOwner('Placeholder Bakery');
    const api = await ownerApi(server, owner);
    const saved = await api.action('create-quick-reply', {
      shortcut: 'plan',
      body: 'Hello {{contact.first_name}}, your plan is {{attributes.plan | "Basic"}} ({{contact.phone}}).',
    });
    assert.equal(saved.status, 200, saved.text);
    const ada = await customerWrites(owner, '4915112370001', 'Which plan am I on?');
    const updated = await api.action('update-contact', {
      contact_id: ada,
      name: 'Ada Lovelace',
      metadata: { plan: 'Gold' },
    });
    assert.equal(updated.status, 200, updated.text);
    const nameless = await customerWrites(owner, '4915112370002', 'And me?');

    const { page } = await newPage(server);
    await logIn(page, owner);
    for (const [contactId, expected] of [
      [ada, 'Hello Ada, your plan is Gold (+4915112370001).'],
      [nameless, 'Hello, your plan is Basic (+4915112370002).'],
    ] as const) {
      await page.goto(`/inbox/${contactId}`);
      const reply = page.getByLabel('Reply', { exact: true });
      await reply.fill('/pl');
      await page.getByRole('option', { name: /\/plan/ }).waitFor();
      await reply.press('Enter');
      assert.equal(await reply.inputValue(), expected);
    }
  });
});
