import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { createImageHeaderTemplate, createTemplate } from '../../test/factories.js';
import { openServices } from '../services.js';
import { ENGINE } from '../../test/server.js';
import { API_VERSION, startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { SequenceRecord } from '../triggers/trigger.schema.js';
import type { Sequence } from './sequence.schema.js';

const { graph, server, cloudWorkspace, postWebhook } = await startWhatsappServer({ outbox: true });
const { scheduler, outbox } = server.app.services;
const DAY = 86_400_000;

/** Runs the workspace's due steps and lets the outbox deliver what they queued. */
async function runDue(cloud: CloudWorkspace): Promise<void> {
  await scheduler.runDue(cloud.ws.workspaceId);
  outbox.wake();
  await outbox.idle();
}

/** Template messages the stand-in received for one phone: their first body parameter, in order. */
const templatesTo = (cloud: CloudWorkspace, phone: string) =>
  graph.requests
    .filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
    .map(
      (r) =>
        r.body as {
          to: string;
          type: string;
          template?: { name: string; components: { parameters: { text: string }[] }[] };
        },
    )
    .filter((body) => body.to === phone && body.type === 'template')
    .map((body) => `${body.template!.name}:${body.template!.components[0]!.parameters.map((p) => p.text).join('|')}`);

async function threeStepSequence(cloud: CloudWorkspace, extra: object = {}) {
  const services = server.app.services;
  const welcome = await createTemplate(services, cloud.ws.workspaceId, { name: `welcome_${randomInt(1e9)}` });
  const reminder = await createTemplate(services, cloud.ws.workspaceId, { name: `reminder_${randomInt(1e9)}` });
  const response = await cloud.ws.action<Sequence>('save-sequence', {
    name: `Onboarding ${randomInt(1e9)}`,
    steps: [
      {
        action: {
          type: 'send_template',
          template_id: welcome.id,
          variables: ['{{contact.name}}', '{{context.order}}'],
        },
      },
      { delay: 'P1D', action: { type: 'add_tag', tag: 'onboarded' } },
      {
        delay: 'P2D',
        // Keyed by the template-variables ids, as send-template-message takes them (the first step uses the array form).
        action: {
          type: 'send_template',
          template_id: reminder.id,
          variables: { '1': '{{contact.name}}', '2': 'soon' },
        },
      },
    ],
    ...extra,
  });
  assert.equal(response.status, 200, response.text);
  return { sequence: response.body, welcome, reminder };
}

async function enrol(cloud: CloudWorkspace, sequenceId: string, phone: string) {
  await cloud.ws.action('create-contact', { phone, name: 'Ada' });
  const response = await cloud.ws.action<SequenceRecord>('trigger-sequence', {
    sequence_id: sequenceId,
    phone,
    context: { order: 'ORD-7' },
  });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

const phone = () => `+1415${randomInt(2_000_000, 9_999_999)}`;

const imageTemplate = (cloud: CloudWorkspace) => createImageHeaderTemplate(server.app.services, cloud.ws.workspaceId);

describe(`sequences (${ENGINE})`, () => {
  test('a template step takes header_media_url, Meta gets it as the header image; refused without one or not https', async () => {
    const cloud = await cloudWorkspace();
    const template = await imageTemplate(cloud);
    const save = (action: object) =>
      cloud.ws.action<Sequence & { code?: string; errors?: { field: string; code?: string }[] }>('save-sequence', {
        name: `Photos ${randomInt(1e9)}`,
        steps: [{ action: { type: 'send_template', template_id: template.id, ...action } }],
      });
    const without = await save({});
    assert.equal(without.status, 422, without.text);
    assert.equal(without.body.code, 'header_media_required');
    assert.deepEqual(
      without.body.errors?.map((e) => [e.field, e.code]),
      [['/steps/0/action/header_media_url', 'common.header_media_required']],
    );
    const plain = await save({ header_media_url: 'http://shop.example/new.jpg' });
    assert.equal(plain.status, 400, plain.text);
    assert.deepEqual(
      plain.body.errors?.map((e) => [e.field, e.code]),
      [['/steps/0/action/header_media_url', 'messages.https_url']],
    );

    const link = 'https://shop.example/new.jpg';
    const saved = await save({ header_media_url: link });
    assert.equal(saved.status, 200, saved.text);
    const to = phone();
    await enrol(cloud, saved.body.id, to);
    await runDue(cloud);
    const sent = graph.requests
      .filter((r) => r.path === `/${API_VERSION}/${cloud.phoneNumberId}/messages`)
      .map((r) => r.body as { to: string; template?: { components: unknown } })
      .find((body) => body.to === to);
    // Meta's "Send template messages", media header: {type: "header", parameters: [{type: "image", image: {link}}]}.
    assert.deepEqual(sent?.template?.components, [
      { type: 'header', parameters: [{ type: 'image', image: { link } }] },
    ]);
  });

  test('a 3-step sequence runs to the end on the clock, each step once, in Meta’s format', async () => {
    const cloud = await cloudWorkspace();
    const { sequence, welcome, reminder } = await threeStepSequence(cloud);
    const to = phone();
    const enrolment = await enrol(cloud, sequence.id, to);
    assert.deepEqual(
      [enrolment.status, enrolment.contact_phone, enrolment.context],
      ['active', to, { order: 'ORD-7' }],
    );

    await runDue(cloud);
    assert.deepEqual(templatesTo(cloud, to), [`${welcome.name}:Ada|ORD-7`]);
    server.clock.advance(DAY - 60_000);
    await runDue(cloud);
    let contact = await cloud.ws.action<{ tags: string[] }>('get-contact', { phone: to });
    assert.deepEqual(contact.body.tags, [], 'a minute before the delay, nothing happened');
    server.clock.advance(60_000);
    await runDue(cloud);
    contact = await cloud.ws.action<{ tags: string[] }>('get-contact', { phone: to });
    assert.deepEqual(contact.body.tags, ['onboarded']);
    server.clock.advance(2 * DAY);
    await runDue(cloud);
    await runDue(cloud);
    assert.deepEqual(templatesTo(cloud, to), [`${welcome.name}:Ada|ORD-7`, `${reminder.name}:Ada|soon`]);

    const fetched = await cloud.ws.action<Sequence>('get-sequence', { sequence_id: sequence.id });
    assert.deepEqual(fetched.body.enrolments, { active: 0, waiting: 0, completed: 1, exited: 0, failed: 0 });
    const feed = await cloud.ws.get(`/v1/triggers/new-sequence-triggered?sequence_id=${sequence.id}`);
    assert.deepEqual(
      (feed.body as SequenceRecord[]).map((r) => [r.id, r.status, r.sequence_name]),
      [[enrolment.id, 'completed', sequence.name]],
    );
  });

  test('a reply from the contact ends the enrolment before the next step', async () => {
    const cloud = await cloudWorkspace();
    const { sequence, welcome } = await threeStepSequence(cloud);
    const to = phone();
    await enrol(cloud, sequence.id, to);
    await runDue(cloud);
    const reply = inboundTextWebhook({ phoneNumberId: cloud.phoneNumberId, from: to.slice(1), text: 'thanks!' });
    assert.equal((await postWebhook(reply)).status, 200);
    server.clock.advance(3 * DAY);
    await runDue(cloud);
    assert.deepEqual(templatesTo(cloud, to), [`${welcome.name}:Ada|ORD-7`]);
    const contact = await cloud.ws.action<{ tags: string[] }>('get-contact', { phone: to });
    assert.deepEqual(contact.body.tags, []);
    const feed = await cloud.ws.get(`/v1/triggers/new-sequence-triggered?sequence_id=${sequence.id}`);
    assert.equal((feed.body as SequenceRecord[])[0]!.status, 'exited');
  });

  test('a contact is enrolled once at a time (409 already_enrolled), again after the enrolment ends', async () => {
    const cloud = await cloudWorkspace();
    const { sequence } = await threeStepSequence(cloud, { exit_on: { reply: false, tags: ['stop'] } });
    const to = phone();
    const first = await enrol(cloud, sequence.id, to);
    const again = await cloud.ws.action('trigger-sequence', { sequence_id: sequence.id, phone: to });
    assert.equal(again.status, 409, again.text);
    assert.deepEqual(
      [(again.body as { code: string }).code, (again.body as { enrolment_id: string }).enrolment_id],
      ['already_enrolled', first.id],
    );
    // Getting an exit tag through the API ends it; then the contact can be enrolled again.
    assert.equal((await cloud.ws.action('add-tag', { phone: to, tag: 'Stop' })).status, 200);
    const fetched = await cloud.ws.action<Sequence>('get-sequence', { sequence_id: sequence.id });
    assert.equal(fetched.body.enrolments.exited, 1);
    assert.equal((await cloud.ws.action('trigger-sequence', { sequence_id: sequence.id, phone: to })).status, 200);
  });

  test('stop-sequence-enrolment: no further step is sent; 409 once ended; other workspaces get 404', async () => {
    const cloud = await cloudWorkspace();
    const { sequence, welcome } = await threeStepSequence(cloud);
    const to = phone();
    const enrolment = await enrol(cloud, sequence.id, to);
    await runDue(cloud);
    const other = await cloudWorkspace();
    const foreign = await other.ws.action('stop-sequence-enrolment', { enrolment_id: enrolment.id });
    assert.equal(foreign.status, 404, foreign.text);

    const stopped = await cloud.ws.action<SequenceRecord>('stop-sequence-enrolment', { enrolment_id: enrolment.id });
    assert.equal(stopped.status, 200, stopped.text);
    assert.equal(stopped.body.status, 'exited');
    server.clock.advance(3 * DAY);
    await runDue(cloud);
    assert.deepEqual(templatesTo(cloud, to), [`${welcome.name}:Ada|ORD-7`]);
    const again = await cloud.ws.action('stop-sequence-enrolment', { enrolment_id: enrolment.id });
    assert.equal(again.status, 409, again.text);
    assert.equal((await cloud.ws.action('trigger-sequence', { sequence_id: sequence.id, phone: to })).status, 200);
  });

  test('steps run together see each other: a tag one adds ends the contact’s other enrolment, and its own', async () => {
    const cloud = await cloudWorkspace();
    const vip = `vip${randomInt(1e9)}`;
    const tagging = await cloud.ws.action<Sequence>('save-sequence', {
      name: `Tagging ${randomInt(1e9)}`,
      steps: [{ action: { type: 'add_tag', tag: vip } }, { action: { type: 'add_tag', tag: 'never' } }],
      exit_on: { tags: [vip] },
    });
    const { sequence: drip, welcome } = await threeStepSequence(cloud, { exit_on: { tags: [vip] } });
    const tagged = phone();
    const others = [phone(), phone()];
    await enrol(cloud, tagging.body.id, tagged);
    server.clock.advance(1_000); // the drip's first steps fall due after the tag's, in the same round
    for (const to of [tagged, ...others]) await enrol(cloud, drip.id, to);
    await runDue(cloud);

    assert.deepEqual(templatesTo(cloud, tagged), [], 'the tag ended the drip before its first step');
    for (const to of others) assert.deepEqual(templatesTo(cloud, to), [`${welcome.name}:Ada|ORD-7`]);
    const contact = await cloud.ws.action<{ tags: string[] }>('get-contact', { phone: tagged });
    assert.deepEqual(contact.body.tags, [vip], 'the tagging sequence exited on its own tag, not going on');
    const counts = async (id: string) =>
      (await cloud.ws.action<Sequence>('get-sequence', { sequence_id: id })).body.enrolments;
    assert.deepEqual(await counts(tagging.body.id), { active: 0, waiting: 0, completed: 0, exited: 1, failed: 0 });
    assert.deepEqual(await counts(drip.id), { active: 2, waiting: 0, completed: 0, exited: 1, failed: 0 });
  });

  test('save-sequence refuses bad definitions, naming the field, and writes nothing', async () => {
    const cloud = await cloudWorkspace();
    const cases: [object, string][] = [
      [{ steps: [] }, '/steps'],
      [{ steps: [{ delay: 'P1M', action: { type: 'add_tag', tag: 'x' } }] }, '/steps/0/delay'],
      [
        { steps: [{ action: { type: 'send_template', template_id: '0190a0a0-0000-7000-8000-000000000000' } }] },
        '/steps/0/action/template_id',
      ],
      [{ steps: [{ action: { type: 'teleport' } }] }, '/steps/0/action'],
    ];
    for (const [body, field] of cases) {
      const response = await cloud.ws.action('save-sequence', { name: 'Bad', ...body });
      assert.equal(response.status, 400, response.text);
      const fields = (response.body as { errors: { field: string }[] }).errors.map((e) => e.field);
      assert.ok(
        fields.some((f) => f.startsWith(field) || f === field.slice(1).replaceAll('/', '.')),
        `${field} in ${fields.join(', ')}`,
      );
    }
    const unknown = await cloud.ws.action('save-sequence', { name: 'Bad', ...cases[2]![0] });
    assert.deepEqual((unknown.body as { errors: object[] }).errors, [
      {
        field: '/steps/0/action/template_id',
        message: 'names no template of this workspace',
        code: 'sequences.unknown_template',
      },
    ]);
    const dropdown = await cloud.ws.get('/v1/dropdowns/sequences');
    assert.deepEqual(dropdown.body, []);
  });

  test('a restart resumes the schedule: a new process runs each remaining step once', async () => {
    const cloud = await cloudWorkspace();
    const { sequence, reminder } = await threeStepSequence(cloud);
    const phones = Array.from({ length: 20 }, phone);
    for (const to of phones) await enrol(cloud, sequence.id, to);
    await runDue(cloud);
    // A second Parley (its own services and database connections, as a restarted or second process
    // would have) and this one race for the rest of the schedule.
    const other = await openServices(server.config, server.clock);
    try {
      for (let round = 0; round < 3; round++) {
        server.clock.advance(2 * DAY);
        await Promise.all([scheduler.runDue(cloud.ws.workspaceId), other.scheduler.runDue(cloud.ws.workspaceId)]);
      }
    } finally {
      await other.deps.db.destroy();
    }
    outbox.wake();
    await outbox.idle();
    for (const to of phones) {
      assert.equal(
        templatesTo(cloud, to).filter((t) => t.startsWith(reminder.name)).length,
        1,
        `${to} got the last step once`,
      );
    }
    const fetched = await cloud.ws.action<Sequence>('get-sequence', { sequence_id: sequence.id });
    assert.equal(fetched.body.enrolments.completed, phones.length);
  });
});
