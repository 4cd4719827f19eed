import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ENGINE, startServer } from '../server.js';
import { createOwner, logIn, newPage, screenshot, seriousAccessibilityViolations } from '../browser.js';
import { startGraphStandIn } from '../graph-stand-in.js';
import { API_VERSION } from '../whatsapp.js';

const graph = await startGraphStandIn({ apiVersion: API_VERSION });
const server = await startServer({
  WHATSAPP_VERIFY_TOKEN: 'verify-me-please',
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_API_VERSION: API_VERSION,
});
const { services } = server.app;

/** A teammate who joined by invitation, with the password they chose. */
async function createMember(owner: Awaited<ReturnType<typeof createOwner>>) {
  const email = `member-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'member has a password';
  const invite = await services.accounts.invite(
    {
      sessionId: '',
      userId: owner.userId,
      email: owner.email,
      name: 'Owner',
      role: 'owner',
      workspaceId: owner.workspaceId,
      workspaceName: '',
      workspaceTimeZone: 'UTC',
      language: null,
      csrfToken: '',
      rateLimitPerMinute: 60,
    },
    { email, role: 'member' },
  );
  await services.accounts.acceptInvite({ token: invite.token, name: 'Mo Member', password });
  return { email, password };
}

/** A change made from the page's own session (cookie + CSRF), as a script on the page would. */
function sendFromPage(page: Page, method: string, path: string, body: object) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = (await (await fetch('/api/dashboard/session')).json()) as { csrf_token: string };
      const response = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { code?: string } };
    },
    { method, path, body },
  );
}

async function apiToken(owner: { workspaceId: string; userId: string }) {
  const issued = await services.tokens.create({ ...owner, name: 'test', scope: 'full' });
  return (name: string, body: object) =>
    server.http.send('POST', `/api/v1/actions/${name}`, { token: issued.token, body });
}

describe(`dashboard: settings and the simulator (${ENGINE})`, () => {
  test('Channel: switch to WhatsApp Cloud with credentials and back, seeing the webhook to paste into Meta', async () => {
    const owner = await createOwner(server, 'Channel Shop');
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/channel');
    await page.getByTestId('current-channel').getByText('Current channel: Simulator').waitFor();
    assert.equal(
      await page.getByTestId('webhook-url').textContent(),
      `${server.config.publicBaseUrl}/webhooks/whatsapp`,
    );
    // The test server's address is loopback, which Meta could never call.
    await page.getByTestId('webhook-url-warning').getByText('Meta cannot reach this address').waitFor();
    assert.equal(await page.getByTestId('verify-token').textContent(), 'verify-me-please');
    await screenshot(page, 'settings-channel-simulator');
    // The default channel's form (the Numbers section below has its own, with the same labels).
    const sendThrough = page.getByRole('form', { name: 'Send through' });

    const number = graph.addPhoneNumber({ accessToken: 'EAAG-secret-token' });
    await sendThrough.getByLabel('WhatsApp Cloud API').check();
    await sendThrough.getByLabel('Phone number id').fill('not-a-number');
    await sendThrough.getByLabel('WhatsApp Business Account id').fill(number.wabaId);
    await sendThrough.getByLabel('Access token').fill('EAAG-mistyped-token');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByText("must be Meta's numeric id").waitFor();
    assert.equal((await services.channels.get(owner)).provider, 'simulator', 'bad input changes nothing');

    // Meta is asked before anything is saved; its refusal is shown at the field to fix.
    await sendThrough.getByLabel('Phone number id').fill(number.phoneNumberId);
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByText('Meta does not accept this access token.').waitFor();
    assert.equal(await sendThrough.getByLabel('Access token').getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'settings-channel-refused');
    assert.equal((await services.channels.get(owner)).provider, 'simulator', 'a refused token changes nothing');

    await sendThrough.getByLabel('Access token').fill('EAAG-secret-token');
    await sendThrough.getByLabel('Messages per second').fill('20');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByRole('status').getByText('Channel saved.').waitFor();
    const current = page.getByTestId('current-channel');
    await current.getByText('Current channel: WhatsApp Cloud').waitFor();
    await current.getByText(number.phoneNumberId).waitFor();
    assert.ok(!(await page.content()).includes('EAAG-secret-token'), 'the token is never shown');
    assert.equal(await services.channels.savedAccessToken(owner.workspaceId), 'EAAG-secret-token');
    const { id, ...saved } = await services.channels.get(owner);
    assert.ok(id);
    assert.deepEqual(saved, {
      provider: 'whatsapp-cloud',
      phone_number_id: number.phoneNumberId,
      display_phone_number: number.displayPhoneNumber,
      verified_name: number.verifiedName,
      waba_id: number.wabaId,
      access_token_set: true,
      messages_per_second: 20,
      is_default: true,
      quality_rating: 'GREEN',
      messaging_limit_tier: null,
      business_app: false,
      history_import: null,
      disconnection: null,
      account_status: {},
      portfolio_limit: null,
    });
    await screenshot(page, 'settings-channel-cloud');

    // Changing the rate keeps the saved token when the token field is left blank.
    await page.reload();
    await sendThrough.getByLabel('Messages per second').fill('30');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByTestId('current-channel').getByText('30', { exact: true }).waitFor();
    assert.equal(await services.channels.savedAccessToken(owner.workspaceId), 'EAAG-secret-token');

    await sendThrough.getByLabel('Simulator (try Parley without WhatsApp)').check();
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByTestId('current-channel').getByText('Current channel: Simulator').waitFor();
    assert.equal((await services.channels.get(owner)).provider, 'simulator');
    assert.equal(
      await page.getByTestId('webhook-url').textContent(),
      `${server.config.publicBaseUrl}/webhooks/whatsapp`,
    );
  });

  test('Channel: a test message is simulated inside the 24-hour window and explained outside it', async () => {
    const owner = await createOwner(server, 'Test Send Shop');
    await services.inbound.simulateInbound(owner, { from: '+14155550111', text: 'hi' });
    await services.contacts.create(owner, { phone: '+14155550122', name: 'Quiet Quinn' });
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/channel');
    await page.getByLabel('Phone', { exact: true }).fill('+1 415 555 0111');
    await page.getByRole('button', { name: 'Send test message' }).click();
    await page.getByText('Queued (queued)').waitFor();

    await page.getByLabel('Phone', { exact: true }).fill('+14155550122');
    await page.getByRole('button', { name: 'Send test message' }).click();
    const explanation = page.getByRole('alert');
    await explanation.getByText('only within 24 hours').waitFor();
    await explanation.getByRole('link', { name: 'template' }).waitFor();
    await screenshot(page, 'settings-channel-window-closed');
  });

  test('Channel: the owner adds a second number, makes it the default, sees its quality, and removes the first', async () => {
    const owner = await createOwner(server, 'Two Numbers Shop');
    const [first, second] = [
      graph.addPhoneNumber({ accessToken: 'EAAG-first-token' }),
      graph.addPhoneNumber({ accessToken: 'EAAG-second-token' }),
    ];
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/channel');
    const numbers = page.getByTestId('numbers');
    await numbers.getByText('Built-in simulator').waitFor();
    const addForm = page.getByRole('form', { name: 'Add a number' });
    const add = async (number: typeof first, token: string) => {
      await addForm.getByLabel('Phone number id').fill(number.phoneNumberId);
      await addForm.getByLabel('WhatsApp Business Account id').fill(number.wabaId);
      await addForm.getByLabel('Access token').fill(token);
      await addForm.getByRole('button', { name: 'Add number' }).click();
    };

    // A simulated number without an id would be a nameless second simulator: refused, naming the field.
    await addForm.getByLabel('Simulated number').check();
    await addForm.getByRole('button', { name: 'Add number' }).click();
    await addForm.getByText('A simulated number needs a phone number id').waitFor();
    assert.equal(await addForm.getByLabel('Phone number id').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(
      (await services.channels.list(owner)).map((c) => c.id),
      [null],
      'nothing is added: only the built-in simulator',
    );
    await addForm.getByLabel('WhatsApp Cloud API').check();

    await add(first, 'EAAG-wrong-token');
    await addForm.getByText('Meta does not accept this access token.').waitFor();
    assert.equal(await addForm.getByLabel('Access token').getAttribute('aria-invalid'), 'true');
    assert.equal((await services.channels.get(owner)).id, null, 'a refused token saves nothing');

    await add(first, 'EAAG-first-token');
    await addForm.getByText(`Number ${first.displayPhoneNumber} added.`).waitFor();
    await addForm.getByLabel('Make it the default').check();
    await add(second, 'EAAG-second-token');
    await addForm.getByText(`Number ${second.displayPhoneNumber} added.`).waitFor();
    const row = (number: typeof first) => numbers.getByRole('listitem').filter({ hasText: number.phoneNumberId });
    await row(second).getByText('default').waitFor();
    assert.equal(await row(first).getByText('default').count(), 0);
    assert.match((await row(second).textContent()) ?? '', /WhatsApp Cloud.*quality GREEN/);
    await screenshot(page, 'settings-channel-numbers');
    assert.ok(!(await page.content()).includes('EAAG-second-token'), 'tokens are never shown');

    await row(first)
      .getByRole('button', { name: `Remove number ${first.phoneNumberId}` })
      .click();
    await row(first).waitFor({ state: 'detached' });
    const channels = await services.channels.list(owner);
    assert.deepEqual(
      channels.map((c) => [c.phone_number_id, c.is_default]),
      [[second.phoneNumberId, true]],
    );
  });

  test('Channel and Workspace: a member sees them (the typing indicator too) read-only, and changing them is refused', async () => {
    const owner = await createOwner(server, 'Member Shop');
    const member = await createMember(owner);
    const { page } = await newPage(server);
    await logIn(page, member);
    await page.goto('/settings/workspace');
    await page.getByTestId('read-only-note').waitFor();
    assert.equal(await page.getByLabel('Workspace name').inputValue(), 'Member Shop');
    assert.ok(await page.getByLabel('Workspace name').isDisabled());
    assert.ok(await page.getByLabel('Time zone').isDisabled());
    assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0);
    await screenshot(page, 'settings-workspace-member');
    const refused = await sendFromPage(page, 'PUT', '/api/dashboard/workspace', { name: 'Taken over' });
    assert.deepEqual([refused.status, refused.body.code], [403, 'permission_denied']);
    assert.equal((await services.workspaces.get(owner.workspaceId)).name, 'Member Shop');
    // The workspace-wide typing indicator is a workspace setting too: read-only for a member.
    const typing = page.getByLabel('Show customers a typing indicator when a conversation is opened');
    assert.ok(await typing.isDisabled());
    const typingRefused = await sendFromPage(page, 'PUT', '/api/dashboard/inbox/settings', { typing_indicator: true });
    assert.deepEqual([typingRefused.status, typingRefused.body.code], [403, 'permission_denied']);
    await page.goto('/inbox');
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    assert.equal(await typing.count(), 0, 'the inbox has no workspace settings');

    await page.goto('/settings/channel');
    await page.getByText('Your role (member) cannot change the channel; ask an owner or admin.').waitFor();
    assert.equal(await page.getByTestId('verify-token').count(), 0, 'the verify token is for owners');
    const marketingMessages = page.getByRole('heading', { name: 'Marketing Messages API' });
    assert.equal(await marketingMessages.count(), 0, 'the Marketing Messages API setting is for who manages channels');
    const channel = await sendFromPage(page, 'PUT', '/api/dashboard/channel', { provider: 'simulator' });
    assert.deepEqual([channel.status, channel.body.code], [403, 'permission_denied']);
    assert.equal(await page.getByRole('form', { name: 'Add a number' }).count(), 0);
    const added = await sendFromPage(page, 'POST', '/api/v1/actions/add-channel', { provider: 'simulator' });
    assert.deepEqual([added.status, added.body.code], [403, 'permission_denied']);
  });

  test('Workspace: the owner renames it and changes the time zone; the top bar follows', async () => {
    const owner = await createOwner(server, 'Old Name');
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Workspace' }).click();
    await page.getByRole('heading', { name: 'Workspace' }).waitFor();
    await page.getByLabel('Workspace name').fill('Bakery Nord');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Polling interval (seconds)').fill('10');
    await page.getByTestId('media-storage').getByText('Media storage (server disk)').waitFor();
    assert.match((await page.getByTestId('media-storage').textContent()) ?? '', /in 0 files$/);
    await page.getByLabel('Keep media files (days)').fill('30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor();
    await page.locator('.topbar').getByText('Bakery Nord').waitFor();
    const saved = await services.workspaces.get(owner.workspaceId);
    assert.deepEqual([saved.name, saved.time_zone, saved.poll_interval_seconds], ['Bakery Nord', 'Europe/Berlin', 10]);
    assert.equal(saved.media_retention_days, 30, 'media kept 30 days');
    await screenshot(page, 'settings-workspace');
    await page.reload();
    assert.equal(await page.getByLabel('Time zone').inputValue(), 'Europe/Berlin');
  });

  test('Team: the owner invites a teammate, whose link works in another browser', async () => {
    const owner = await createOwner(server, 'Crew Shop');
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/settings/team');
    assert.equal(await page.getByLabel(`Role of ${owner.email}`).inputValue(), 'owner');
    await page.getByLabel('Email').fill('Kim@Crew.example');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = (await page.getByTestId('invite-link').textContent())!;
    assert.match(link, new RegExp(`^${server.baseUrl}/invite/[\\w-]+$`));
    await page.getByRole('status').getByText('expires').waitFor();
    await screenshot(page, 'settings-team-invite');

    const { page: teammate } = await newPage(server);
    await teammate.goto(link);
    await teammate.getByRole('heading', { name: 'Join Crew Shop' }).waitFor();
    await teammate.getByLabel('Your name').fill('Kim');
    await teammate.getByLabel('Choose a password').fill('kim has a password');
    await teammate.getByRole('button', { name: 'Join workspace' }).click();
    await teammate.getByRole('button', { name: 'Log out' }).waitFor();
    await teammate.goto('/settings/team');
    await teammate
      .getByRole('row', { name: /kim@crew\.example/ })
      .getByRole('cell', { name: 'Member', exact: true })
      .waitFor();
    await teammate.getByText('Your role (member) cannot invite teammates; ask an owner or admin.').waitFor();
    assert.equal(await teammate.getByRole('button', { name: 'Create invite link' }).count(), 0);

    await page.reload();
    await page.getByRole('row', { name: /kim@crew\.example/ }).waitFor();
    await screenshot(page, 'settings-team');
  });

  test('Simulator: a contact writes in, and a keyword flow answers in the conversation', async () => {
    const owner = await createOwner(server, 'Sim Shop');
    const act = await apiToken(owner);
    const flow = await act('save-flow', {
      name: 'Opening hours',
      definition: {
        start: 'hours',
        keywords: ['hours'],
        nodes: [
          { id: 'hours', type: 'send_text', text: 'We are open 9 to 5.', next: 'end' },
          { id: 'end', type: 'end' },
        ],
      },
    });
    assert.equal(flow.status, 200, flow.text);
    assert.equal((await act('create-contact', { phone: '+14155550133', name: 'Ada Lovelace' })).status, 201);

    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.getByRole('link', { name: 'Simulator' }).click();
    await page.getByLabel('Contact or phone number').fill('Ada');
    await page
      .getByRole('list', { name: 'Matching contacts' })
      .getByRole('button', { name: /Ada Lovelace/ })
      .click();
    await page.getByText('From Ada Lovelace').waitFor();
    await page.getByLabel('Message', { exact: true }).fill('Hello there');
    await page.getByRole('button', { name: 'Send as contact' }).click();
    const conversation = page.getByRole('list', { name: 'Messages, oldest first' });
    await conversation.getByText('Hello there').waitFor();

    await page.getByLabel('Message', { exact: true }).fill('Hours');
    await page.getByRole('button', { name: 'Send as contact' }).click();
    await conversation.getByText('We are open 9 to 5.').waitFor();
    const stored = await services.contacts.search(owner, { query: 'Ada' });
    assert.equal(stored.length, 1, 'the picked contact wrote in; no new contact');
    await screenshot(page, 'simulator');

    // A number nobody has used yet becomes a contact.
    await page.getByRole('button', { name: 'Change contact' }).click();
    await page.getByLabel('Contact or phone number').fill('+44 20 7946 0958');
    await page.getByLabel('Message', { exact: true }).fill('New here');
    await page.getByRole('button', { name: 'Send as contact' }).click();
    await page.getByText('From +442079460958').waitFor();
    await conversation.getByText('New here').waitFor();
    assert.equal(await conversation.getByRole('listitem').count(), 1);
  });

  test('Simulator: refused while the workspace sends through WhatsApp Cloud', async () => {
    const owner = await createOwner(server, 'Cloud Shop');
    const { phoneNumberId, wabaId, accessToken } = graph.addPhoneNumber();
    await services.channels.useWhatsappCloud(owner, { phoneNumberId, wabaId, accessToken });
    const { page } = await newPage(server);
    await logIn(page, owner);
    await page.goto('/simulator');
    await page.getByText('sends through WhatsApp Cloud, so inbound messages come only from Meta').waitFor();
    await page.getByLabel('Contact or phone number').fill('+14155550144');
    await page.getByLabel('Message', { exact: true }).fill('hello');
    await page.getByRole('button', { name: 'Send as contact' }).click();
    await page.getByRole('alert').getByText('inbound messages come from Meta').waitFor();
    await screenshot(page, 'simulator-cloud-refused');
  });

  test('accessible and responsive: Channel and Simulator (and the other settings pages)', async () => {
    const owner = await createOwner(server);
    await services.inbound.simulateInbound(owner, { from: '+14155550155', text: 'A fairly long message to wrap' });
    const { page } = await newPage(server, { bypassCSP: true });
    await logIn(page, owner);
    for (const [path, heading] of [
      ['/settings/channel', 'Channel'],
      ['/settings/workspace', 'Workspace'],
      ['/settings/team', 'Team'],
      ['/simulator', 'Simulator'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      if (path === '/settings/channel') {
        await page.getByRole('form', { name: 'Send through' }).getByLabel('WhatsApp Cloud API').check();
      }
      assert.deepEqual(await seriousAccessibilityViolations(page), [], path);
    }

    const { page: phone } = await newPage(server, { width: 375, height: 740 });
    await logIn(phone, owner);
    for (const path of ['/settings/channel', '/simulator']) {
      await phone.goto(path);
      await phone.getByRole('heading', { level: 1 }).waitFor();
      if (path === '/settings/channel') {
        await phone.getByRole('form', { name: 'Send through' }).getByLabel('WhatsApp Cloud API').check();
      }
      if (path === '/simulator') {
        await phone.getByLabel('Contact or phone number').fill('+14155550155');
        await phone.getByRole('button', { name: /\+14155550155/ }).click();
        await phone.getByText('A fairly long message to wrap').waitFor();
      }
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path}: no sideways scrolling at 375 px (${overflow} px too wide)`);
      await screenshot(phone, `phone${path.replaceAll('/', '-')}`);
    }
  });
});
