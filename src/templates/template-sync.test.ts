import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { cliJson, runCli } from '../../test/cli.js';
import { ownerSession } from '../../test/dashboard-session.js';
import { createWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import { templateCategoryWebhook, templateStatusWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Template } from './template.schema.js';

const { graph, server, postWebhook } = await startWhatsappServer();

/** Meta's message_templates entry: one per name and language. */
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

describe(`template sync (${ENGINE})`, () => {
  test('templates sync › on the simulator, the CLI and the dashboard say it needs a WhatsApp Cloud number', async () => {
    const ws = await createWorkspace(server);
    const needsCloud = /^Templates sync needs a WhatsApp Cloud number: this workspace sends through the simulator/;
    const cli = await runCli(server, 'templates', 'sync', '--workspace', ws.workspaceId);
    assert.equal(cli.code, 1, cli.stderr);
    assert.match(cli.stderr.replace(/^parley: /, ''), needsCloud);

    const owner = await ownerSession(server);
    const dashboard = await owner.send<{ status: number; code: string; detail: string }>(
      'POST',
      '/api/dashboard/templates/sync',
    );
    assert.deepEqual([dashboard.status, dashboard.body.status, dashboard.body.code], [409, 409, 'conflict']);
    assert.match(dashboard.body.detail, needsCloud);
  });

  test('templates sync › pulls every page of the WABA’s templates; status webhooks update a translation', async () => {
    const ws = await createWorkspace(server);
    const { phoneNumberId, wabaId } = graph.addPhoneNumber({ accessToken: 'EAAG-sync' });
    await cliJson(
      server,
      ...['channel', 'set', '--workspace', ws.workspaceId, '--provider', 'whatsapp-cloud'],
      ...['--phone-number-id', phoneNumberId, '--waba-id', wabaId, '--access-token', 'EAAG-sync'],
    );
    graph.setTemplates(wabaId, [
      metaTemplate('order_update', 'en_US', 'APPROVED', 'Hi {{1}}, order {{2}} shipped.'),
      metaTemplate('order_update', 'de', 'PENDING', 'Hallo {{1}}, Bestellung {{2}} ist unterwegs.'),
      metaTemplate('welcome', 'en_US', 'APPROVED', 'Welcome, {{1}}!'),
      // A location header ("Location headers" in Meta's template guide) is one kind Parley has no model for yet.
      {
        ...metaTemplate('store_location', 'en_US', 'APPROVED', ''),
        components: [
          { type: 'HEADER', format: 'LOCATION' },
          { type: 'BODY', text: 'Our new store is open.' },
        ],
      },
    ]);

    const result = await cliJson<{
      templates: number;
      translations: number;
      skipped: { name: string; language: string; reason: string }[];
    }>(server, ...['templates', 'sync', '--workspace', ws.workspaceId]);
    assert.equal(result.templates, 2);
    assert.equal(result.translations, 3);
    assert.deepEqual(result.skipped, [
      { name: 'store_location', language: 'en_US', reason: 'Parley does not support LOCATION headers yet' },
    ]);

    const listed = await ws.action<Template[]>('list-templates', {});
    const order = listed.body.find((t) => t.name === 'order_update');
    assert.deepEqual(order?.translations, [
      { language: 'en_US', status: 'APPROVED' },
      { language: 'de', status: 'PENDING' },
    ]);
    assert.equal(order?.footer, 'Reply STOP to opt out');
    assert.deepEqual(order?.placeholders, ['1', '2']);

    const update = templateStatusWebhook({
      wabaId,
      templateId: 1,
      name: 'order_update',
      language: 'de',
      event: 'APPROVED',
    });
    const response = await postWebhook<{ template_statuses: number }>(update);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.template_statuses, 1);
    const after = await ws.action<Template>('get-template', { template_id: order.id });
    assert.deepEqual(after.body.translations, [
      { language: 'en_US', status: 'APPROVED' },
      { language: 'de', status: 'APPROVED' },
    ]);

    // Meta recategorizes it: first the notice a day ahead, then the change.
    const template = { wabaId, templateId: 278077987957091, name: 'order_update', language: 'en_US' };
    const at = new Date(Date.UTC(2026, 11, 2, 9, 30, 0));
    const notice = templateCategoryWebhook({ ...template, notice: { current: 'UTILITY', correct: 'MARKETING', at } });
    assert.equal((await postWebhook<{ template_statuses: number }>(notice)).body.template_statuses, 1);
    const announced = (await ws.action<Template>('get-template', { template_id: order.id })).body;
    assert.deepEqual([announced.category, announced.category_notice?.category], ['UTILITY', 'MARKETING']);
    assert.equal(Date.parse(announced.category_notice!.effective_at), at.getTime());
    const done = templateCategoryWebhook({ ...template, done: { previous: 'UTILITY', now: 'MARKETING' } });
    assert.equal((await postWebhook(done)).status, 200);
    const changed = (await ws.action<Template>('get-template', { template_id: order.id })).body;
    assert.deepEqual([changed.category, changed.category_notice], ['MARKETING', null]);
    const others = (await ws.action<Template[]>('list-templates', {})).body.filter((t) => t.name !== 'order_update');
    assert.deepEqual(
      others.map((t) => t.category),
      ['UTILITY'],
      'other templates keep theirs',
    );
  });
});
