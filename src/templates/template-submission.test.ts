import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cliJson, runCli, stderrLines } from '../../test/cli.js';
import { createWorkspace } from '../../test/factories.js';
import { templateError } from '../../test/graph-stand-in.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer } from '../../test/whatsapp.js';
import { SIMULATED_REVIEW_MS } from '../channels/simulator.provider.js';
import { templateQualityWebhook, templateStatusWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Template } from './template.schema.js';

const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer();

interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

/**
 * Meta's "Create and manage templates" example (seasonal_promotion): a text header with a variable,
 * a body with three, a footer, quick replies and a URL button with a variable; samples for each.
 */
const SEASONAL = {
  name: 'seasonal_promotion',
  category: 'MARKETING',
  translations: [
    {
      language: 'en_US',
      header_type: 'TEXT',
      header_content: 'Our {{1}} is on!',
      body: 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.',
      footer: 'Use the buttons below to manage your marketing subscriptions',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Unsubscribe from Promos' },
        { type: 'URL', text: 'Shop Now', url: 'https://www.luckyshrub.com/shop?promo={{1}}' },
        { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '15550051310' },
      ],
      examples: {
        '1': 'the end of August',
        '2': '25OFF',
        '3': '25%',
        header_1: 'Summer Sale',
        button_1_1: 'summer2023',
      },
    },
  ],
};

/** The request Meta documents for SEASONAL: components in Meta's format, samples under `example`. */
const SEASONAL_META_BODY = {
  name: 'seasonal_promotion',
  language: 'en_US',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} is on!', example: { header_text: ['Summer Sale'] } },
    {
      type: 'BODY',
      text: 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.',
      example: { body_text: [['the end of August', '25OFF', '25%']] },
    },
    { type: 'FOOTER', text: 'Use the buttons below to manage your marketing subscriptions' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Unsubscribe from Promos' },
        {
          type: 'URL',
          text: 'Shop Now',
          url: 'https://www.luckyshrub.com/shop?promo={{1}}',
          example: ['https://www.luckyshrub.com/shop?promo=summer2023'],
        },
        { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '15550051310' },
      ],
    },
  ],
};

const requestsTo = (method: string, pattern: RegExp) =>
  graph.requests.filter((r) => r.method === method && pattern.test(r.path));

describe(`template submission (${ENGINE})`, () => {
  test("create-template › submits Meta's components with samples to the WABA and records Meta's id", async () => {
    const { ws, wabaId, accessToken } = await cloudWorkspace();
    const res = await ws.action<Template>('create-template', SEASONAL);
    assert.equal(res.status, 200, res.text);

    const [sent, ...more] = requestsTo('POST', new RegExp(`^/${API_VERSION}/${wabaId}/message_templates$`));
    assert.equal(more.length, 0);
    assert.deepEqual(sent!.body, SEASONAL_META_BODY);
    assert.equal(sent!.headers.authorization, `Bearer ${accessToken}`);

    const [metaId] = [...graph.submittedTemplates.entries()].find(([, t]) => t.wabaId === wabaId)!;
    assert.equal(res.body.status, 'PENDING', "Meta's answer gives the status");
    assert.equal(res.body.meta_template_id, metaId);
    assert.equal(res.body.rejection_reason, null);
    const fetched = await ws.action<Template>('get-template', { template_id: res.body.id });
    assert.deepEqual([fetched.body.name, fetched.body.meta_template_id], ['seasonal_promotion', metaId]);
  });

  test("create-template › an authentication template's one-tap button names its Android app, its body and footer only Meta's options, as Meta documents; no sample of its code is needed; without an app or with a 91-minute expiry it is refused", async () => {
    const { ws, wabaId } = await cloudWorkspace();
    // Meta's "One-tap autofill authentication templates": the OTP button with the app that takes the code.
    const oneTap = {
      type: 'OTP',
      otp_type: 'ONE_TAP',
      text: 'Copy Code',
      supported_apps: [{ package_name: 'com.example.luckyshrub', signature_hash: 'K8a/AINcGX7' }],
    };
    const otp = (button: object) => ({
      name: 'login_code',
      category: 'AUTHENTICATION',
      translations: [
        {
          language: 'en_US',
          body: '*{{1}}* is your verification code.',
          buttons: [button],
          // Meta writes the body and takes no sample of its code: none is asked for.
          ...options,
        },
      ],
    });
    // Meta's "Authentication templates": the security sentence and a 1–90 minute expiry are Meta's to write.
    const options = { add_security_recommendation: true, code_expiration_minutes: 10 };
    const before = graph.requests.length;
    const unnamed = await ws.action<Problem>('create-template', otp({ ...oneTap, supported_apps: undefined }));
    assert.equal(unnamed.status, 400, unnamed.text);
    assert.deepEqual(
      unnamed.body.errors?.map((e) => e.field),
      ['translations.0.buttons.0.supported_apps'],
    );
    const badHash = {
      ...oneTap,
      supported_apps: [{ package_name: 'com.example.luckyshrub', signature_hash: 'short' }],
    };
    assert.equal((await ws.action<Problem>('create-template', otp(badHash))).status, 400, 'an 11-character hash');
    const tooLong = await ws.action<Problem>('create-template', {
      ...otp(oneTap),
      translations: [{ ...otp(oneTap).translations[0], code_expiration_minutes: 91 }],
    });
    assert.equal(tooLong.status, 400, tooLong.text);
    assert.deepEqual(
      tooLong.body.errors?.map((e) => e.field),
      ['translations.0.code_expiration_minutes'],
    );
    assert.equal(graph.requests.length, before, 'Meta was not asked');

    const created = await ws.action<Template>('create-template', otp(oneTap));
    assert.equal(created.status, 200, created.text);
    const [sent] = requestsTo('POST', new RegExp(`^/${API_VERSION}/${wabaId}/message_templates$`));
    assert.deepEqual((sent!.body as { components: object[] }).components, [
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 10 },
      { type: 'BUTTONS', buttons: [oneTap] },
    ]);
    assert.deepEqual(created.body.buttons, [oneTap], 'Parley keeps the app');
    assert.deepEqual([created.body.add_security_recommendation, created.body.code_expiration_minutes], [true, 10]);
  });

  test('create-template › a variable without a sample is refused before anything reaches Meta', async () => {
    const { ws } = await cloudWorkspace();
    const before = graph.requests.length;
    const seasonal = SEASONAL.translations[0]!;
    const res = await ws.action<Problem>('create-template', {
      ...SEASONAL,
      translations: [{ ...seasonal, examples: { '1': 'August', unknown_1: 'x' } }],
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'validation_failed');
    const res2 = await ws.action<Problem>('create-template', {
      ...SEASONAL,
      translations: [{ ...seasonal, examples: { '1': 'August', '9': 'x' } }],
    });
    assert.equal(res2.status, 400, res2.text);
    assert.deepEqual(res2.body.errors, [
      {
        field: 'translations.0.examples',
        message: 'Meta needs a sample value for 2, 3, header_1, button_1_1',
        code: 'templates.samples_missing',
        params: { variables: '2, 3, header_1, button_1_1' },
      },
      {
        field: 'translations.0.examples',
        message: "9: no such variable; the template's variables are 1, 2, 3, header_1, button_1_1",
        code: 'templates.samples_unknown_listing',
        params: { variables: '9', expected: '1, 2, 3, header_1, button_1_1' },
      },
    ]);
    assert.equal(graph.requests.length, before, 'Meta was not asked');
    const listed = await ws.action<Template[]>('list-templates', {});
    assert.deepEqual(listed.body, [], 'nothing saved');
  });

  test("create-template › Meta's refusal is a 422 naming the field, with Meta's words; nothing is saved", async () => {
    const { ws, wabaId } = await cloudWorkspace();
    // The name already has this language at Meta (made in WhatsApp Manager, never synced).
    graph.submittedTemplates.set('111222333444555', {
      wabaId,
      name: 'seasonal_promotion',
      language: 'en_US',
      category: 'MARKETING',
      components: [],
    });
    const res = await ws.action<Problem>('create-template', SEASONAL);
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.code, 'template_refused');
    assert.deepEqual(
      res.body.errors?.map((e) => e.field),
      ['translations.0.language'],
    );
    assert.match(res.body.detail, /Content in this language already exists/);
    assert.match(res.body.detail, /nothing was saved/);
    const listed = await ws.action<Template[]>('list-templates', {});
    assert.deepEqual(listed.body, []);
  });

  test('create-template › a refusal Meta words about the body names the body', async () => {
    const { ws } = await cloudWorkspace();
    // Meta's documented template error shape (error_user_title / error_user_msg), scripted.
    graph.failNext({
      status: 400,
      body: templateError(2388072, 'Invalid variable', 'The body text contains variables at the start or the end.'),
    });
    const res = await ws.action<Problem>('create-template', {
      name: 'edge_vars',
      category: 'UTILITY',
      translations: [{ language: 'en', body: '{{1}} is ready', examples: { '1': 'Order 7' } }],
    });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(
      res.body.errors?.map((e) => e.field),
      ['translations.0.body'],
    );
    assert.match(res.body.detail, /Invalid variable: The body text contains variables/);
  });

  test("update-template › edits the translation by Meta's id and creates a new language", async () => {
    const { ws, wabaId } = await cloudWorkspace();
    const created = await ws.action<Template>('create-template', SEASONAL);
    const metaId = created.body.meta_template_id!;
    const res = await ws.action<Template>('update-template', {
      template_id: created.body.id,
      category: 'MARKETING',
      translations: [
        { language: 'en_US', body: 'Sale ends {{1}}!', examples: { '1': 'Friday' } },
        { language: 'es', body: '¡La oferta termina el {{1}}!', examples: { '1': 'viernes' } },
      ],
    });
    assert.equal(res.status, 200, res.text);
    const [edit] = requestsTo('POST', new RegExp(`^/${API_VERSION}/${metaId}$`));
    assert.deepEqual(edit!.body, {
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Sale ends {{1}}!', example: { body_text: [['Friday']] } }],
    });
    const creations = requestsTo('POST', new RegExp(`^/${API_VERSION}/${wabaId}/message_templates$`));
    assert.equal(creations.length, 2, 'the first create, then Spanish');
    assert.equal((creations[1]!.body as { language: string }).language, 'es');
    assert.deepEqual(res.body.translations, [
      { language: 'en_US', status: 'PENDING' },
      { language: 'es', status: 'PENDING' },
    ]);
    assert.equal(res.body.body, 'Sale ends {{1}}!');
  });

  test('update-template › another workspace’s template is not found, and Meta is not asked', async () => {
    const { ws } = await cloudWorkspace();
    const other = await cloudWorkspace();
    const created = await ws.action<Template>('create-template', SEASONAL);
    const before = graph.requests.length;
    const res = await other.ws.action<Problem>('update-template', {
      template_id: created.body.id,
      category: 'MARKETING',
      translations: [{ language: 'en_US', body: 'Mine now' }],
    });
    assert.equal(res.status, 404, res.text);
    assert.equal(graph.requests.length, before);
  });

  test('delete-template › one translation by its Meta id, then the whole name', async () => {
    const { ws, wabaId } = await cloudWorkspace();
    const created = await ws.action<Template>('update-template', {}); // bad input first: 400, nothing done
    assert.equal(created.status, 400);
    const made = await ws.action<Template>('create-template', {
      name: 'two_languages',
      category: 'UTILITY',
      translations: [
        { language: 'en', body: 'Hello' },
        { language: 'de', body: 'Hallo' },
      ],
    });
    assert.equal(made.status, 200, made.text);
    const deMetaId = [...graph.submittedTemplates.entries()].find(
      ([, t]) => t.wabaId === wabaId && t.language === 'de',
    )![0];

    const one = await ws.action<{ deleted: string[] }>('delete-template', {
      template_id: made.body.id,
      language: 'de',
    });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, { deleted: ['de'] });
    const [first] = requestsTo('DELETE', new RegExp(`^/${API_VERSION}/${wabaId}/message_templates\\?`));
    assert.equal(first!.path, `/${API_VERSION}/${wabaId}/message_templates?name=two_languages&hsm_id=${deMetaId}`);
    const left = await ws.action<Template>('get-template', { template_id: made.body.id });
    assert.deepEqual(left.body.languages, ['en']);

    const all = await ws.action<{ deleted: string[] }>('delete-template', { template_id: made.body.id });
    assert.deepEqual(all.body, { deleted: ['en'] });
    const deletions = requestsTo('DELETE', new RegExp(`^/${API_VERSION}/${wabaId}/message_templates\\?`));
    assert.equal(deletions[1]!.path, `/${API_VERSION}/${wabaId}/message_templates?name=two_languages`);
    const gone = await ws.action<Problem>('get-template', { template_id: made.body.id });
    assert.equal(gone.status, 404);
    assert.equal([...graph.submittedTemplates.values()].filter((t) => t.wabaId === wabaId).length, 0);
  });

  test('delete-template › Meta refusing keeps the template in Parley', async () => {
    const { ws, wabaId } = await cloudWorkspace();
    const made = await ws.action<Template>('create-template', SEASONAL);
    graph.submittedTemplates.clear(); // deleted in WhatsApp Manager meanwhile: Meta finds no such name
    const res = await ws.action<Problem>('delete-template', { template_id: made.body.id });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.code, 'template_refused');
    assert.ok(requestsTo('DELETE', new RegExp(`^/${API_VERSION}/${wabaId}/`)).length === 1);
    const still = await ws.action<Template>('get-template', { template_id: made.body.id });
    assert.equal(still.status, 200);
  });

  test('status webhooks › REJECTED keeps the reason, APPROVED clears it, quality is kept, PAUSED is never sent', async () => {
    const { ws, wabaId } = await cloudWorkspace();
    const made = await ws.action<Template>('create-template', {
      name: 'order_ready',
      category: 'UTILITY',
      translations: [{ language: 'en_US', body: 'Order {{1}} is ready', examples: { '1': 'A-1' } }],
    });
    const templateId = made.body.meta_template_id!;
    const review = (event: string, reason?: string) =>
      postWebhook(
        templateStatusWebhook({
          wabaId,
          templateId: Number(templateId),
          name: 'order_ready',
          language: 'en_US',
          event,
          ...(reason && { reason }),
        }),
      );
    const shown = async () => (await ws.action<Template>('get-template', { template_id: made.body.id })).body;

    await review('REJECTED', 'INVALID_FORMAT');
    assert.deepEqual([(await shown()).status, (await shown()).rejection_reason], ['REJECTED', 'INVALID_FORMAT']);
    await review('APPROVED');
    assert.deepEqual([(await shown()).status, (await shown()).rejection_reason], ['APPROVED', null]);

    // Meta's documented message_template_quality_update example, for this template.
    const quality = templateQualityWebhook({
      wabaId,
      templateId: Number(templateId),
      name: 'order_ready',
      language: 'en_US',
      previous: 'GREEN',
      quality: 'YELLOW',
    });
    const taken = await postWebhook<{ template_statuses: number }>(quality);
    assert.equal(taken.body.template_statuses, 1);
    assert.equal((await shown()).quality_score, 'YELLOW');

    await review('PAUSED', 'LOW_QUALITY');
    const before = graph.requests.length;
    const send = await ws.action<Problem>('send-template-message', {
      phone: '+14155550123',
      template_id: made.body.id,
      variables: ['A-7'],
    });
    assert.equal(send.status, 422, send.text);
    assert.equal(send.body.code, 'template_not_approved');
    assert.match(send.body.detail, /en_US translation is PAUSED/);
    assert.equal(graph.requests.length, before, 'nothing reached Meta');
  });

  test('simulator › approves a submitted template after a delay, through a durable job', async () => {
    const ws = await createWorkspace(server);
    const before = graph.requests.length;
    const made = await ws.action<Template>('create-template', {
      name: 'welcome_simulated',
      category: 'UTILITY',
      translations: [{ language: 'en', body: 'Welcome {{1}}', examples: { '1': 'Ada' } }],
    });
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.status, 'PENDING');
    assert.match(made.body.meta_template_id!, /^simulated-/);
    assert.equal(graph.requests.length, before, 'the simulator calls nobody');

    assert.equal(await server.app.services.scheduler.runDue(ws.workspaceId), 0, 'not before its time');
    server.clock.advance(SIMULATED_REVIEW_MS);
    assert.equal(await server.app.services.scheduler.runDue(ws.workspaceId), 1);
    const approved = await ws.action<Template>('get-template', { template_id: made.body.id });
    assert.equal(approved.body.status, 'APPROVED');
  });

  test('parley templates push › submits a template file, then an edit of the same name; a bad file exits 1', async () => {
    const { ws, wabaId } = await cloudWorkspace();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-push-'));
    const file = path.join(dir, 'seasonal.json');
    fs.writeFileSync(file, JSON.stringify(SEASONAL));
    const pushed = await cliJson<Template>(server, 'templates', 'push', '--workspace', ws.workspaceId, file);
    assert.deepEqual([pushed.name, pushed.status], ['seasonal_promotion', 'PENDING']);
    const [created] = requestsTo('POST', new RegExp(`^/${API_VERSION}/${wabaId}/message_templates$`));
    assert.deepEqual(created!.body, SEASONAL_META_BODY);

    const edited = { ...SEASONAL, translations: [{ language: 'en_US', body: 'Sale on now' }] };
    fs.writeFileSync(file, JSON.stringify(edited));
    const again = await cliJson<Template>(server, 'templates', 'push', '--workspace', ws.workspaceId, file);
    assert.equal(again.id, pushed.id, 'the same template, edited');
    const [edit] = requestsTo('POST', new RegExp(`^/${API_VERSION}/${pushed.meta_template_id}$`));
    assert.deepEqual(edit!.body, { category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale on now' }] });

    fs.writeFileSync(file, JSON.stringify({ ...SEASONAL, name: 'Not Valid' }));
    const bad = await runCli(server, 'templates', 'push', '--workspace', ws.workspaceId, file);
    assert.equal(bad.code, 1);
    assert.match(stderrLines(bad)[0] ?? '', /\/name/);
  });

  test('update-template › a synced template is edited at Meta by the id the sync recorded', async () => {
    const { ws, wabaId } = await cloudWorkspace();
    const metaId = '594425479261596';
    const components = [{ type: 'BODY', text: 'Your code is {{1}}' }];
    // A template made in WhatsApp Manager: Meta lists it, and knows it by its id.
    graph.setTemplates(wabaId, [
      { id: metaId, name: 'login_code', language: 'en', status: 'APPROVED', category: 'UTILITY', components },
    ]);
    graph.submittedTemplates.set(metaId, {
      wabaId,
      name: 'login_code',
      language: 'en',
      category: 'UTILITY',
      components,
    });
    await cliJson(server, 'templates', 'sync', '--workspace', ws.workspaceId);
    const [synced] = (await ws.action<Template[]>('list-templates', {})).body;
    assert.equal(synced?.meta_template_id, metaId);

    const res = await ws.action<Template>('update-template', {
      template_id: synced.id,
      category: 'UTILITY',
      translations: [{ language: 'en', body: 'Your login code is {{1}}', examples: { '1': '123456' } }],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(requestsTo('POST', new RegExp(`^/${API_VERSION}/${metaId}$`)).length, 1);
    assert.equal(requestsTo('POST', new RegExp(`^/${API_VERSION}/${wabaId}/message_templates$`)).length, 0);
  });
});
