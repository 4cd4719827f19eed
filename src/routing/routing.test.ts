import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { joinedTeammate, ownerSession, type DashboardSession } from '../../test/dashboard-session.js';
import { ownerApi, type TestWorkspace } from '../../test/factories.js';
import { ENGINE } from '../../test/server.js';
import { startWhatsappServer } from '../../test/whatsapp.js';
import { inboundTextWebhook } from '../whatsapp/webhook.fixtures.js';
import type { Role } from '../access/roles.js';
import type { AssignmentResult, RoutingSettings, Team } from './routing.schema.js';

// WhatsApp Cloud numbers for the number rules; other workspaces use the simulator.
const { server, graph, connect, postWebhook } = await startWhatsappServer({
  env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: 'true' },
});

interface Shop {
  owner: DashboardSession;
  api: TestWorkspace;
}

const newShop = async (): Promise<Shop> => {
  const owner = await ownerSession(server);
  return { owner, api: await ownerApi(server, owner) };
};

/** A teammate with a role, joined through an invitation, with an API token of their own. */
async function teammate(shop: Shop, role: Role = 'agent') {
  const session = await joinedTeammate(server, shop.owner);
  if (role !== 'member') {
    const changed = await shop.owner.send('PUT', `/api/dashboard/team/${session.userId}`, { role });
    assert.equal(changed.status, 200, changed.text);
  }
  return { session, api: await ownerApi(server, session) };
}

async function ok<T>(response: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const answered = await response;
  assert.equal(answered.status, 200, answered.text);
  return answered.body;
}

/** A customer writes in; returns their contact id. */
async function customerWrites(shop: Shop, text = 'hello', phone = `+1415${randomInt(2_000_000, 9_999_999)}`) {
  const message = await ok(shop.api.action<{ contact_id: string }>('simulate-inbound-message', { phone, text }));
  return message.contact_id;
}

const assignmentOf = async (shop: Shop, contactId: string) => {
  const thread = await ok(
    shop.owner.send<{ conversation: { assignee_id: string | null; team_id: string | null } }>(
      'GET',
      `/api/dashboard/conversations/${contactId}`,
    ),
  );
  return thread.conversation;
};

const assign = (api: TestWorkspace, contactId: string, body: { team_id: string | null; assignee_id: string | null }) =>
  server.http.send<AssignmentResult & { code?: string }>('PUT', `/api/v1/conversations/${contactId}/assignment`, {
    token: api.token,
    body,
  });

const settle = (shop: Shop, settings: Partial<RoutingSettings>) =>
  ok(shop.api.action<RoutingSettings>('update-routing-settings', settings));

describe(`routing (${ENGINE})`, () => {
  test('teams › created, listed with members, renamed, given members and deleted', async () => {
    const shop = await newShop();
    const ana = await teammate(shop);
    const sales = await ok(shop.api.action<Team>('create-team', { name: 'Sales', member_ids: [ana.session.userId] }));
    assert.deepEqual(
      sales.members.map((m) => [m.id, m.available]),
      [[ana.session.userId, true]],
    );
    await ok(shop.api.action<Team>('create-team', { name: 'Support' }));
    const listed = await ok(shop.api.action<Team[]>('list-teams', {}));
    assert.deepEqual(
      listed.map((t) => t.name),
      ['Sales', 'Support'],
    );
    const paged = await ok(
      server.http.send<{ data: Team[]; next_cursor: string | null }>(
        'POST',
        '/api/v1/actions/list-teams?paginate=cursor&limit=1',
        { token: shop.api.token, body: {} },
      ),
    );
    assert.equal(paged.data.length, 1);
    assert.ok(paged.next_cursor);
    const renamed = await ok(shop.api.action<Team>('update-team', { team_id: sales.id, name: 'Sales EU' }));
    assert.equal(renamed.name, 'Sales EU');
    const emptied = await ok(shop.api.action<Team>('set-team-members', { team_id: sales.id, member_ids: [] }));
    assert.deepEqual(emptied.members, []);
    const deleted = await ok(shop.api.action('delete-team', { team_id: sales.id }));
    assert.deepEqual(deleted, { id: sales.id, name: 'Sales EU', deleted: true });
    assert.deepEqual(
      (await ok(shop.api.action<Team[]>('list-teams', {}))).map((t) => t.name),
      ['Support'],
    );
  });

  test('teams › a name taken (ignoring case) is a 409; an unknown member or team a 404; another workspace sees none', async () => {
    const shop = await newShop();
    const other = await newShop();
    const team = await ok(shop.api.action<Team>('create-team', { name: 'Support' }));
    const taken = await shop.api.action<{ code: string }>('create-team', { name: 'support' });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'conflict');
    const stranger = await shop.api.action<{ errors: { field: string }[] }>('create-team', {
      name: 'Sales',
      member_ids: [other.owner.userId],
    });
    assert.equal(stranger.status, 404, stranger.text);
    assert.equal(stranger.body.errors[0]!.field, 'member_ids/0');
    assert.equal((await other.api.action('update-team', { team_id: team.id, name: 'Mine' })).status, 404);
    assert.deepEqual(await ok(other.api.action<Team[]>('list-teams', {})), []);
  });

  test('teams › an agent may list teams but not change them (403 permission_denied)', async () => {
    const shop = await newShop();
    const agent = await teammate(shop, 'agent');
    await ok(shop.api.action<Team>('create-team', { name: 'Support' }));
    assert.equal((await ok(agent.api.action<Team[]>('list-teams', {}))).length, 1);
    const refused = await agent.api.action<{ code: string }>('create-team', { name: 'Mine' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'permission_denied');
    assert.equal((await agent.api.action('update-routing-settings', { auto_assign: true })).status, 403);
  });

  test('assignment › a team and one of its members; someone outside the team is a 422; null clears', async () => {
    const shop = await newShop();
    const ana = await teammate(shop);
    const bo = await teammate(shop);
    const team = await ok(shop.api.action<Team>('create-team', { name: 'Support', member_ids: [ana.session.userId] }));
    const contactId = await customerWrites(shop);
    const assigned = await ok(assign(shop.api, contactId, { team_id: team.id, assignee_id: ana.session.userId }));
    assert.deepEqual(assigned, { contact_id: contactId, team_id: team.id, assignee_id: ana.session.userId });
    assert.deepEqual(await assignmentOf(shop, contactId), {
      ...(await assignmentOf(shop, contactId)),
      team_id: team.id,
    });
    const outsider = await assign(shop.api, contactId, { team_id: team.id, assignee_id: bo.session.userId });
    assert.equal(outsider.status, 400, outsider.text);
    assert.equal(outsider.body.code, 'validation_failed');
    const cleared = await ok(assign(shop.api, contactId, { team_id: null, assignee_id: null }));
    assert.deepEqual(cleared, { contact_id: contactId, team_id: null, assignee_id: null });
    const unknown = await assign(shop.api, randomUUID(), { team_id: null, assignee_id: null });
    assert.equal(unknown.status, 404);
  });

  test('assignment › a marketer cannot be given a conversation, nor assign one', async () => {
    const shop = await newShop();
    const marketer = await teammate(shop, 'marketer');
    const contactId = await customerWrites(shop);
    const refused = await assign(shop.api, contactId, { team_id: null, assignee_id: marketer.session.userId });
    assert.equal(refused.status, 400, refused.text);
    const denied = await assign(marketer.api, contactId, { team_id: null, assignee_id: null });
    assert.equal(denied.status, 403);
  });

  test('auto-assignment › round-robin among the team, within the per-agent limit; the rest waits until a conversation is done', async () => {
    const shop = await newShop();
    const ana = await teammate(shop);
    const bo = await teammate(shop);
    const team = await ok(
      shop.api.action<Team>('create-team', { name: 'Support', member_ids: [ana.session.userId, bo.session.userId] }),
    );
    await settle(shop, {
      auto_assign: true,
      agent_limit: 1,
      rules: [{ kind: 'keyword', value: 'help', team_id: team.id }],
    });
    const first = await customerWrites(shop, 'Help please');
    const second = await customerWrites(shop, 'I need HELP');
    const third = await customerWrites(shop, 'help!');
    const a1 = await assignmentOf(shop, first);
    const a2 = await assignmentOf(shop, second);
    assert.equal(a1.team_id, team.id);
    assert.deepEqual(
      [a1.assignee_id, a2.assignee_id].sort(),
      [ana.session.userId, bo.session.userId].sort(),
      'one each',
    );
    assert.deepEqual(await assignmentOf(shop, third), {
      ...(await assignmentOf(shop, third)),
      assignee_id: null,
      team_id: team.id,
    });
    // The first conversation's person finishes it: the waiting one is theirs now.
    await ok(shop.owner.send('POST', `/api/dashboard/conversations/${first}/done`, { done: true }));
    assert.equal((await assignmentOf(shop, third)).assignee_id, a1.assignee_id);
  });

  test('auto-assignment › without a team, anyone available who handles conversations (never a marketer)', async () => {
    const shop = await newShop();
    await teammate(shop, 'marketer');
    const ana = await teammate(shop);
    await ok(shop.api.action('set-availability', { available: false }));
    await settle(shop, { auto_assign: true });
    for (let i = 0; i < 3; i++) {
      assert.equal((await assignmentOf(shop, await customerWrites(shop))).assignee_id, ana.session.userId);
    }
  });

  test('availability › going away returns open conversations to the queue, to the next available person', async () => {
    const shop = await newShop();
    const ana = await teammate(shop);
    const bo = await teammate(shop);
    const team = await ok(
      shop.api.action<Team>('create-team', { name: 'Support', member_ids: [ana.session.userId, bo.session.userId] }),
    );
    await ok(bo.api.action('set-availability', { available: false }));
    await settle(shop, { auto_assign: true, rules: [{ kind: 'keyword', value: 'order', team_id: team.id }] });
    const contactId = await customerWrites(shop, 'about my order');
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, ana.session.userId);
    assert.deepEqual(await ok(ana.api.action('get-availability', {})), {
      user_id: ana.session.userId,
      available: true,
    });
    await ok(ana.api.action('set-availability', { available: false }));
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, null, 'nobody is available');
    await ok(bo.api.action('set-availability', { available: true }));
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, bo.session.userId);
    // Leaving the team gives it back too; removed from the workspace, likewise.
    await ok(shop.api.action('set-team-members', { team_id: team.id, member_ids: [ana.session.userId] }));
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, null);
  });

  test('availability › a person removed from the workspace leaves their conversations to the queue', async () => {
    const shop = await newShop();
    const ana = await teammate(shop);
    const bo = await teammate(shop);
    await ok(shop.api.action('set-availability', { available: false }));
    await ok(bo.api.action('set-availability', { available: false }));
    await settle(shop, { auto_assign: true });
    const contactId = await customerWrites(shop);
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, ana.session.userId);
    await ok(bo.api.action('set-availability', { available: true }));
    await ok(shop.owner.send('DELETE', `/api/dashboard/team/${ana.session.userId}`));
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, bo.session.userId);
  });

  test('availability › a person made a marketer gives their open conversations to someone who handles them', async () => {
    const shop = await newShop();
    const ana = await teammate(shop);
    const bo = await teammate(shop);
    await ok(shop.api.action('set-availability', { available: false }));
    await ok(bo.api.action('set-availability', { available: false }));
    await settle(shop, { auto_assign: true });
    const contactId = await customerWrites(shop);
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, ana.session.userId);
    await ok(bo.api.action('set-availability', { available: true }));
    await ok(shop.owner.send('PUT', `/api/dashboard/team/${ana.session.userId}`, { role: 'marketer' }));
    assert.equal((await assignmentOf(shop, contactId)).assignee_id, bo.session.userId);
  });

  test('rules › the first match picks the team: tag before keyword, in order', async () => {
    const shop = await newShop();
    const sales = await ok(shop.api.action<Team>('create-team', { name: 'Sales' }));
    const vip = await ok(shop.api.action<Team>('create-team', { name: 'VIP' }));
    await settle(shop, {
      rules: [
        { kind: 'tag', value: 'VIP', team_id: vip.id },
        { kind: 'keyword', value: 'price', team_id: sales.id },
      ],
    });
    const phone = `+1415${randomInt(2_000_000, 9_999_999)}`;
    assert.equal((await shop.api.action('create-contact', { phone, tags: ['vip'] })).status, 201);
    assert.equal((await assignmentOf(shop, await customerWrites(shop, 'What is the price?', phone))).team_id, vip.id);
    assert.equal((await assignmentOf(shop, await customerWrites(shop, 'What is the PRICE?'))).team_id, sales.id);
    assert.equal((await assignmentOf(shop, await customerWrites(shop, 'Hello'))).team_id, null);
    const unknownTeam = await shop.api.action('update-routing-settings', {
      rules: [{ kind: 'tag', value: 'x', team_id: randomUUID() }],
    });
    assert.equal(unknownTeam.status, 404);
  });

  test('rules › a number rule routes what customers write to that number, and only that', async () => {
    const shop = await newShop();
    const sales = await ok(shop.api.action<Team>('create-team', { name: 'Sales' }));
    const support = await connect(shop.owner.workspaceId);
    const salesLine = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const added = await shop.api.action('add-channel', {
      provider: 'whatsapp-cloud',
      phone_number_id: salesLine.phoneNumberId,
      waba_id: salesLine.wabaId,
      access_token: salesLine.accessToken,
    });
    assert.equal(added.status, 200, added.text);
    const { channels } = await ok(
      shop.api.action<{ channels: { id: string; phone_number_id: string }[] }>('list-channels', {}),
    );
    const salesChannel = channels.find((channel) => channel.phone_number_id === salesLine.phoneNumberId)!;
    await settle(shop, { rules: [{ kind: 'number', value: salesChannel.id, team_id: sales.id }] });
    const writesTo = async (phoneNumberId: string, from: string) => {
      const body = inboundTextWebhook({ phoneNumberId, from, name: 'Ada', text: 'hello' });
      const posted = await postWebhook(body);
      assert.equal(posted.status, 200);
      return (await ok(shop.api.action<{ id: string }>('get-contact', { phone: `+${from}` }))).id;
    };
    assert.equal(
      (await assignmentOf(shop, await writesTo(salesLine.phoneNumberId, '4915112348001'))).team_id,
      sales.id,
    );
    assert.equal((await assignmentOf(shop, await writesTo(support.phoneNumberId, '4915112348002'))).team_id, null);
  });

  test('events › an assignment is delivered to conversation-assigned webhooks with the team and person', async () => {
    const shop = await newShop();
    const ana = await teammate(shop);
    const team = await ok(shop.api.action<Team>('create-team', { name: 'Support', member_ids: [ana.session.userId] }));
    const hook = await ok(
      shop.api.action<{ id: string }>('create-webhook', {
        url: 'http://127.0.0.1:9/hook',
        events: ['conversation-assigned'],
      }),
    );
    const contactId = await customerWrites(shop);
    await ok(assign(shop.api, contactId, { team_id: team.id, assignee_id: ana.session.userId }));
    const deliveries = await ok(
      shop.api.action<{ event_type: string; payload: { data: unknown } }[]>('list-webhook-deliveries', {
        webhook_id: hook.id,
      }),
    );
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0]!.event_type, 'conversation-assigned');
    assert.deepEqual(deliveries[0]!.payload.data, {
      contact_id: contactId,
      team: { id: team.id, name: 'Support' },
      assignee: { id: ana.session.userId, name: 'Mate', email: ana.session.email },
      assigned_at: (deliveries[0]!.payload.data as { assigned_at: string }).assigned_at,
    });
    // Deleting the team takes the conversation out of it: that is an assignment change too.
    await ok(shop.api.action('delete-team', { team_id: team.id }));
    const [latest] = await ok(
      shop.api.action<{ payload: { data: { team: unknown; assignee: { id: string } } } }[]>('list-webhook-deliveries', {
        webhook_id: hook.id,
      }),
    );
    assert.equal(latest!.payload.data.team, null);
    assert.equal(latest!.payload.data.assignee.id, ana.session.userId);
  });
});
