import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { ownerApi } from '../../test/factories.js';
import { customerPhone, flowConversation } from '../../test/flow-conversation.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer, type CloudWorkspace } from '../../test/whatsapp.js';
import type { FlowRecord } from '../triggers/trigger.schema.js';
import type { Flow, FlowStats } from './flow.schema.js';

const bed = await startWhatsappServer({ outbox: true });
const { server, cloudWorkspace } = bed;
const { sentTo, writes, settle } = flowConversation(bed);

interface Problem {
  code: string;
  errors: { field: string; code?: string; message: string }[];
}

/** Asks whether the customer wants a table; `thanks` is what a "yes" leads to. The wait has no timeout. */
const tableFlow = (thanks: string) => ({
  start: 'menu',
  keywords: ['table'],
  nodes: [
    {
      id: 'menu',
      type: 'send_buttons',
      text: 'A table for tonight?',
      buttons: [{ id: 'yes', title: 'Yes' }],
      next: 'wait',
    },
    { id: 'wait', type: 'wait_for_reply', next: 'route' },
    { id: 'route', type: 'branch', branches: [{ when: { button_id: 'yes' }, next: 'thanks' }], default: 'end' },
    { id: 'thanks', type: 'send_text', text: thanks, next: 'end' },
    { id: 'end', type: 'end' },
  ] as Record<string, unknown>[],
});

async function saveFlow(cloud: CloudWorkspace, definition: object): Promise<Flow> {
  const saved = await cloud.ws.action<Flow>('save-flow', { name: `Tables ${randomInt(1e9)}`, definition });
  assert.equal(saved.status, 200, saved.text);
  return saved.body;
}

async function publishDraft(cloud: CloudWorkspace, flow: Flow, definition: object): Promise<Flow> {
  const draft = await cloud.ws.action<Flow>('save-flow-draft', { flow_id: flow.id, definition });
  assert.deepEqual(draft.body.draft?.problems, [], draft.text);
  const published = await cloud.ws.action<Flow>('publish-flow', { flow_id: flow.id });
  assert.equal(published.status, 200, published.text);
  return published.body;
}

describe(`flow drafts and versions (${ENGINE})`, () => {
  test('save-flow-draft keeps an invalid draft with its problems; publish-flow refuses it by JSON Pointer, then publishes version 2', async () => {
    const cloud = await cloudWorkspace();
    const flow = await saveFlow(cloud, tableFlow('Booked!'));
    assert.deepEqual([flow.version, flow.draft], [1, null]);

    const broken = tableFlow('Booked, see you tonight!');
    Object.assign(broken.nodes[3]!, { next: 'nowhere' });
    const draft = await cloud.ws.action<Flow>('save-flow-draft', { flow_id: flow.id, definition: broken });
    assert.equal(draft.status, 200, draft.text);
    assert.deepEqual(draft.body.draft?.definition, broken, 'kept as given');
    assert.deepEqual(
      draft.body.draft?.problems.map((p) => [p.field, p.code]),
      [['/definition/nodes/3/next', 'flows.unknown_target']],
    );
    assert.deepEqual([draft.body.version, draft.body.nodes], [1, flow.nodes], 'the live version is untouched');

    const refused = await cloud.ws.action<Problem>('publish-flow', { flow_id: flow.id });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'validation_failed');
    assert.deepEqual(
      refused.body.errors.map((e) => e.field),
      ['/definition/nodes/3/next'],
    );
    assert.equal((await cloud.ws.action<Flow>('get-flow', { flow_id: flow.id })).body.version, 1);

    const published = await publishDraft(cloud, flow, tableFlow('Booked, see you tonight!'));
    assert.deepEqual([published.version, published.draft], [2, null]);
    assert.equal((published.nodes[3] as { text: string }).text, 'Booked, see you tonight!');
    const nothing = await cloud.ws.action<Problem>('publish-flow', { flow_id: flow.id });
    assert.equal(nothing.status, 409, nothing.text);

    // save-flow publishes at once; saving the live definition again makes no new version.
    const again = await cloud.ws.action<Flow>('save-flow', {
      id: flow.id,
      name: flow.name,
      definition: tableFlow('Booked, see you tonight!'),
    });
    assert.equal(again.body.version, 2, again.text);
    const unknown = await cloud.ws.action<Problem>('save-flow-draft', { flow_id: randomUUID(), definition: broken });
    assert.equal(unknown.status, 404, unknown.text);
  });

  test('a run finishes on the version it started on: v2 changes where "yes" leads, the waiting run follows v1', async () => {
    const cloud = await cloudWorkspace();
    const flow = await saveFlow(cloud, tableFlow('Booked (v1)'));
    const first = customerPhone();
    await writes(cloud, first, { text: 'table' });
    // A wait without a timeout waits until a reply comes, however long that takes.
    server.clock.advance(30 * 86_400_000);
    await settle(cloud);
    const [waiting] = (await cloud.ws.get<FlowRecord[]>(`/v1/triggers/new-flow-triggered?flow_id=${flow.id}`)).body;
    assert.equal(waiting?.status, 'waiting');

    await publishDraft(cloud, flow, tableFlow('Booked (v2)'));
    await writes(cloud, first, { button: 'yes' });
    assert.deepEqual(sentTo(cloud, first), ['interactive:A table for tonight?', 'text:Booked (v1)']);

    const second = customerPhone();
    await writes(cloud, second, { text: 'table' });
    await writes(cloud, second, { button: 'yes' });
    assert.deepEqual(sentTo(cloud, second), ['interactive:A table for tonight?', 'text:Booked (v2)']);

    const stats = async (version: number) =>
      (await cloud.ws.action<FlowStats>('get-flow-stats', { flow_id: flow.id, version })).body;
    for (const version of [1, 2]) {
      const counted = await stats(version);
      assert.equal(counted.runs, 1, `one run on version ${version}`);
      assert.ok(counted.edges.some((e) => e.from === 'route' && e.to === 'thanks'));
    }
  });

  test('get-flow-stats counts the runs along each edge (a loop once per run) and where each run is or ended', async () => {
    const cloud = await cloudWorkspace();
    const definition = tableFlow('Booked!');
    Object.assign(definition.nodes[2]!, { default: 'again' });
    definition.nodes.push({ id: 'again', type: 'send_text', text: 'Tap Yes to book', next: 'wait' });
    const flow = await saveFlow(cloud, definition);
    const [ada, bea, cy] = [customerPhone(), customerPhone(), customerPhone()];
    for (const customer of [ada, bea, cy]) await writes(cloud, customer, { text: 'table' });
    await writes(cloud, ada, { text: 'maybe' });
    await writes(cloud, ada, { text: 'hmm' });
    await writes(cloud, ada, { button: 'yes' });
    await writes(cloud, bea, { button: 'yes' });

    const stats = await cloud.ws.action<FlowStats>('get-flow-stats', { flow_id: flow.id });
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual([stats.body.version, stats.body.runs], [1, 3]);
    const edges = stats.body.edges.map((e) => `${e.from} -${e.exit}-> ${e.to}: ${e.runs}`);
    assert.deepEqual(edges.sort(), [
      'again -next-> wait: 1',
      'menu -next-> wait: 3',
      'route -branches/0/next-> thanks: 2',
      'route -default-> again: 1',
      'thanks -next-> end: 2',
      'wait -next-> route: 2',
    ]);
    const nodes = Object.fromEntries(stats.body.nodes.map((n) => [n.node_id, n.runs]));
    assert.deepEqual(Object.keys(nodes).sort(), ['end', 'wait']);
    assert.deepEqual([nodes.end?.completed, nodes.wait?.waiting], [2, 1]);

    const later = await cloud.ws.action<Problem>('get-flow-stats', { flow_id: flow.id, version: 2 });
    assert.equal(later.status, 404, later.text);
  });

  test('drafts, publishing and stats need the automation permission: an agent gets 403', async () => {
    const owner = await ownerSession(server);
    const api = await ownerApi(server, owner);
    const flow = (await api.action<Flow>('save-flow', { name: 'Tables', definition: tableFlow('Booked!') })).body;
    const agent = await joinedTeammate(server, owner, 'agent');
    for (const [action, body] of [
      ['save-flow-draft', { flow_id: flow.id, definition: tableFlow('Mine') }],
      ['publish-flow', { flow_id: flow.id }],
      ['get-flow-stats', { flow_id: flow.id }],
    ] as const) {
      const refused = await agent.send<Problem>('POST', `/api/v1/actions/${action}`, body);
      assert.equal(refused.status, 403, `${action}: ${refused.text}`);
      assert.equal(refused.body.code, 'permission_denied');
    }
  });
});
