import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Flow, FlowStats } from '../../src/flows/flow.schema.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { ownerApi } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer();

/** A signed-in owner of a fresh workspace on the new-flow page, and their API client. */
async function onNewFlow(options: { bypassCSP?: boolean; width?: number } = {}) {
  const owner = await createOwner(server, `Rosa Flowers ${randomInt(1e6)}`);
  const { page } = await newPage(server, { ...options, height: 1000 });
  await logIn(page, owner);
  await page.goto('/flows');
  await page.getByText('No flows yet.').waitFor();
  await page.getByRole('link', { name: 'New flow' }).click();
  await card(page, 'Welcome').waitFor();
  return { page, owner, api: await ownerApi(server, owner) };
}

/** The card on the canvas with this title. */
const card = (page: Page, title: string) =>
  page.locator('.flow-card', { has: page.locator('.card-title', { hasText: new RegExp(`^${title}$`) }) });

/** The selected node's form beside the canvas. */
const panel = (page: Page) => page.locator('.node-panel');

/** Adds a node of this type through "New node" and names it (the form's Title has the cursor). */
async function addNode(page: Page, type: string, name: string) {
  await page.getByLabel('New node').selectOption({ label: type });
  await page.getByRole('button', { name: 'Add node', exact: true }).click();
  await assertFocused(panel(page).getByLabel('Title', { exact: true }));
  await panel(page).getByLabel('Title', { exact: true }).fill(name);
  await card(page, name).waitFor();
}

/** The card with this title as focus reaches it (React Flow's node around the card). */
const node = (page: Page, title: string) => page.locator(`.react-flow__node[aria-label^="${title},"]`);

/** Opens a card's form as the keyboard does: focus on the card, Enter. */
async function open(page: Page, title: string) {
  await node(page, title).focus();
  await page.keyboard.press('Enter');
  await panel(page)
    .getByRole('heading', { name: new RegExp(`^${title} ·`) })
    .waitFor();
}

/** Drags from a card's exit (its dot at the end of the exit's row) to another card, as a mouse does. */
async function drag(page: Page, from: string, exit: string, to: string) {
  await page.getByRole('button', { name: 'Fit the flow in view' }).click();
  await page.waitForTimeout(300); // the view's move to fit
  const handle = card(page, from).locator('.card-exits li', { hasText: exit }).locator('.react-flow__handle');
  const target = card(page, to).locator('.react-flow__handle.target');
  for (const locator of [handle, target]) await locator.scrollIntoViewIfNeeded();
  const start = (await handle.boundingBox())!;
  const end = (await target.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2 + 8, end.y + end.height / 2, { steps: 8 });
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.locator(`.react-flow__edge[aria-label="${from}, ${exit}, to ${to}"]`).waitFor({ state: 'attached' });
}

/** Chooses where an exit of the open card goes, in its form (the way without a mouse). */
async function goTo(page: Page, exit: string, to: string) {
  const select = panel(page).getByRole('group', { name: 'Where it goes next' }).getByLabel(exit, { exact: true });
  const option = select.locator('option', { hasText: new RegExp(`^${to} \\(`) });
  await select.selectOption(await option.getAttribute('value'));
}

/** Focus moves once the page has rendered the key's effect: wait for it (a busy machine renders late). */
async function assertFocused(locator: Locator) {
  const element = await locator.elementHandle();
  const focused = await locator
    .page()
    .waitForFunction((target) => target === document.activeElement, element, { timeout: 10_000 })
    .then(() => true)
    .catch(() => false);
  assert.ok(focused, 'has the focus');
}

/** Where a card is on the canvas (React Flow places it by a translate in the flow's own coordinates). */
async function placeOf(locator: Locator) {
  const transform = (await locator.getAttribute('style'))!;
  const [x, y] = /translate\(([-\d.]+)px, ?([-\d.]+)px\)/.exec(transform)!.slice(1).map(Number);
  return { x: x!, y: y! };
}

async function savedFlow(page: Page, api: Awaited<ReturnType<typeof ownerApi>>) {
  await page.getByRole('button', { name: 'Publish' }).click();
  await page
    .getByRole('status')
    .getByText(/^Published: version \d+ is live\.$/)
    .waitFor();
  await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').at(-1)!;
  const flow = await api.action<Flow>('get-flow', { flow_id: id });
  assert.equal(flow.status, 200, flow.text);
  return flow.body;
}

describe(`dashboard: the flow builder's canvas (${ENGINE})`, () => {
  test('the florist’s order bot built on the canvas (a keyword, buttons, a list, a branch, a wait, a hand-off), no id or JSON typed; get-flow has it', async () => {
    const { page, api } = await onNewFlow({ width: 1600 });
    // A contact with an attribute: the variables offer the attributes the workspace's contacts have.
    const contact = await api.action('create-contact', {
      phone: '+14155550170',
      metadata: { city: 'Lisbon' },
    });
    assert.equal(contact.status, 201, contact.text);
    await page.reload();
    await card(page, 'Welcome').waitFor();
    await page.getByLabel('Name', { exact: true }).first().fill('Rosa’s orders');
    await page.getByLabel('Keywords').fill('flowers');
    await card(page, 'Welcome').getByText('Starts on: flowers').waitFor();

    await open(page, 'Welcome');
    await panel(page).getByLabel('Message').fill('Hi ');
    const variables = panel(page).getByLabel('Insert a variable…');
    await variables.locator('option', { hasText: '{{attributes.city}}' }).waitFor({ state: 'attached' });
    assert.deepEqual(await variables.locator('option').allTextContents(), [
      'Insert a variable…',
      '{{contact.first_name}}',
      '{{contact.name}}',
      '{{contact.phone}}',
      '{{contact.email}}',
      '{{attributes.city}}',
    ]);
    await variables.selectOption('{{contact.first_name}}');
    await panel(page).getByLabel('Message').press('End');
    await panel(page).getByLabel('Message').pressSequentially('! Welcome to Rosa’s Flowers.');
    await panel(page).getByRole('figure', { name: 'Preview' }).getByText('Hi Maria! Welcome').waitFor();

    await addNode(page, 'Send buttons', 'Menu');
    // A new "Send buttons" comes with one button, "Yes": it never starts blank.
    assert.equal(await panel(page).getByLabel('Button 1', { exact: true }).inputValue(), 'Yes');
    await panel(page).getByLabel('Message').fill('What would you like?');
    await panel(page).getByLabel('Button 1', { exact: true }).fill('Order flowers');
    await panel(page).getByRole('button', { name: 'Add button' }).click();
    await panel(page).getByLabel('Button 2', { exact: true }).fill('Opening hours');
    await card(page, 'Menu').getByText('“Opening hours”').waitFor();
    await drag(page, 'Welcome', 'Then', 'Menu');

    await addNode(page, 'Send a list', 'Bouquets');
    await panel(page).getByLabel('Message').fill('Which bouquet?');
    await panel(page).getByLabel('List button label').fill('Bouquets');
    await panel(page).getByLabel('Section 1 title').fill('Bestsellers');
    await panel(page).getByLabel('Row 1', { exact: true }).fill('Roses');
    await panel(page).getByRole('button', { name: 'Add row' }).click();
    await panel(page).getByLabel('Row 2', { exact: true }).fill('Tulips');
    await drag(page, 'Menu', '“Order flowers”', 'Bouquets');

    await addNode(page, 'Ask a question', 'Address');
    await panel(page).getByLabel('Message').fill('Where should we deliver?');
    await panel(page).getByLabel('Save the reply as attribute').fill('address');
    await open(page, 'Bouquets');
    await goTo(page, '“Roses”', 'Address');
    await goTo(page, '“Tulips”', 'Address');

    await addNode(page, 'Branch', 'Check');
    // A new branch tests something from the start (a reply that contains "yes"): never blank.
    assert.equal(await panel(page).getByLabel('Condition 1 value').inputValue(), 'yes');
    await panel(page).getByLabel('Condition 1 value').fill('urgent');
    await open(page, 'Address');
    await goTo(page, 'Answered', 'Check');

    await addNode(page, 'Send a text', 'Thanks');
    await panel(page).getByLabel('Message').fill('Thank you! We deliver to ');
    await addNode(page, 'Hand off to a person', 'Florist');
    await panel(page).getByLabel('Note for the agent').fill('Wants it today');
    await open(page, 'Check');
    await goTo(page, 'Reply contains “urgent”', 'Florist');
    await goTo(page, 'Otherwise', 'Thanks');
    // The answer saved on the way to a node is among its variables.
    await open(page, 'Thanks');
    await panel(page).getByLabel('Message').press('End');
    await panel(page).getByLabel('Insert a variable…').selectOption('{{attributes.address}}');
    await open(page, 'Bouquets');
    await goTo(page, 'No reply in time', 'Florist');

    await addNode(page, 'Send a text', 'Hours');
    await panel(page).getByLabel('Message').fill('We are open from 9 to 18.');
    await addNode(page, 'Wait for a reply', 'Later');
    await panel(page).getByLabel('Wait for the reply up to: amount').fill('2');
    await panel(page).getByLabel('Wait for the reply up to: unit').selectOption('H');
    await goTo(page, 'Replied', 'Florist');
    await drag(page, 'Hours', 'Then', 'Later');
    await drag(page, 'Menu', '“Opening hours”', 'Hours');

    assert.equal(await page.locator('.flow-card.unreachable').count(), 0);
    await page.getByRole('button', { name: 'Tidy up' }).click();
    await page.waitForTimeout(300); // the view's move to fit the tidied cards
    await open(page, 'Menu');
    await screenshot(page, 'flow-builder');
    const flow = await savedFlow(page, api);

    assert.deepEqual(flow.keywords, ['flowers']);
    assert.equal(flow.start, 'Welcome');
    assert.deepEqual(flow.nodes, [
      {
        id: 'Welcome',
        type: 'send_text',
        text: 'Hi {{contact.first_name}}! Welcome to Rosa’s Flowers.',
        next: 'Menu',
      },
      {
        id: 'Menu',
        type: 'send_buttons',
        text: 'What would you like?',
        buttons: [
          { id: 'order_flowers', title: 'Order flowers' },
          { id: 'opening_hours', title: 'Opening hours' },
        ],
        next: 'Menu-reply',
      },
      { id: 'Menu-reply', type: 'wait_for_reply', timeout: 'P1D', next: 'Menu-choice' },
      {
        id: 'Menu-choice',
        type: 'branch',
        branches: [
          { when: { button_id: 'order_flowers' }, next: 'Bouquets' },
          { when: { button_id: 'opening_hours' }, next: 'Hours' },
        ],
        // A reply that taps neither gets the buttons again.
        default: 'Menu',
      },
      {
        id: 'Bouquets',
        type: 'send_list',
        text: 'Which bouquet?',
        button: 'Bouquets',
        sections: [
          {
            title: 'Bestsellers',
            rows: [
              { id: 'roses', title: 'Roses' },
              { id: 'tulips', title: 'Tulips' },
            ],
          },
        ],
        next: 'Bouquets-reply',
      },
      { id: 'Bouquets-reply', type: 'wait_for_reply', timeout: 'P1D', next: 'Bouquets-choice', on_timeout: 'Florist' },
      {
        id: 'Bouquets-choice',
        type: 'branch',
        branches: [
          { when: { button_id: 'roses' }, next: 'Address' },
          { when: { button_id: 'tulips' }, next: 'Address' },
        ],
        default: 'Bouquets',
      },
      {
        id: 'Address',
        type: 'ask',
        text: 'Where should we deliver?',
        attribute: 'address',
        timeout: 'P1D',
        next: 'Check',
        validate: 'any',
        retries: 0,
      },
      {
        id: 'Check',
        type: 'branch',
        branches: [{ when: { reply_contains: 'urgent' }, next: 'Florist' }],
        default: 'Thanks',
      },
      { id: 'Thanks', type: 'send_text', text: 'Thank you! We deliver to {{attributes.address}}' },
      { id: 'Florist', type: 'handoff', note: 'Wants it today' },
      { id: 'Hours', type: 'send_text', text: 'We are open from 9 to 18.', next: 'Later' },
      { id: 'Later', type: 'wait_for_reply', timeout: 'PT2H', next: 'Florist' },
    ]);

    // Opened again, the same cards: the message with its wait and its buttons' routes is one card.
    await page.reload();
    await card(page, 'Menu').waitFor();
    assert.equal(await page.locator('.flow-card').count(), 9);
    // Edges are drawn once the cards are measured, a frame after the cards.
    await page.locator('.react-flow__edge').nth(12).waitFor({ state: 'attached' });
    assert.equal(await page.locator('.react-flow__edge').count(), 13);
    await page.getByLabel('Start for a contact (phone)').fill('+14155550124');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/^Started for \+14155550124/)
      .waitFor();
    await screenshot(page, 'flow-page');
    await page.getByRole('link', { name: 'All flows' }).click();
    await page.getByRole('row', { name: /Rosa’s orders/ }).waitFor();
    await screenshot(page, 'flows');
  });

  test('the florist’s menu from draft to live: kept while invalid, published when fixed, tried in the simulator with its path lit, runs counted per edge, cards kept where they were put', async () => {
    const { page, api } = await onNewFlow({ width: 1600, bypassCSP: true });
    await page.getByLabel('Name', { exact: true }).first().fill('Rosa’s menu');
    await page.getByLabel('Keywords').fill('menu');
    await addNode(page, 'Send buttons', 'Menú del día');
    await panel(page).getByLabel('Message').fill('What would you like?');
    await panel(page).getByLabel('Button 1', { exact: true }).fill('Roses');
    // A new wait has a time limit (a day); the person may choose none.
    assert.equal(await panel(page).getByLabel('Wait for the reply up to: amount').inputValue(), '1');
    await panel(page).getByLabel('No time limit (wait until a reply comes)').check();
    await panel(page).getByLabel('Wait for the reply up to: amount').waitFor({ state: 'detached' });
    await addNode(page, 'Send a text', 'ساعات العمل');
    await panel(page).getByLabel('Message').fill('Roses it is!');
    await open(page, 'Menú del día');
    await goTo(page, '“Roses”', 'ساعات العمل');
    await open(page, 'Welcome');
    await goTo(page, 'Then', 'Menú del día');

    // Welcome has no message yet: the draft is kept with its problem, and Publish says what it waits for.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page
      .getByRole('status')
      .getByText('Draft saved. Fix the problems shown on the nodes to publish it.')
      .waitFor();
    await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
    await page.getByText('Not published yet · draft has unpublished changes', { exact: true }).waitFor();
    const publish = page.getByRole('button', { name: 'Publish' });
    assert.ok(await publish.isDisabled());
    await page.getByText('Publishing needs the problem shown on its node fixed.').waitFor();

    // Opened again: the draft, with its problem on its card.
    await page.reload();
    await card(page, 'Welcome').locator('.card-problem').getByText('Message needs filling in').waitFor();
    await open(page, 'Welcome');
    await panel(page).getByLabel('Message').fill('Hi! Welcome to Rosa’s Flowers.');
    await publish.click();
    await page.getByRole('status').getByText('Published: version 2 is live.').waitFor();
    await page.getByText('Version 2 live', { exact: true }).waitFor();
    const id = page.url().split('/').at(-1)!;
    const live = (await api.action<Flow>('get-flow', { flow_id: id })).body;
    assert.deepEqual(
      live.nodes.map((n) => [n.id, n.title, 'timeout' in n]),
      [
        ['Welcome', undefined, false],
        ['Menu_del_dia', 'Menú del día', false],
        ['Menu_del_dia-reply', undefined, false],
        ['Menu_del_dia-choice', undefined, false],
        ['send_text', 'ساعات العمل', false],
      ],
    );

    // Try it: the person plays the customer; the path lights up as they go.
    await page.getByRole('button', { name: 'Try it' }).click();
    const trying = page.getByRole('region', { name: 'Try it' });
    await trying.getByText('Hi! Welcome to Rosa’s Flowers.').waitFor();
    await trying.getByRole('button', { name: 'Roses' }).click();
    await trying.getByText('Roses it is!').waitFor();
    await node(page, 'ساعات العمل').and(page.locator('[aria-label$="on the try’s path"]')).waitFor();
    await page.locator('.react-flow__edge.lit').nth(1).waitFor({ state: 'attached' });
    assert.equal(await page.locator('.react-flow__edge.lit').count(), 2);
    assert.equal((await api.action<FlowStats>('get-flow-stats', { flow_id: id })).body.runs, 0, 'a try is no run');
    // The new controls (Title, No time limit, Save draft, Publish, Try it and its panel) have no serious axe findings.
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await screenshot(page, 'flow-builder-try');

    // A customer's run, counted on the edges it took (read as each edge's name too).
    for (const message of [{ text: 'menu' }, { button_reply: { id: 'roses', title: 'Roses' } }]) {
      const sent = await api.action('simulate-inbound-message', { phone: '+14155550177', ...message });
      assert.equal(sent.status, 200, sent.text);
    }
    await page.reload();
    await card(page, 'ساعات العمل').getByText('1 run here').waitFor();
    await page
      .locator('.react-flow__edge[aria-label="Welcome, Then, to Menú del día, 1 run"]')
      .waitFor({ state: 'attached' });
    await page.getByText('Version 2 live · 1 run of the live version (counts on the canvas)').waitFor();

    // Cards stay where they are put: moved, saved, opened again.
    const welcome = node(page, 'Welcome');
    const before = await placeOf(welcome);
    const box = (await card(page, 'Welcome').locator('.card-title').boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + 185, { steps: 8 });
    await page.mouse.up();
    const moved = await placeOf(welcome);
    assert.ok(moved.y - before.y > 100, `moved down (${before.y} → ${moved.y})`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').getByText('Draft saved.', { exact: true }).waitFor();
    await page.reload();
    await card(page, 'Welcome').waitFor();
    const after = await placeOf(welcome);
    assert.ok(Math.abs(after.x - moved.x) <= 1 && Math.abs(after.y - moved.y) <= 1, 'kept where it was put');
  });

  test('a node’s problem shows on its card and in its form in people’s words; fixed, the flow saves', async () => {
    const { page, api } = await onNewFlow();
    await screenshot(page, 'flow-new');
    await page.getByLabel('Name', { exact: true }).first().fill('Menu bot');
    await addNode(page, 'Send buttons', 'Menu');
    await panel(page).getByLabel('Message').fill('Pick one');
    await panel(page).getByRole('button', { name: 'Add button' }).click();
    await panel(page).getByRole('button', { name: 'Add button' }).click();
    await panel(page).getByLabel('Button 3', { exact: true }).fill('');
    await open(page, 'Welcome');
    await goTo(page, 'Then', 'Menu');
    await page.getByRole('button', { name: 'Publish' }).click();

    await card(page, 'Menu').locator('.card-problem').getByText('Button 3 needs a title').waitFor();
    assert.match((await card(page, 'Menu').getAttribute('class'))!, /invalid/);
    await card(page, 'Welcome').locator('.card-problem').getByText('Message needs filling in').waitFor();
    // Not published, but kept as a draft; Publish waits for the problems, and says so.
    await page
      .getByRole('status')
      .getByText('Draft saved. Fix the problems shown on the nodes to publish it.')
      .waitFor();
    assert.ok(await page.getByRole('button', { name: 'Publish' }).isDisabled());
    await page.getByText('Publishing needs the 2 problems shown on their nodes fixed.').waitFor();
    await screenshot(page, 'flow-builder-error');
    const shown = (await page.locator('main').textContent())!;
    assert.doesNotMatch(shown, /node_|send_buttons|buttons\/|must not be empty|definition/);

    await open(page, 'Menu');
    await panel(page).getByRole('alert').getByText('Button 3 needs a title').waitFor();
    assert.equal(await panel(page).getByLabel('Button 3', { exact: true }).getAttribute('aria-invalid'), 'true');
    await panel(page).getByLabel('Button 3', { exact: true }).fill('Later');
    await panel(page).getByRole('alert').waitFor({ state: 'detached' });
    await card(page, 'Menu').locator('.card-problem').waitFor({ state: 'detached' });
    await open(page, 'Welcome');
    await panel(page).getByLabel('Message').fill('Hello!');
    const flow = await savedFlow(page, api);
    assert.deepEqual(
      flow.nodes.find((n) => n.id === 'Menu'),
      {
        id: 'Menu',
        type: 'send_buttons',
        text: 'Pick one',
        buttons: [
          { id: 'yes', title: 'Yes' },
          { id: 'option_2', title: 'Option 2' },
          { id: 'later', title: 'Later' },
        ],
        next: 'Menu-reply',
      },
    );
  });

  test('without a mouse: add a node, move between cards, connect an exit from the form, delete; no serious axe findings', async () => {
    const { page, owner, api } = await onNewFlow({ bypassCSP: true });
    await page.getByLabel('Name', { exact: true }).first().fill('Keyboard');
    await page.getByLabel('New node').focus();
    await page.keyboard.type('End');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // The new card's form has the cursor, in its Title.
    await assertFocused(panel(page).getByLabel('Title', { exact: true }));
    await panel(page)
      .getByRole('heading', { name: /^End · End/ })
      .waitFor();

    // Cards take the focus in turn; Enter opens a card's form.
    await node(page, 'Welcome').focus();
    assert.equal(await node(page, 'Welcome').getAttribute('aria-label'), 'Welcome, Send a text, Start');
    await page.keyboard.press('Tab');
    await assertFocused(node(page, 'End'));
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await panel(page)
      .getByRole('heading', { name: /^Welcome ·/ })
      .waitFor();

    const then = panel(page).getByRole('group', { name: 'Where it goes next' }).getByLabel('Then');
    await then.focus();
    await page.keyboard.type('End');
    await page.locator('.react-flow__edge[aria-label="Welcome, Then, to End"]').waitFor({ state: 'attached' });
    assert.equal(await then.inputValue(), 'End');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // Delete removes the focused, selected card, and the exit that went to it is open again.
    await node(page, 'End').focus();
    await page.keyboard.press('Enter');
    await page.locator('.react-flow__node.selected[aria-label^="End,"]').waitFor();
    await page.keyboard.press('Delete');
    await card(page, 'End').waitFor({ state: 'detached' });
    await card(page, 'Welcome').getByText('ends').waitFor();
    await page.locator('.react-flow__edge').waitFor({ state: 'detached' });

    await open(page, 'Welcome');
    await panel(page).getByLabel('Message').fill('Hello');
    const flow = await savedFlow(page, api);
    assert.deepEqual(flow.nodes, [{ id: 'Welcome', type: 'send_text', text: 'Hello' }]);
    await page.locator('.flow-card').first().waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // At phone width the form goes under the canvas, and nothing scrolls sideways.
    const narrow = await newPage(server, { width: 375 });
    await logIn(narrow.page, owner);
    await narrow.page.goto(page.url());
    await open(narrow.page, 'Welcome');
    const width = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the flow page fits 375 px (scroll width ${width})`);
    await screenshot(narrow.page, 'flow-builder-375');
  });
});
