import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { logIn, newPage, screenshot } from '../browser.js';
import { ownerApi } from '../factories.js';
import { ENGINE } from '../server.js';
import { startWhatsappServer } from '../whatsapp.js';
import { inboxWorld, listShows } from './inbox-world.js';

const whatsapp = await startWhatsappServer({ outbox: true });
const { server, graph } = whatsapp;
const { scheduler, outbox } = server.app.services;
const { cloudOwner, customerWrites } = inboxWorld(whatsapp);

/** What the page's alerts did, recorded by `observeAlerts`. */
interface Observed {
  notifications: { title: string; tag: string | undefined }[];
  tones: number;
}

/**
 * Records, in the page, each notification made and each tone started, then lets the real ones run:
 * observes the code under test without replacing it.
 */
function observeAlerts() {
  const observed: Observed = { notifications: [], tones: 0 };
  (window as unknown as { observed: Observed }).observed = observed;
  const made: Notification[] = [];
  (window as unknown as { made: Notification[] }).made = made;
  window.Notification = class extends window.Notification {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      observed.notifications.push({ title, tag: options?.tag });
      made.push(this);
    }
  };
  // Read off the prototype, not as a method: the original is called with the node as `this`.
  const start = Object.getOwnPropertyDescriptor(AudioScheduledSourceNode.prototype, 'start')!.value as (
    this: AudioScheduledSourceNode,
    when?: number,
  ) => void;
  OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
    observed.tones++;
    start.call(this, when);
  };
}

const observed = (page: Page) => page.evaluate(() => (window as unknown as { observed: Observed }).observed);
const waitForAlerts = (page: Page, notifications: number, tones: number) =>
  page.waitForFunction(
    ([n, t]) => {
      const seen = (window as unknown as { observed: Observed }).observed;
      return seen.notifications.length === n && seen.tones === t;
    },
    [notifications, tones] as const,
  );

/** The flow of a workspace whose customers ask for a person with the keyword "agent". */
const handOffFlow = {
  start: 'handoff',
  keywords: ['agent'],
  nodes: [{ id: 'handoff', type: 'handoff', note: 'Wants a person' }],
};

describe(`dashboard: inbox filters and alerts (${ENGINE})`, () => {
  test('"Needs a person" lists what a flow handed off; "Number" appears with a second number and picks its conversations', async () => {
    const owner = await cloudOwner('Filter Florist');
    const api = await ownerApi(server, owner);
    const saved = await api.action('save-flow', { name: 'Front desk', definition: handOffFlow });
    assert.equal(saved.status, 200, saved.text);
    await customerWrites(owner, '4915112350001', 'Just browsing');
    await customerWrites(owner, '4915112350002', 'agent');
    await scheduler.runDue(owner.workspaceId);
    outbox.wake();
    await outbox.idle();

    const { page } = await newPage(server);
    const channels = page.waitForResponse((r) => r.url().endsWith('/list-channels'));
    await logIn(page, owner);
    await listShows(page, ['+4915112350002', '+4915112350001']);
    await channels;
    await page.evaluate(() => new Promise(requestAnimationFrame));
    assert.equal(await page.getByLabel('Number').count(), 0, 'one number: no number filter');

    const filters = page.getByRole('navigation', { name: 'Conversations to show' });
    await filters.getByRole('link', { name: 'Needs a person' }).click();
    await listShows(page, ['+4915112350002']);

    const second = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const added = await api.action('add-channel', {
      provider: 'whatsapp-cloud',
      phone_number_id: second.phoneNumberId,
      waba_id: second.wabaId,
      access_token: second.accessToken,
    });
    assert.equal(added.status, 200, added.text);
    await customerWrites({ ...owner, phoneNumberId: second.phoneNumberId }, '4915112350003', 'Hi, second shop?');

    await page.goto('/inbox');
    await listShows(page, ['+4915112350003', '+4915112350002', '+4915112350001']);
    const number = page.getByLabel('Number');
    const secondOption = await number.locator('option', { hasText: second.displayPhoneNumber }).getAttribute('value');
    await number.selectOption(secondOption ?? '');
    await listShows(page, ['+4915112350003']);
    await page.waitForURL(/channel=/);
    await screenshot(page, 'inbox-number-filter');
    await number.selectOption({ label: 'All numbers' });
    await listShows(page, ['+4915112350003', '+4915112350002', '+4915112350001']);
  });

  test('opted in: a notification and a chime for a message in another conversation, none in the open one; off means off', async () => {
    const owner = await cloudOwner('Alert Florist');
    const anna = await customerWrites(owner, '4915112360001', 'Hello');
    const { page, context } = await newPage(server);
    await context.grantPermissions(['notifications']);
    await page.addInitScript(observeAlerts);
    await logIn(page, owner);
    await listShows(page, ['+4915112360001']);
    await page.getByRole('checkbox', { name: 'Notifications' }).check();
    await page.getByRole('checkbox', { name: 'Sound' }).check();

    // Reading Anna's conversation: Ben's message alerts, Anna's does not.
    await page.goto(`/inbox/${anna}`);
    const messages = page.getByRole('list', { name: 'Messages' });
    await messages.getByText('Hello').waitFor();
    const ben = await customerWrites(owner, '4915112360002', 'Are you open today?');
    await waitForAlerts(page, 1, 2);
    assert.deepEqual((await observed(page)).notifications, [{ title: 'New message in Parley', tag: ben }]);
    await customerWrites(owner, '4915112360001', 'Never mind');
    await messages.getByText('Never mind').waitFor();
    assert.deepEqual(await observed(page), { notifications: [{ title: 'New message in Parley', tag: ben }], tones: 2 });

    // Clicking the notification opens Ben's conversation.
    await page.evaluate(() => {
      const [made] = (window as unknown as { made: Notification[] }).made;
      made!.onclick!.call(made!, new Event('click'));
    });
    await page.waitForURL(`**/inbox/${ben}`);

    // Sound off: notifications only. Both off: nothing, though the message arrives.
    await page.goto('/inbox');
    await page.getByRole('checkbox', { name: 'Sound' }).uncheck();
    await customerWrites(owner, '4915112360003', 'A question');
    await waitForAlerts(page, 1, 0);
    await page.getByRole('checkbox', { name: 'Notifications' }).uncheck();
    await customerWrites(owner, '4915112360004', 'Another question');
    await page.getByText('Another question').waitFor();
    const after = await observed(page);
    assert.equal(after.notifications.length, 1, 'no notification once turned off');
    assert.equal(after.tones, 0, 'no sound once turned off');
  });
});
