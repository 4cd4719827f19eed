import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Flow } from '../../src/flows/flow.schema.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { ownerApi } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer({}, { outbox: true });

/** "menu" starts it: reply buttons, then (for "Sizes") a list; the chosen row's id is saved. */
const menuFlow = {
  start: 'menu',
  keywords: ['menu'],
  nodes: [
    {
      id: 'menu',
      type: 'send_buttons',
      text: 'Hi {{contact.first_name | "there"}}, what can we do?',
      buttons: [
        { id: 'sizes', title: 'Sizes' },
        { id: 'person', title: 'A person' },
      ],
      next: 'wait',
    },
    { id: 'wait', type: 'wait_for_reply', timeout: 'PT1H', next: 'route' },
    { id: 'route', type: 'branch', branches: [{ when: { button_id: 'sizes' }, next: 'sizes' }], default: 'handoff' },
    {
      id: 'sizes',
      type: 'send_list',
      text: 'Which size?',
      button: 'Sizes',
      sections: [
        {
          title: 'Shirts',
          rows: [
            { id: 'size_s', title: 'Small', description: 'Chest 90 cm' },
            { id: 'size_m', title: 'Medium' },
          ],
        },
      ],
      next: 'picked',
    },
    { id: 'picked', type: 'wait_for_reply', timeout: 'PT1H', next: 'thanks' },
    { id: 'thanks', type: 'send_text', text: 'Noted, {{contact.first_name | "friend"}}.', next: 'end' },
    { id: 'handoff', type: 'handoff', note: 'Wanted a person' },
    { id: 'end', type: 'end' },
  ],
};

describe(`dashboard: the simulator taps the bot's buttons and list rows (${ENGINE})`, () => {
  test('a tapped button and list row reach the flow as Meta’s button_reply / list_reply', async () => {
    const owner = await createOwner(server, 'Sim Shirts');
    const api = await ownerApi(server, owner);
    const saved = await api.action<Flow>('save-flow', { name: 'Menu', definition: menuFlow });
    assert.equal(saved.status, 200, saved.text);

    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/simulator');
    await page.getByLabel('Contact or phone number').fill('+14155550190');
    await page.getByLabel('Message').fill('menu');
    await page.getByRole('button', { name: 'Send as contact' }).click();
    const messages = page.getByRole('list', { name: 'Messages, oldest first' });
    await messages.getByText('Hi there, what can we do?').waitFor();

    await messages.getByRole('group', { name: 'Reply buttons' }).getByRole('button', { name: 'Sizes' }).click();
    const list = messages.getByRole('group', { name: 'List “Sizes”' });
    await list.getByRole('button', { name: /Small/ }).waitFor();
    await screenshot(page, 'simulator-list');
    await list.getByRole('button', { name: /Small/ }).click();
    await messages.getByText('Noted, friend.').waitFor();

    const runs = (await api.action<Flow>('get-flow', { flow_id: saved.body.id })).body.runs;
    assert.equal(runs.completed, 1);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('at 375 px the bot’s buttons fit and can be tapped', async () => {
    const owner = await createOwner(server, 'Small Shirts');
    const api = await ownerApi(server, owner);
    const flow = await api.action<Flow>('save-flow', { name: 'Menu', definition: menuFlow });
    await api.action('simulate-inbound-message', { phone: '+14155550191', text: 'menu' });

    const { page } = await newPage(server, { width: 375, height: 740 });
    await logIn(page, owner);
    await page.goto('/simulator');
    await page.getByLabel('Contact or phone number').fill('+14155550191');
    await page.getByRole('list', { name: 'Matching contacts' }).getByRole('button').first().click();
    const messages = page.getByRole('list', { name: 'Messages, oldest first' });
    await messages.getByRole('button', { name: 'A person' }).click();
    await messages.locator('.sim-bubble.inbound', { hasText: 'A person' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page scrolls sideways: ${width}px`);
    await screenshot(page, 'simulator-375');
    assert.equal((await api.action<Flow>('get-flow', { flow_id: flow.body.id })).body.runs.handed_off, 1);
  });
});
