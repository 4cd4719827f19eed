import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTemplate, createWorkspace, type TestWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import { TEMPLATE_LIST_CAP, type Template, type TemplateInput } from './template.schema.js';

const server = await startServer();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';

interface Problem {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

type Translation = TemplateInput['translations'][number];
const translation = (language: string, status: Translation['status'], body = `Body in ${language}`): Translation => ({
  language,
  status,
  body,
});

const template = (ws: TestWorkspace, name: string, translations: Translation[]) =>
  createTemplate(server.app.services, ws.workspaceId, { name, translations });

const getTemplate = (ws: TestWorkspace, templateId: unknown) =>
  ws.action<Template>('get-template', { template_id: templateId });

const listNames = async (ws: TestWorkspace, body: object) => {
  const res = await ws.action<Template[]>('list-templates', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.map((t) => t.name);
};

describe(`templates (${ENGINE})`, () => {
  test('get-template › shows the first APPROVED translation', async () => {
    const ws = await createWorkspace(server);
    const created = await template(ws, 'order_shipped', [
      translation('en_US', 'PENDING', 'Pending {{1}}'),
      translation('fr', 'APPROVED', 'Bonjour {{1}}, commande {{2}}'),
      translation('de', 'APPROVED', 'Hallo {{1}}'),
    ]);
    const res = await getTemplate(ws, created.id);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'APPROVED');
    assert.equal(res.body.language, 'fr');
    assert.equal(res.body.body, 'Bonjour {{1}}, commande {{2}}');
    assert.deepEqual(res.body.placeholders, ['1', '2'], 'placeholders come from the translation shown');
    assert.deepEqual(res.body.languages, ['en_US', 'fr', 'de'], 'languages lists all translations, oldest first');
    assert.deepEqual(res.body.translations, [
      { language: 'en_US', status: 'PENDING' },
      { language: 'fr', status: 'APPROVED' },
      { language: 'de', status: 'APPROVED' },
    ]);
  });

  test('get-template › with no APPROVED translation shows the oldest one, whatever its status', async () => {
    const ws = await createWorkspace(server);
    const created = await template(ws, 'promo', [translation('pt_BR', 'PENDING', 'Olá {{1}}')]);
    server.clock.advance(1000);
    await template(ws, 'promo', [translation('en', 'REJECTED', 'Hello {{1}}')]);
    const res = await getTemplate(ws, created.id);
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.language, res.body.status, res.body.body], ['pt_BR', 'PENDING', 'Olá {{1}}']);
    assert.deepEqual(res.body.languages, ['pt_BR', 'en'], 'oldest first, not alphabetical');

    server.clock.advance(1000);
    await template(ws, 'promo', [translation('en', 'APPROVED', 'Hello {{1}}')]);
    const approved = await getTemplate(ws, created.id);
    assert.deepEqual([approved.body.language, approved.body.status], ['en', 'APPROVED'], 'approval switches it');
    assert.deepEqual(approved.body.languages, ['pt_BR', 'en'], 're-approving keeps the translation’s age');
  });

  test('get-template › returns every field of the spec’s Template', async () => {
    const ws = await createWorkspace(server);
    const createdAt = server.clock.now().toISOString().replace('Z', '+00:00');
    const created = await createTemplate(server.app.services, ws.workspaceId, {
      name: 'delivery_update',
      category: 'UTILITY',
      translations: [
        {
          language: 'en_US',
          status: 'APPROVED',
          body: 'Hi {{1}}, order {{2}} arrives {{3}}.',
          header_type: 'TEXT',
          header_content: 'Your order',
          footer: 'Reply STOP to unsubscribe',
          buttons: [
            { type: 'URL', text: 'Track', url: 'https://example.com/track/{{1}}' },
            { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+14155550100' },
            { type: 'QUICK_REPLY', text: 'Thanks' },
          ],
        },
      ],
    });
    const res = await getTemplate(ws, created.id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      id: created.id,
      name: 'delivery_update',
      category: 'UTILITY',
      category_notice: null,
      message_send_ttl_seconds: null,
      status: 'APPROVED',
      language: 'en_US',
      languages: ['en_US'],
      body: 'Hi {{1}}, order {{2}} arrives {{3}}.',
      header_type: 'TEXT',
      header_content: 'Your order',
      footer: 'Reply STOP to unsubscribe',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://example.com/track/{{1}}' },
        { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+14155550100' },
        { type: 'QUICK_REPLY', text: 'Thanks' },
      ],
      placeholders: ['1', '2', '3'],
      // Added by issue 20: every variable a send takes, keyed as send-template-message's `variables`.
      parameter_format: 'POSITIONAL',
      header_placeholders: [],
      button_placeholders: [{ index: 0, placeholder: '1' }],
      variables: [
        { id: '1', label: '{{1}}' },
        { id: '2', label: '{{2}}' },
        { id: '3', label: '{{3}}' },
        { id: 'button_0_1', label: 'Button "Track" {{1}}' },
      ],
      missing_capabilities: [],
      meta_template_id: null,
      rejection_reason: null,
      quality_score: null,
      translations: [{ language: 'en_US', status: 'APPROVED' }],
      add_security_recommendation: null,
      code_expiration_minutes: null,
      library_template_name: null,
      created_at: createdAt,
    });
    assert.match(res.body.created_at, TIMESTAMP);
  });

  test('get-template › placeholders are the distinct {{n}} numbers of the body, ascending', async () => {
    const ws = await createWorkspace(server);
    const repeated = await template(ws, 'repeated', [translation('en', 'APPROVED', '{{2}} {{1}} {{2}}')]);
    const numeric = await template(ws, 'numeric', [translation('en', 'APPROVED', '{{10}} {{9}} {{1}}')]);
    const none = await template(ws, 'plain', [translation('en', 'APPROVED', 'Thanks for your order!')]);
    assert.deepEqual((await getTemplate(ws, repeated.id)).body.placeholders, ['1', '2']);
    assert.deepEqual((await getTemplate(ws, numeric.id)).body.placeholders, ['1', '9', '10']);
    assert.deepEqual((await getTemplate(ws, none.id)).body.placeholders, []);
  });

  test('get-template › without header or footer: header_type null, header_content "", no footer field', async () => {
    const ws = await createWorkspace(server);
    const bare = await template(ws, 'bare', [translation('en', 'APPROVED')]);
    const res = await getTemplate(ws, bare.id);
    assert.equal(res.body.header_type, null);
    assert.equal(res.body.header_content, '');
    assert.equal('footer' in res.body, false, 'footer is omitted when the template has none');
    assert.deepEqual(res.body.buttons, []);

    const emptyFooter = await createTemplate(server.app.services, ws.workspaceId, {
      name: 'empty_footer',
      translations: [{ language: 'en', status: 'APPROVED', body: 'Hi', footer: '' }],
    });
    const empty = await getTemplate(ws, emptyFooter.id);
    assert.equal('footer' in empty.body, false, 'an empty footer is no footer');
  });

  test('get-template › a media header carries its URL in header_content', async () => {
    const ws = await createWorkspace(server);
    const created = await createTemplate(server.app.services, ws.workspaceId, {
      name: 'invoice',
      translations: [
        {
          language: 'en',
          status: 'APPROVED',
          body: 'Your invoice {{1}}',
          header_type: 'DOCUMENT',
          header_content: 'https://cdn.example.com/invoice.pdf',
          footer: 'x'.repeat(60),
        },
      ],
    });
    const res = await getTemplate(ws, created.id);
    assert.equal(res.body.header_type, 'DOCUMENT');
    assert.equal(res.body.header_content, 'https://cdn.example.com/invoice.pdf');
    assert.equal(res.body.footer, 'x'.repeat(60), 'a footer of exactly 60 characters is kept whole');
  });

  test('get-template › 404 for an unknown or foreign template id, and the two answers are identical', async () => {
    const mine = await createWorkspace(server);
    const theirs = await createWorkspace(server);
    const foreign = await template(theirs, 'their_secret', [translation('en', 'APPROVED')]);
    const viaForeign = await mine.action<Problem>('get-template', { template_id: foreign.id });
    const viaUnknown = await mine.action<Problem>('get-template', { template_id: UNKNOWN_ID });
    assert.equal(viaForeign.status, 404);
    assert.equal(viaForeign.body.code, 'not_found');
    const comparable = (p: Problem) => ({ ...p, instance: undefined, request_id: undefined });
    assert.deepEqual(comparable(viaForeign.body), comparable(viaUnknown.body));
    assert.equal(viaForeign.headers['content-type'], viaUnknown.headers['content-type']);
    assert.equal((await getTemplate(theirs, foreign.id)).status, 200, 'the owner still sees it');
  });

  test('get-template › 400 naming template_id when it is missing or not a UUID', async () => {
    const ws = await createWorkspace(server);
    for (const body of [
      {},
      { template_id: 'order_shipped' },
      { template_id: '' },
      { template_id: 42 },
      { template_id: `${UNKNOWN_ID}0` },
      { template_id: `urn:uuid:${UNKNOWN_ID}` },
    ]) {
      const res = await ws.action<Problem>('get-template', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
      assert.equal(res.body.errors?.[0]?.field, 'template_id', JSON.stringify(res.body));
    }
  });

  test('get-template › an upper-case UUID names the same template on every engine', async () => {
    const ws = await createWorkspace(server);
    const created = await template(ws, 'shouting', [translation('en', 'APPROVED')]);
    const res = await getTemplate(ws, created.id.toUpperCase());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.id, created.id);
  });

  test('get-template › a read-only token may look templates up', async () => {
    const ws = await createWorkspace(server, { scope: 'read' });
    const created = await template(ws, 'readable', [translation('en', 'APPROVED')]);
    assert.equal((await getTemplate(ws, created.id)).status, 200);
  });

  test('list-templates › alphabetical; name is a case-insensitive substring; "" is no filter', async () => {
    const ws = await createWorkspace(server);
    for (const name of ['welcome', 'order_shipped', 'password_reset', 'order_delivered']) {
      await template(ws, name, [translation('en', 'APPROVED')]);
    }
    const all = ['order_delivered', 'order_shipped', 'password_reset', 'welcome'];
    assert.deepEqual(await listNames(ws, {}), all);
    assert.deepEqual(await listNames(ws, { name: '' }), all);
    assert.deepEqual(await listNames(ws, { name: '', status: '' }), all);
    assert.deepEqual(await listNames(ws, { name: 'ORDER' }), ['order_delivered', 'order_shipped']);
    assert.deepEqual(await listNames(ws, { name: 'Come' }), ['welcome']);
    assert.deepEqual(await listNames(ws, { name: 'nothing_like_it' }), []);
  });

  test('list-templates › LIKE wildcards in name are literal', async () => {
    const ws = await createWorkspace(server);
    for (const name of ['order_shipped', 'password_reset', 'orders']) {
      await template(ws, name, [translation('en', 'APPROVED')]);
    }
    assert.deepEqual(await listNames(ws, { name: 'r_s' }), ['order_shipped'], '_ is not "any character"');
    assert.deepEqual(await listNames(ws, { name: 'r%s' }), [], '% is not "anything"');
    assert.deepEqual(await listNames(ws, { name: '_' }), ['order_shipped', 'password_reset']);
  });

  test('list-templates › status matches any translation, case-insensitively; the shown one stays the approved', async () => {
    const ws = await createWorkspace(server);
    await template(ws, 'mixed', [translation('en', 'APPROVED'), translation('fr', 'REJECTED')]);
    await template(ws, 'waiting', [translation('en', 'PENDING')]);
    await template(ws, 'approved_only', [translation('en', 'APPROVED')]);
    assert.deepEqual(await listNames(ws, { status: 'APPROVED' }), ['approved_only', 'mixed']);
    assert.deepEqual(await listNames(ws, { status: 'rejected' }), ['mixed']);
    assert.deepEqual(await listNames(ws, { status: 'Pending' }), ['waiting']);
    assert.deepEqual(await listNames(ws, { status: 'PAUSED' }), []);
    assert.deepEqual(await listNames(ws, { name: 'MIX', status: 'approved' }), ['mixed'], 'filters combine');
    assert.deepEqual(await listNames(ws, { name: 'wait', status: 'approved' }), []);

    const [mixed] = (await ws.action<Template[]>('list-templates', { status: 'REJECTED' })).body;
    assert.deepEqual([mixed?.language, mixed?.status], ['en', 'APPROVED']);
  });

  test('list-templates › an unknown status is a 400 that lists the allowed values', async () => {
    const ws = await createWorkspace(server);
    await template(ws, 'anything', [translation('en', 'APPROVED')]);
    const res = await ws.action<Problem>('list-templates', { status: 'GREEN' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    const statuses =
      'APPROVED, PENDING, REJECTED, PAUSED, DISABLED, IN_APPEAL, PENDING_DELETION, DELETED, LIMIT_EXCEEDED, ARCHIVED';
    assert.deepEqual(res.body.errors, [
      {
        field: 'status',
        message: `must be one of ${statuses}`,
        code: 'templates.status_unknown',
        params: { statuses },
      },
    ]);
    for (const allowed of ['APPROVED', 'PENDING', 'REJECTED']) assert.match(res.body.detail, new RegExp(allowed));
    assert.equal((await ws.action('list-templates', { status: 5 })).status, 400);
  });

  test('list-templates › each element is the same Template get-template returns', async () => {
    const ws = await createWorkspace(server);
    const created = await createTemplate(server.app.services, ws.workspaceId, {
      name: 'complete',
      translations: [
        {
          language: 'en',
          status: 'APPROVED',
          body: 'Hi {{1}}',
          header_type: 'IMAGE',
          header_content: 'https://cdn.example.com/a.png',
          footer: 'Footer',
          buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }],
        },
        translation('es', 'PENDING'),
      ],
    });
    const listed = await ws.action<Template[]>('list-templates', {});
    const fetched = await getTemplate(ws, created.id);
    assert.deepEqual(listed.body, [fetched.body]);
  });

  test('list-templates › returns at most the server cap (1000), the first ones alphabetically', async () => {
    const ws = await createWorkspace(server);
    const { db, newId, clock } = server.app.services.deps;
    const at = clock.now().toISOString();
    const rows = Array.from({ length: TEMPLATE_LIST_CAP + 1 }, (_, i) => ({
      id: newId(),
      workspace_id: ws.workspaceId,
      name: `bulk_${String(TEMPLATE_LIST_CAP - i).padStart(4, '0')}`,
      category: 'MARKETING',
      created_at: at,
      updated_at: at,
    }));
    await db.insertInto('templates').values(rows).execute();
    await db
      .insertInto('template_translations')
      .values(
        rows.map((row) => ({
          id: newId(),
          template_id: row.id,
          language: 'en',
          status: 'APPROVED',
          body: 'Hi {{1}}',
          buttons: '[]',
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const listed = await listNames(ws, {});
    assert.equal(TEMPLATE_LIST_CAP, 1000);
    assert.equal(listed.length, 1000);
    assert.deepEqual([listed[0], listed[999]], ['bulk_0000', 'bulk_0999']);
    assert.deepEqual(await listNames(ws, { name: '1000' }), ['bulk_1000'], 'a filter reaches past the cap');
  });

  test('list-templates › a workspace sees only its own templates', async () => {
    const mine = await createWorkspace(server);
    const theirs = await createWorkspace(server);
    await template(mine, 'shared_name', [translation('en', 'APPROVED', 'mine')]);
    await template(theirs, 'shared_name', [translation('en', 'APPROVED', 'theirs')]);
    await template(theirs, 'their_only', [translation('en', 'PENDING')]);
    const res = await mine.action<Template[]>('list-templates', {});
    assert.deepEqual(
      res.body.map((t) => [t.name, t.body]),
      [['shared_name', 'mine']],
    );
    assert.deepEqual(await listNames(mine, { status: 'PENDING' }), []);
    assert.deepEqual(await listNames(mine, { name: 'their' }), []);
  });
});
