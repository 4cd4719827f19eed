import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { ownerApi } from '../factories.js';
import { ENGINE, startServer } from '../server.js';

const server = await startServer({}, { outbox: true });

interface Hours {
  enabled: boolean;
  time_zone: string;
  weekly: Record<string, { opens: string; closes: string }[]>;
  holidays: string[];
  away_message: string;
}

describe(`dashboard: business hours, and what the simulator shares (${ENGINE})`, () => {
  test('Settings → Business hours saves split hours, a closed day, a holiday, the away reply and the survey', async () => {
    const owner = await createOwner(server, 'Hours Florist');
    const api = await ownerApi(server, owner);
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/settings/business-hours');
    await page.getByRole('heading', { name: 'Business hours', level: 1 }).waitFor();

    await page.getByLabel('Send the away reply outside business hours').check();
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    const monday = page.getByRole('group', { name: 'Monday' });
    await monday.getByLabel('Monday Closes').fill('12:00');
    await monday.getByRole('button', { name: 'Add hours on Monday' }).click();
    await monday.getByLabel('Monday Opens').nth(1).fill('13:00');
    await monday.getByLabel('Monday Closes').nth(1).fill('18:30');
    await page.getByRole('button', { name: /^Remove Friday/ }).click();
    await page.getByLabel('Holiday date').fill('2026-12-25');
    await page.getByRole('button', { name: 'Add holiday' }).click();
    await page.getByLabel('Away message').fill('Closed now; we answer from 9.');
    await page.getByRole('button', { name: 'Save business hours' }).click();
    await page.getByRole('status').getByText('Business hours saved.').waitFor();

    const hours = (await api.action<Hours>('get-business-hours')).body;
    assert.equal(hours.enabled, true);
    assert.equal(hours.time_zone, 'Europe/Berlin');
    assert.deepEqual(hours.weekly.monday, [
      { opens: '09:00', closes: '12:00' },
      { opens: '13:00', closes: '18:30' },
    ]);
    assert.deepEqual(hours.weekly.friday, []);
    assert.deepEqual(hours.holidays, ['2026-12-25']);
    assert.equal(hours.away_message, 'Closed now; we answer from 9.');

    // An overlap is named by its day's label, and nothing changes.
    await monday.getByLabel('Monday Opens').nth(1).fill('11:00');
    await page.getByRole('button', { name: 'Save business hours' }).click();
    await monday.getByText(/^Monday .*overlaps/).waitFor();
    assert.deepEqual((await api.action<Hours>('get-business-hours')).body.weekly.monday, hours.weekly.monday);

    await page.getByLabel('When an agent closes a conversation, ask the customer to rate it from 1 to 5').check();
    await page.getByRole('button', { name: 'Save survey setting' }).click();
    await page.getByText('Survey setting saved.').waitFor();
    await screenshot(page, 'settings-business-hours');
    assert.deepEqual((await api.action('get-satisfaction-survey-settings')).body, { enabled: true });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('the simulator sends a photo and a location that the inbox shows', async () => {
    const owner = await createOwner(server, 'Sim Florist');
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto('/simulator');
    await page.getByLabel('Contact or phone number').fill('+14155550191');
    await page.getByRole('button', { name: 'Send a photo' }).click();
    const messages = page.getByRole('list', { name: 'Messages, oldest first' });
    await messages.getByText('Like these, but in red?').waitFor();
    await page.getByRole('button', { name: 'Send a location' }).click();
    await messages.getByText('Location: Alexanderplatz').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    // The photo is downloaded into the media store by the same job as a file from Meta.
    await server.app.services.scheduler.runDue(owner.workspaceId);

    await page.goto('/inbox');
    await page
      .getByRole('list', { name: 'Conversations' })
      .getByRole('link', { name: /14155550191/ })
      .click();
    const thread = page.getByRole('list', { name: 'Messages' });
    const photo = thread.getByRole('img', { name: 'Like these, but in red?' });
    await photo.waitFor();
    await page.waitForFunction(() => [...document.images].some((img) => img.complete && img.naturalWidth === 64));
    await thread.getByText('Alexanderplatz').waitFor();
    await thread.getByRole('link', { name: '52.52190, 13.41320' }).waitFor();
    await screenshot(page, 'inbox-simulated-photo-location');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  test('a customer’s rating shows as “Rated 4/5” in the thread and in the Reports’ figures per agent', async () => {
    const owner = await createOwner(server, 'Rated Florist');
    const api = await ownerApi(server, owner);
    assert.equal((await api.action('update-satisfaction-survey-settings', { enabled: true })).status, 200);
    const phone = '+14155550192';
    const inbound = await api.action<{ contact_id: string }>('simulate-inbound-message', { phone, text: 'Thanks!' });
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    await page.goto(`/inbox/${inbound.body.contact_id}`);
    await page.getByRole('button', { name: 'Mark done' }).click();

    // The survey is queued in the transaction that closes the conversation; the customer picks the second row.
    await page.waitForURL(/\/inbox$/); // "Mark done" moves on once the close is saved
    const sent = await api.action<{ type: string; content: Record<string, unknown> }[]>('list-messages', { phone });
    const survey = sent.body.find((message) => message.type === 'interactive');
    assert.ok(survey, JSON.stringify(sent.body));
    const rows = (survey.content.interactive as { action: { sections: { rows: { id: string; title: string }[] }[] } })
      .action.sections[0]!.rows;
    const rated = await api.action('simulate-inbound-message', { phone, list_reply: rows[1] });
    assert.equal(rated.status, 200, rated.text);

    await page.goto(`/inbox/${inbound.body.contact_id}`);
    await page
      .getByRole('list', { name: 'Messages' })
      .getByText(/^Rated 4\/5/)
      .waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.goto('/reports');
    // Everyone's ratings: one, averaging 4, all satisfied (4–5).
    const table = page.getByRole('table', { name: 'Figures per agent' });
    await table.getByRole('row', { name: /^Everyone .* 1 4 100%$/ }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });
});
