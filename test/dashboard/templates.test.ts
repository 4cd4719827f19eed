import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  accessibilityViolations,
  createOwner,
  logIn,
  newPage,
  screenshot,
  seriousAccessibilityViolations,
} from '../browser.js';
import { createTemplate } from '../factories.js';
import { ENGINE } from '../server.js';
import { API_VERSION, startWhatsappServer } from '../whatsapp.js';
import { SIMULATED_REVIEW_MS } from '../../src/channels/simulator.provider.js';
import { templateQualityWebhook, templateStatusWebhook } from '../../src/whatsapp/webhook.fixtures.js';
import { templateError } from '../graph-stand-in.js';
import { zeroTapTemplate } from '../../src/templates/template-parameters.fixtures.js';
import { deliveryUpdateLibraryTemplate } from '../../src/templates/template-library.fixtures.js';

const { graph, server, connect, postWebhook } = await startWhatsappServer();

/** Meta's message_templates entry (one per name and language), as the template sync tests use it. */
function metaTemplate(name: string, language: string, status: string, body: string) {
  return {
    id: String(randomInt(1e12)),
    name,
    language,
    status,
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order update' },
      { type: 'BODY', text: body },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://example.com/t/{{1}}' }] },
    ],
  };
}

const translation = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Translation ${n}`) });

async function signedIn(options: { width?: number; bypassCSP?: boolean } = {}) {
  const owner = await createOwner(server);
  const { page } = await newPage(server, options);
  await logIn(page, owner);
  return { owner, page };
}

describe(`dashboard: templates (${ENGINE})`, () => {
  test('create a template with two translations: submitted for review, Pending, then approved by the simulator', async () => {
    const { owner, page } = await signedIn();
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('heading', { name: 'Templates' }).waitFor();
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { name: 'New template' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('order_update');
    await page.getByLabel('Category').selectOption('UTILITY');
    const en = translation(page, 1);
    await en.getByLabel('Language').fill('en_US');
    await en.getByLabel('Header', { exact: true }).selectOption('TEXT');
    await en.getByLabel('Header text').fill('Order update');
    await en.getByLabel('Body').fill('Hi {{1}}, your order {{2}} has *shipped*.');
    await en.getByLabel('Sample for {{1}}').fill('Ada');
    const preview = en.getByTestId('template-preview');
    await preview.getByText('Hi Ada, your order {{2}} has shipped.').waitFor();
    await en.getByLabel('Sample for {{2}}').fill('ORD-7');
    await preview.getByText('Hi Ada, your order ORD-7 has shipped.').waitFor();
    await preview.getByText('Order update').waitFor();

    const footer = en.getByLabel('Footer (optional)');
    await footer.fill('x'.repeat(61));
    assert.equal((await footer.inputValue()).length, 60, 'the footer refuses a 61st character');
    assert.equal(await en.getByTestId('footer-count').textContent(), '60/60');
    await footer.fill('Reply STOP to opt out');
    assert.equal(await en.getByTestId('footer-count').textContent(), '21/60');
    await preview.getByText('Reply STOP to opt out').waitFor();

    await en.getByRole('button', { name: 'Add button' }).click();
    await en.getByLabel('Button 1 type').selectOption('URL');
    await en.getByLabel('Button 1 text').fill('Track');
    await en.getByLabel('Button 1 URL').fill('https://example.com/t/{{1}}');
    await en.getByRole('list', { name: 'Buttons' }).getByText('Track').waitFor();
    await en.getByLabel('Sample for button 1’s {{1}}').fill('ORD-7');

    await page.getByRole('button', { name: 'Add translation' }).click();
    const de = translation(page, 2);
    await de.getByLabel('Language').fill('de');
    await de.getByLabel('Body').fill('Hallo {{1}}, Bestellung {{2}} ist unterwegs.');
    await de.getByLabel('Sample for {{1}}').fill('Ada');
    await screenshot(page, 'template-editor');

    // A sample left out is named beside the samples, before anything is submitted.
    await page.getByRole('button', { name: 'Create template' }).click();
    await de.locator('small.error', { hasText: 'Meta needs a sample value for 2' }).waitFor();
    assert.deepEqual(await server.app.services.templates.list({ workspaceId: owner.workspaceId }, {}), []);
    await de.getByLabel('Sample for {{2}}').fill('B-12');

    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'order_update' }).waitFor();
    assert.equal(await page.getByLabel('Translation', { exact: true }).inputValue(), 'en_US');
    await page.getByRole('heading', { name: 'en_US Pending' }).waitFor();
    await page.getByTestId('meta-review').getByText('Submitted as').waitFor();
    await page.getByLabel('Translation', { exact: true }).selectOption('de');
    await page.getByTestId('template-body').getByText('Hallo {{1}}, Bestellung {{2}} ist unterwegs.').waitFor();
    await page.getByRole('heading', { name: 'de Pending' }).waitFor();
    await page.getByText('Only approved translations can be sent; this one is Pending.').waitFor();
    assert.match(page.url(), /\?language=de$/, 'the chosen translation is in the address, so it can be shared');
    await screenshot(page, 'template-view');

    const detail = await server.app.services.templates.detail(
      { workspaceId: owner.workspaceId },
      page.url().split('/').at(-1)!.split('?')[0]!,
    );
    assert.deepEqual(
      detail.translations.map((t) => [t.language, t.status, t.examples]),
      [
        ['en_US', 'PENDING', { '1': 'Ada', '2': 'ORD-7', button_0_1: 'ORD-7' }],
        ['de', 'PENDING', { '1': 'Ada', '2': 'B-12' }],
      ],
    );

    // The simulator's review is a job: due after its delay, approved when it runs.
    server.clock.advance(SIMULATED_REVIEW_MS);
    assert.equal(await server.app.services.scheduler.runDue(owner.workspaceId), 2);
    await page.reload();
    await page.getByRole('heading', { name: 'de Approved' }).waitFor();

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit order_update' }).waitFor();
    await translation(page, 2).getByText('Approved', { exact: true }).waitFor();
    assert.equal(await translation(page, 2).getByLabel('Sample for {{2}}').inputValue(), 'B-12', 'samples are kept');
    await translation(page, 2).getByLabel('Body').fill('Hallo {{1}}, Bestellung {{2}} ist da.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'order_update' }).waitFor();
    await page.getByLabel('Translation', { exact: true }).selectOption('de');
    await page.getByRole('heading', { name: 'de Pending' }).waitFor();
    await page.getByTestId('template-body').getByText('Hallo {{1}}, Bestellung {{2}} ist da.').waitFor();
  });

  test('on WhatsApp Cloud: Meta’s refusal beside the field; rejection reason and quality from its webhooks', async () => {
    const { owner, page } = await signedIn();
    const { wabaId } = await connect(owner.workspaceId);
    graph.failNext({
      status: 400,
      body: templateError(2388024, 'Content in this language already exists', 'Content for en_US already exists.'),
    });
    await page.goto('/templates/new');
    await page.getByLabel('Name', { exact: true }).fill('promo_code');
    const en = translation(page, 1);
    await en.getByLabel('Language').fill('en_US');
    await en.getByLabel('Body').fill('Use code {{1}} today');
    await en.getByLabel('Sample for {{1}}').fill('SAVE10');
    await page.getByRole('button', { name: 'Create template' }).click();
    await en.locator('small.error', { hasText: 'Content in this language already exists' }).waitFor();
    assert.equal(await en.getByLabel('Language').getAttribute('aria-invalid'), 'true');

    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'en_US Pending' }).waitFor();
    const [metaId, submitted] = [...graph.submittedTemplates.entries()].find(([, t]) => t.wabaId === wabaId)!;
    assert.equal(submitted.name, 'promo_code');
    await postWebhook(
      templateStatusWebhook({
        wabaId,
        templateId: Number(metaId),
        name: 'promo_code',
        language: 'en_US',
        event: 'REJECTED',
        reason: 'INCORRECT_CATEGORY',
      }),
    );
    await postWebhook(
      templateQualityWebhook({
        wabaId,
        templateId: Number(metaId),
        name: 'promo_code',
        language: 'en_US',
        previous: 'UNKNOWN',
        quality: 'RED',
      }),
    );
    await page.reload();
    await page.getByRole('heading', { name: 'en_US Rejected' }).waitFor();
    await page.getByTestId('rejection-reason').getByText('Meta’s reason: Incorrect category').waitFor();
    await page.getByTestId('meta-review').getByText(`Submitted as ${metaId} · Quality: Red`).waitFor();
    await screenshot(page, 'template-rejected');
  });

  test('field errors appear beside their inputs, go as soon as the field changes, and nothing is saved', async () => {
    const { owner, page } = await signedIn();
    await createTemplate(server.app.services, owner.workspaceId, { name: 'welcome' });
    await page.goto('/templates/new');
    await page.getByLabel('Name', { exact: true }).fill('welcome');
    const first = translation(page, 1);
    await first.getByLabel('Language').fill('en_US');
    await first.getByLabel('Header', { exact: true }).selectOption('IMAGE');
    await first.getByLabel('Body').fill('Hello');
    await page.getByRole('button', { name: 'Create template' }).click();
    await first.locator('small.error', { hasText: 'an image header needs its content' }).waitFor();
    assert.equal(await first.getByLabel('Header media URL').getAttribute('aria-invalid'), 'true');
    await first.getByLabel('Header media URL').fill('https://example.com/a.png');
    // Fixed: the error goes as the field changes, beside it and in the form's note alike.
    await page.getByText('an image header needs its content').first().waitFor({ state: 'detached' });
    assert.equal(await first.getByLabel('Header media URL').getAttribute('aria-invalid'), null);
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.locator('small.error', { hasText: 'is already used by another template' }).waitFor();
    assert.equal(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Name', { exact: true }).fill('welcome_back');
    await page.getByText('is already used by another template').first().waitFor({ state: 'detached' });
    assert.equal(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), null);
    const names = (await server.app.services.templates.list({ workspaceId: owner.workspaceId }, {})).map((t) => t.name);
    assert.deepEqual(names, ['welcome']);
  });

  test('from Meta’s template library: no translation fields; Meta’s refusal by the field’s label; made with the inputs, its page says so', async () => {
    const { owner, page } = await signedIn();
    const { wabaId } = await connect(owner.workspaceId);
    const submissions = () =>
      graph.requests.filter((r) => r.method === 'POST' && r.path === `/${API_VERSION}/${wabaId}/message_templates`);
    await page.goto('/templates/new');
    await page.getByLabel('Start from Meta’s template library').check();
    assert.equal(await page.getByLabel('Body').count(), 0, 'Meta writes the content: no translation fields');
    assert.equal(await page.getByRole('button', { name: 'Add translation' }).count(), 0);
    assert.deepEqual(await page.getByLabel('Category').locator('option').allTextContents(), [
      'Utility',
      'Authentication',
    ]);
    await page.getByLabel('Name', { exact: true }).fill('order_on_its_way');
    await page.getByText('The name of a template in Meta’s Template Library', { exact: false }).waitFor();
    await page.getByLabel('Library template name').fill('appointment_reminder');
    await page.getByLabel('Language').fill('en_US');
    await page.getByRole('button', { name: 'Create template' }).click();
    // The stand-in's library has no such template: Meta's refusal, named by the field's label.
    const refusal = page.locator('small.error', { hasText: 'Library template name Meta refused the library template' });
    await refusal.waitFor();
    assert.equal(await page.getByLabel('Library template name').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await server.app.services.templates.list({ workspaceId: owner.workspaceId }, {}), []);

    await page.getByLabel('Library template name').fill(deliveryUpdateLibraryTemplate.name);
    await refusal.waitFor({ state: 'detached' });
    await page.getByLabel('URL button’s base URL').fill('https://www.luckyshrub.com/track/{{1}}');
    await page.getByLabel('Sample URL (optional)').fill('https://www.luckyshrub.com/track/A123');
    await page.getByLabel('Add a package tracking link').check();
    await screenshot(page, 'template-library');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'order_on_its_way' }).waitFor();

    assert.deepEqual(submissions().at(-1)?.body, {
      name: 'order_on_its_way',
      category: 'UTILITY',
      library_template_name: 'delivery_update_1',
      language: 'en_US',
      library_template_button_inputs: [
        {
          type: 'URL',
          url: {
            base_url: 'https://www.luckyshrub.com/track/{{1}}',
            url_suffix_example: 'https://www.luckyshrub.com/track/A123',
          },
        },
      ],
      library_template_body_inputs: { add_track_package_link: true },
    });
    await page.getByTestId('library-template').getByText('delivery_update_1').waitFor();
    await page.getByRole('heading', { name: 'en_US Approved' }).waitFor();
    await page.getByTestId('template-body').getByText(deliveryUpdateLibraryTemplate.body).waitFor();
  });

  test('an authentication template asks only what Meta takes: a 91-minute expiry and a one-tap button without an app are refused by their labels; zero-tap is made and shown', async () => {
    const { owner, page } = await signedIn({ bypassCSP: true });
    const nothingSaved = async () =>
      assert.deepEqual(await server.app.services.templates.list({ workspaceId: owner.workspaceId }, {}), []);
    await page.goto('/templates/new');
    await page.getByLabel('Name', { exact: true }).fill('login_code');
    await page.getByLabel('Category').selectOption('AUTHENTICATION');
    const en = translation(page, 1);
    for (const hidden of ['Body', 'Header', 'Footer (optional)']) {
      assert.equal(await en.getByLabel(hidden, { exact: true }).count(), 0, `no ${hidden}: Meta writes it`);
    }
    assert.equal(await en.getByRole('button', { name: 'Add button' }).count(), 0, 'the code button is the only one');
    await en.getByLabel('Language').fill('en_US');
    await en.getByLabel('Code button').selectOption('ONE_TAP');
    await en.getByLabel('Button text').fill('Autofill');
    await en.getByLabel('Add the security recommendation').check();
    const expiry = en.getByLabel('Code expires after (minutes)');
    await expiry.fill('91');
    const preview = en.getByTestId('template-preview');
    await preview.getByText('is your verification code. For your security, do not share this code.').waitFor();
    await preview.getByText('This code expires in 91 minutes.').waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'authentication fields');

    await page.getByRole('button', { name: 'Create template' }).click();
    await en.locator('small.error', { hasText: 'Code expires after (minutes) must be at most 90' }).waitFor();
    assert.equal(await expiry.getAttribute('aria-invalid'), 'true');
    await nothingSaved();
    await expiry.fill('10');
    await page.getByText('must be at most 90').first().waitFor({ state: 'detached' });

    // A one-tap button hands the code to an app, which it must name (the row is left empty).
    await page.getByRole('button', { name: 'Create template' }).click();
    await en.locator('small.error', { hasText: 'Android apps a ONE_TAP code button needs the Android app' }).waitFor();
    await nothingSaved();

    await en.getByLabel('Code button').selectOption('ZERO_TAP');
    await en.getByLabel('App 1 package name').fill('com.example.luckyshrub');
    await en.getByLabel('App 1 signature hash').fill('K8a/AINcGX7');
    await en.getByRole('button', { name: 'Add app' }).click();
    await en.getByLabel('App 2 package name').waitFor();
    await en.getByRole('button', { name: 'Remove app 2' }).click();
    assert.equal(await en.getByLabel('App 2 package name').count(), 0);
    assert.equal(await en.getByRole('button', { name: 'Remove app 1' }).isDisabled(), true, 'at least one app');
    await en.getByLabel('Meta’s zero-tap terms accepted').check();
    await screenshot(page, 'template-authentication');
    await page.getByRole('button', { name: 'Create template' }).click();

    await page.getByRole('heading', { name: 'login_code' }).waitFor();
    const otp = page.getByTestId('otp-button');
    await otp.getByText('Zero-tap').waitFor();
    assert.match(await otp.innerText(), /Android app com\.example\.luckyshrub · signature hash K8a\/AINcGX7/);
    assert.equal(await page.getByTestId('code-expiry').innerText(), '10 minutes');
    assert.match(await page.getByTestId('security-recommendation').innerText(), /^Added/);
    const [created] = await server.app.services.templates.list({ workspaceId: owner.workspaceId }, {});
    assert.deepEqual(created?.buttons, [
      {
        type: 'OTP',
        text: 'Autofill',
        otp_type: 'ZERO_TAP',
        supported_apps: [{ package_name: 'com.example.luckyshrub', signature_hash: 'K8a/AINcGX7' }],
        zero_tap_terms_accepted: true,
      },
    ]);

    // Its edit form opens on the same options.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit login_code' }).waitFor();
    assert.equal(await translation(page, 1).getByLabel('Code button').inputValue(), 'ZERO_TAP');
    assert.equal(await translation(page, 1).getByLabel('App 1 signature hash').inputValue(), 'K8a/AINcGX7');
    assert.equal(await translation(page, 1).getByLabel('Code expires after (minutes)').inputValue(), '10');
  });

  test('Sync from WhatsApp pulls the templates and shows what changed; the simulator says why it cannot', async () => {
    const { owner, page } = await signedIn();
    const { wabaId } = await connect(owner.workspaceId);
    // An authentication template (zero-tap, with its app) and one from Meta's Template Library.
    const library = metaTemplate('order_tracking', 'en_US', 'APPROVED', 'Your order {{1}} is on its way.');
    const metaOptions = [zeroTapTemplate, { ...library, library_template_name: 'delivery_update_1' }];
    graph.setTemplates(wabaId, [
      metaTemplate('order_update', 'en_US', 'APPROVED', 'Hi {{1}}, order {{2}} shipped.'),
      metaTemplate('order_update', 'de', 'PENDING', 'Hallo {{1}}, Bestellung {{2}} ist unterwegs.'),
      metaTemplate('welcome', 'en_US', 'REJECTED', 'Welcome, {{1}}!'),
      ...metaOptions,
    ]);
    await page.goto('/templates');
    await page.getByText('No templates yet').waitFor();
    await page.getByRole('button', { name: 'Sync from WhatsApp' }).click();
    const report = page.getByRole('status').filter({ hasText: 'Synced 4 templates (5 translations)' });
    await report.waitFor();
    await report.getByText('added, Pending').waitFor();
    const order = page.getByRole('row', { name: /order_update/ });
    await order.getByText('Approved').waitFor();
    await order.getByText('Pending').waitFor();
    await page
      .getByRole('row', { name: /welcome/ })
      .getByText('Rejected')
      .waitFor();
    await screenshot(page, 'templates-list');

    graph.setTemplates(wabaId, [
      metaTemplate('order_update', 'en_US', 'APPROVED', 'Hi {{1}}, order {{2}} shipped.'),
      metaTemplate('order_update', 'de', 'APPROVED', 'Hallo {{1}}, Bestellung {{2}} ist unterwegs.'),
      metaTemplate('welcome', 'en_US', 'REJECTED', 'Welcome, {{1}}!'),
      ...metaOptions,
    ]);
    await page.getByRole('button', { name: 'Sync from WhatsApp' }).click();
    await page.getByRole('status').getByText('1 changed:').waitFor();
    await page.getByRole('status').getByText('Pending → Approved').waitFor();
    await page.getByRole('status').getByRole('link', { name: 'order_update' }).click();
    await page.getByRole('heading', { name: 'de Approved' }).waitFor();

    await page.goto('/templates');
    await page.getByRole('link', { name: zeroTapTemplate.name }).click();
    const otp = page.getByTestId('otp-button');
    await otp.getByText('Zero-tap').waitFor();
    assert.match(await otp.innerText(), /Android app com\.example\.luckyshrub · signature hash K8a\/AINcGX7/);
    assert.equal(await page.getByTestId('code-expiry').innerText(), '5 minutes');
    assert.match(await page.getByTestId('security-recommendation').innerText(), /^Added/);
    await page.goto('/templates');
    await page.getByRole('link', { name: 'order_tracking' }).click();
    await page.getByTestId('library-template').getByText('delivery_update_1').waitFor();
    assert.equal(await page.getByTestId('otp-button').count(), 0, 'no code button outside authentication templates');
  });

  test('on the simulator, the templates page says in plain words that templates come from a real WhatsApp number', async () => {
    const { page } = await signedIn();
    await page.goto('/templates');
    const note = page.getByTestId('sync-simulator-note');
    await note.getByText('Templates come from WhatsApp only with a real WhatsApp number', { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sync from WhatsApp' }).count(), 0, 'no sync that must fail');
    assert.equal(await page.getByRole('alert').count(), 0, 'no red error');
    await note.getByRole('link', { name: 'Settings → Channel' }).click();
    await page.getByRole('heading', { name: 'Channel' }).waitFor();
  });

  test('accessible and responsive: no serious axe findings; /templates usable at 375 px', async () => {
    const { owner, page } = await signedIn({ bypassCSP: true });
    const template = await createTemplate(server.app.services, owner.workspaceId, {
      name: 'shipping_notice_with_a_long_name',
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          body: 'Hi {{1}}',
          footer: 'Thanks',
          header_type: 'TEXT',
          header_content: 'Hey',
        },
        { language: 'pt_BR', status: 'PENDING', body: 'Olá {{1}}' },
        { language: 'de', status: 'REJECTED', body: 'Hallo {{1}}' },
      ],
    });
    await page.goto('/templates');
    await page.getByRole('link', { name: 'shipping_notice_with_a_long_name' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'templates list');
    await page.goto(`/templates/${template.id}`);
    await page.getByLabel('Translation', { exact: true }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'template view');
    await page.goto(`/templates/${template.id}/edit`);
    await translation(page, 3).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), [], 'template editor');
    assert.deepEqual(await accessibilityViolations(page, ['heading-order']), [], 'template editor headings');

    const { page: phone } = await newPage(server, { width: 375, height: 740 });
    await logIn(phone, owner);
    for (const path of ['/templates', `/templates/${template.id}`, `/templates/${template.id}/edit`]) {
      await phone.goto(path);
      await phone.getByRole('heading', { level: 1 }).waitFor();
      await phone
        .getByRole('heading', { name: /shipping_notice|Templates/ })
        .first()
        .waitFor();
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no sideways scrolling at 375 px on ${path} (${overflow} px too wide)`);
    }
    await phone.goto('/templates');
    await phone.getByRole('link', { name: 'shipping_notice_with_a_long_name' }).waitFor();
    await screenshot(phone, 'templates-list-phone');
  });
});
