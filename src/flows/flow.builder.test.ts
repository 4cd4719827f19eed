import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession } from '../../test/dashboard-session.js';
import { createWorkspace, ownerApi, type TestWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import type { FlowRecord } from '../triggers/trigger.schema.js';
import type { Flow, FlowStats, TryRun } from './flow.schema.js';

const bed = await startWhatsappServer({ outbox: true });
const { server, cloudWorkspace } = bed;

interface Problem {
  code: string;
  errors: { field: string; code?: string; message: string }[];
}

/** A florist's menu: two buttons, each answered; the wait has no time limit. */
const menuFlow = (thanks = 'Roses it is!') => ({
  start: 'menu',
  nodes: [
    {
      id: 'menu',
      type: 'send_buttons',
      title: 'Menu',
      text: 'What would you like?',
      buttons: [
        { id: 'roses', title: 'Roses' },
        { id: 'hours', title: 'Hours' },
      ],
      next: 'menu-reply',
    },
    { id: 'menu-reply', type: 'wait_for_reply', next: 'menu-choice' },
    {
      id: 'menu-choice',
      type: 'branch',
      branches: [
        { when: { button_id: 'roses' }, next: 'thanks' },
        { when: { button_id: 'hours' }, next: 'hours' },
      ],
      default: 'menu',
    },
    { id: 'thanks', type: 'send_text', text: thanks },
    { id: 'hours', type: 'send_text', title: 'ساعات العمل', text: 'We are open 9–18.' },
  ],
});

async function newFlow(ws: TestWorkspace, definition: object = menuFlow()): Promise<Flow> {
  const saved = await ws.action<Flow>('save-flow', { name: `Florist ${randomInt(1e9)}`, definition });
  assert.equal(saved.status, 200, saved.text);
  return saved.body;
}

/** The path of a run as "from exit → to" lines, and the nodes it is at or ended at. */
const pathOf = (stats: FlowStats) => ({
  edges: stats.edges.map((e) => `${e.from} ${e.exit} → ${e.to}`),
  at: stats.nodes.map((n) => n.node_id),
});

describe(`the flow builder's API: titles, layout, try-runs (${ENGINE})`, () => {
  test('a node keeps its title in any language beside its id; the layout is kept beside the definition and makes no version', async () => {
    const ws = await createWorkspace(server);
    const flow = await newFlow(ws);
    assert.equal(flow.nodes.find((n) => n.id === 'hours')?.title, 'ساعات العمل');
    assert.equal(flow.layout, null);

    const layout = { menu: { x: 16, y: 40 }, thanks: { x: 420.5, y: -12 } };
    const draft = await ws.action<Flow>('save-flow-draft', { flow_id: flow.id, definition: menuFlow(), layout });
    assert.equal(draft.status, 200, draft.text);
    assert.deepEqual(draft.body.layout, layout);
    const published = await ws.action<Flow>('publish-flow', { flow_id: flow.id });
    assert.deepEqual([published.body.version, published.body.layout], [1, layout], 'places are not a version');
    // A draft saved without a layout keeps the one there was.
    await ws.action<Flow>('save-flow-draft', { flow_id: flow.id, definition: menuFlow('Lovely') });
    assert.deepEqual((await ws.action<Flow>('get-flow', { flow_id: flow.id })).body.layout, layout);

    const bad = await ws.action<Problem>('save-flow-draft', {
      flow_id: flow.id,
      definition: menuFlow(),
      layout: { menu: { x: 'left' } },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.code, 'validation_failed');
    const blankTitle = structuredClone(menuFlow());
    blankTitle.nodes[3]!.title = '';
    const refused = await ws.action<Problem>('save-flow', { id: flow.id, name: flow.name, definition: blankTitle });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(
      refused.body.errors.map((e) => e.field),
      ['/definition/nodes/3/title'],
    );
  });

  test('try-flow runs the draft for the try contact in the simulator; its path is get-flow-stats by run_id, and it counts nowhere else', async () => {
    const ws = await createWorkspace(server);
    const flow = await newFlow(ws);
    await ws.action('save-flow-draft', { flow_id: flow.id, definition: menuFlow('Draft roses!') });

    const tried = await ws.action<TryRun>('try-flow', { flow_id: flow.id });
    assert.equal(tried.status, 200, tried.text);
    assert.deepEqual([tried.body.contact_phone, tried.body.status], ['+14155550199', 'waiting']);
    const tap = await ws.action('simulate-inbound-message', {
      phone: tried.body.contact_phone,
      button_reply: { id: 'roses', title: 'Roses' },
    });
    assert.equal(tap.status, 200, tap.text);

    // The draft's words, not the live version's: the person tries what is on the canvas.
    const said = await ws.action<{ direction: string; content: { body?: string } }[]>('list-messages', {
      contact_id: tried.body.contact_id,
    });
    assert.equal(said.status, 200, said.text);
    assert.ok(
      said.body.some((m) => m.direction === 'outbound' && m.content.body === 'Draft roses!'),
      said.text,
    );

    const path = await ws.action<FlowStats>('get-flow-stats', { flow_id: flow.id, run_id: tried.body.run_id });
    assert.equal(path.status, 200, path.text);
    assert.deepEqual(pathOf(path.body), {
      edges: ['menu next → menu-reply', 'menu-choice branches/0/next → thanks', 'menu-reply next → menu-choice'],
      at: ['thanks'],
    });
    assert.equal(path.body.nodes[0]?.runs.completed, 1);

    const live = await ws.action<FlowStats>('get-flow-stats', { flow_id: flow.id });
    assert.deepEqual([live.body.runs, live.body.edges, live.body.nodes], [0, [], []], 'not the live version’s run');
    const got = await ws.action<Flow>('get-flow', { flow_id: flow.id });
    assert.equal(got.body.runs.completed, 0);
    const feed = await ws.get<FlowRecord[]>(`/v1/triggers/new-flow-triggered?flow_id=${flow.id}`);
    assert.deepEqual(feed.body, [], 'no customer’s run');
    assert.equal(got.body.version, 1, 'trying publishes nothing');

    // A draft with a problem is refused as publishing would refuse it.
    const broken = menuFlow();
    broken.nodes[0]!.next = 'nowhere';
    await ws.action('save-flow-draft', { flow_id: flow.id, definition: broken });
    const refused = await ws.action<Problem>('try-flow', { flow_id: flow.id });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.errors[0]?.field, '/definition/nodes/0/next');
  });

  test('try-flow needs the simulator (409 on WhatsApp Cloud), a run of the flow for run_id (404), and the automation permission (403)', async () => {
    const cloud = await cloudWorkspace();
    const flow = await newFlow(cloud.ws);
    const refused = await cloud.ws.action<Problem>('try-flow', { flow_id: flow.id });
    assert.equal(refused.status, 409, refused.text);
    const other = await newFlow(cloud.ws);
    const run = await cloud.ws.action<FlowRecord>('trigger-flow', { flow_id: other.id, phone: '+14155550188' });
    const stranger = await cloud.ws.action<Problem>('get-flow-stats', { flow_id: flow.id, run_id: run.body.id });
    assert.equal(stranger.status, 404, stranger.text);

    const owner = await ownerSession(server);
    const mine = await newFlow(await ownerApi(server, owner));
    const agent = await joinedTeammate(server, owner, 'agent');
    const denied = await agent.send<Problem>('POST', '/api/v1/actions/try-flow', { flow_id: mine.id });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.body.code, 'permission_denied');
  });
});
