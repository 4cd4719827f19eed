import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFlow, createSequence } from '../../test/automation-factories.js';
import { createTemplate, createWorkspace } from '../../test/factories.js';
import { ENGINE, startServer } from '../../test/server.js';
import type { Choice } from './dropdown.service.js';

const server = await startServer();
const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';

interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

const body = (templateBody: string) => [{ language: 'en', status: 'APPROVED' as const, body: templateBody }];

describe(`dropdowns (${ENGINE})`, () => {
  test('dropdowns/templates › {id, label} per template, alphabetical, labelled with its languages', async () => {
    const ws = await createWorkspace(server);
    const welcome = await createTemplate(server.app.services, ws.workspaceId, {
      name: 'welcome',
      translations: [
        { language: 'en_US', status: 'APPROVED', body: 'Hi' },
        { language: 'fr', status: 'PENDING', body: 'Salut' },
      ],
    });
    const alert = await createTemplate(server.app.services, ws.workspaceId, { name: 'alert', translations: body('!') });
    const res = await ws.get<Choice[]>('/v1/dropdowns/templates');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      { id: alert.id, label: 'alert (en)' },
      { id: welcome.id, label: 'welcome (en_US, fr)' },
    ]);
  });

  test('dropdowns/sequences and /flows › {id, label: name}, alphabetical', async () => {
    const ws = await createWorkspace(server);
    const winback = await createSequence(server, ws.workspaceId, { name: 'Win-back' });
    const abandoned = await createSequence(server, ws.workspaceId, { name: 'Abandoned cart' });
    const support = await createFlow(server, ws.workspaceId, { name: 'Support bot' });
    const faq = await createFlow(server, ws.workspaceId, { name: 'FAQ' });
    const sequences = await ws.get<Choice[]>('/v1/dropdowns/sequences');
    assert.equal(sequences.status, 200);
    assert.deepEqual(sequences.body, [
      { id: abandoned, label: 'Abandoned cart' },
      { id: winback, label: 'Win-back' },
    ]);
    const flows = await ws.get<Choice[]>('/v1/dropdowns/flows');
    assert.equal(flows.status, 200);
    assert.deepEqual(flows.body, [
      { id: faq, label: 'FAQ' },
      { id: support, label: 'Support bot' },
    ]);
  });

  test('dropdowns/sequences and /flows › alphabetical regardless of case', async () => {
    const ws = await createWorkspace(server);
    for (const name of ['Zebra', 'apple', 'Mango']) {
      await createSequence(server, ws.workspaceId, { name });
      await createFlow(server, ws.workspaceId, { name });
    }
    for (const list of ['sequences', 'flows']) {
      const res = await ws.get<Choice[]>(`/v1/dropdowns/${list}`);
      assert.deepEqual(
        res.body.map((c) => c.label),
        ['apple', 'Mango', 'Zebra'],
        list,
      );
    }
  });

  test('dropdowns › a fresh workspace has empty pick-lists', async () => {
    const ws = await createWorkspace(server);
    for (const list of ['templates', 'sequences', 'flows']) {
      const res = await ws.get(`/v1/dropdowns/${list}`);
      assert.equal(res.status, 200, list);
      assert.deepEqual(res.body, [], list);
    }
  });

  test('dropdowns › a workspace sees only its own templates, sequences and flows', async () => {
    const mine = await createWorkspace(server);
    const theirs = await createWorkspace(server);
    const template = await createTemplate(server.app.services, mine.workspaceId, {
      name: 'mine',
      translations: body('x'),
    });
    const sequence = await createSequence(server, mine.workspaceId, { name: 'Mine' });
    const flow = await createFlow(server, mine.workspaceId, { name: 'Mine' });
    await createTemplate(server.app.services, theirs.workspaceId, { name: 'theirs', translations: body('x') });
    await createSequence(server, theirs.workspaceId, { name: 'Theirs' });
    await createFlow(server, theirs.workspaceId, { name: 'Theirs' });
    const ids = async (list: string) => (await mine.get<Choice[]>(`/v1/dropdowns/${list}`)).body.map((c) => c.id);
    assert.deepEqual(await ids('templates'), [template.id]);
    assert.deepEqual(await ids('sequences'), [sequence]);
    assert.deepEqual(await ids('flows'), [flow]);
  });

  test('dropdowns/template-variables › the template’s placeholders as {id: "1", label: "{{1}}"}', async () => {
    const ws = await createWorkspace(server);
    const repeated = await createTemplate(server.app.services, ws.workspaceId, {
      translations: body('{{2}} {{1}} {{2}}'),
    });
    const res = await ws.get<Choice[]>(`/v1/dropdowns/template-variables?template_id=${repeated.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      { id: '1', label: '{{1}}' },
      { id: '2', label: '{{2}}' },
    ]);
    const upper = await ws.get<Choice[]>(`/v1/dropdowns/template-variables?template_id=${repeated.id.toUpperCase()}`);
    assert.deepEqual(upper.body, res.body, 'an upper-case id names the same template');

    const plain = await createTemplate(server.app.services, ws.workspaceId, { translations: body('No variables') });
    const none = await ws.get<Choice[]>(`/v1/dropdowns/template-variables?template_id=${plain.id}`);
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, []);
  });

  test('dropdowns/template-variables › follows the translation get-template shows', async () => {
    const ws = await createWorkspace(server);
    const created = await createTemplate(server.app.services, ws.workspaceId, {
      translations: [
        { language: 'en', status: 'REJECTED', body: '{{1}} {{2}} {{3}}' },
        { language: 'fr', status: 'APPROVED', body: '{{1}}' },
      ],
    });
    const res = await ws.get<Choice[]>(`/v1/dropdowns/template-variables?template_id=${created.id}`);
    assert.deepEqual(res.body, [{ id: '1', label: '{{1}}' }]);
  });

  test('dropdowns/template-variables › 404 for an unknown or foreign template, identical answers', async () => {
    const mine = await createWorkspace(server);
    const theirs = await createWorkspace(server);
    const foreign = await createTemplate(server.app.services, theirs.workspaceId, { translations: body('{{1}}') });
    const viaForeign = await mine.get<Problem>(`/v1/dropdowns/template-variables?template_id=${foreign.id}`);
    const viaUnknown = await mine.get<Problem>(`/v1/dropdowns/template-variables?template_id=${UNKNOWN_ID}`);
    assert.equal(viaForeign.status, 404);
    assert.equal(viaForeign.body.code, 'not_found');
    assert.deepEqual(
      [viaForeign.body.detail, viaForeign.body.errors],
      [viaUnknown.body.detail, viaUnknown.body.errors],
    );
    assert.equal(viaUnknown.status, 404);
  });

  test('dropdowns/template-variables › 400 naming template_id when it is missing or not a UUID', async () => {
    const ws = await createWorkspace(server);
    for (const query of ['', '?template_id=', '?template_id=welcome', `?template_id=urn:uuid:${UNKNOWN_ID}`]) {
      const res = await ws.get<Problem>(`/v1/dropdowns/template-variables${query}`);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.equal(res.body.errors?.[0]?.field, 'template_id', JSON.stringify(res.body));
    }
  });
});
