/**
 * The role table holds on every surface: for each role, a representative action of each area
 * through the person's dashboard session, through their own API token and through MCP with that
 * token, allowed or refused with 403 permission_denied alike. Also: a token follows its creator's
 * role as it changes, and only an owner touches owners.
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch } from 'undici';
import { can, type Permission, type Role } from '../src/access/roles.js';
import { joinedTeammate, ownerSession, type DashboardSession } from './dashboard-session.js';
import { ENGINE, startServer, type HttpResponse } from './server.js';

const server = await startServer();
const agent = new Agent({ connect: { ca: server.app.tls!.cert } });
after(() => agent.close());

interface Problem {
  code: string;
  detail: string;
  permission?: string;
}
type Json = Record<string, unknown>;

/** One person of the workspace: their session and an API token they created themselves. */
interface Person {
  role: Role;
  session: DashboardSession;
  token: string;
}

/**
 * A representative action of each area: the REST action (called by session, token and MCP), the
 * body it is called with, and the answer it gives when allowed (404 where the id is made up, so
 * the allowed call changes nothing).
 */
interface AreaCase {
  permission: Permission | null;
  action: string;
  body: (fixture: Fixture) => Json;
  allowed: number;
  /** Not an MCP tool (webhook subscriptions are not: see EXCLUDED_OPERATIONS). */
  noTool?: true;
}

interface Fixture {
  contactId: string;
  ownersChannelId: string;
}

const CASES: AreaCase[] = [
  { permission: null, action: 'get-contact', body: (f) => ({ contact_id: f.contactId }), allowed: 200 },
  { permission: null, action: 'list-templates', body: () => ({}), allowed: 200 },
  { permission: 'conversations', action: 'list-messages', body: (f) => ({ contact_id: f.contactId }), allowed: 200 },
  { permission: 'contacts', action: 'add-tag', body: (f) => ({ contact_id: f.contactId, tag: 'vip' }), allowed: 200 },
  { permission: 'templates', action: 'delete-template', body: () => ({ template_id: randomUUID() }), allowed: 404 },
  { permission: 'campaigns', action: 'list-campaigns', body: () => ({}), allowed: 200 },
  { permission: 'automation', action: 'get-sequence', body: () => ({ sequence_id: randomUUID() }), allowed: 404 },
  { permission: 'manage_workspace', action: 'list-webhooks', body: () => ({}), allowed: 200, noTool: true },
  // The hole of issue 29: a member's full token added a default number or removed the owner's.
  {
    permission: 'manage_channel',
    action: 'remove-channel',
    body: (f) => ({ channel_id: f.ownersChannelId }),
    allowed: 200,
  },
  {
    permission: 'manage_channel',
    action: 'add-channel',
    body: () => ({ provider: 'simulator', phone_number_id: numericId(), default: true }),
    allowed: 200,
  },
];

/** Dashboard-only areas, by session. */
const SESSION_CASES: { permission: Permission; method: 'GET' | 'PUT'; path: string; body?: Json }[] = [
  { permission: 'conversations', method: 'GET', path: '/api/dashboard/conversations' },
  { permission: 'reports', method: 'GET', path: '/api/dashboard/reports/rates' },
  { permission: 'manage_team', method: 'GET', path: '/api/dashboard/invites' },
  {
    permission: 'manage_workspace',
    method: 'PUT',
    path: '/api/dashboard/reports/rates',
    body: { currency: 'EUR', rates: {} },
  },
  { permission: 'automation', method: 'GET', path: '/api/dashboard/sequences' },
];

/** A simulated number's id: Meta's phone number ids are numeric. */
const numericId = () => String(randomInt(1e9, 1e12));

const ROLES: Role[] = ['owner', 'admin', 'member', 'agent', 'marketer'];

/** The SDK's MCP client over streamable HTTP with a token. */
async function mcpClient(token: string): Promise<Client> {
  const trusting: FetchLike = (url, init) => fetch(url, { ...init, dispatcher: agent } as never) as never;
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
    fetch: trusting,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'roles-test', version: '1.0.0' });
  await client.connect(transport);
  after(() => client.close());
  return client;
}

/** A person with the role, joined through an invitation, with a full token of their own. */
async function personOf(owner: DashboardSession, role: Role): Promise<Person> {
  const session = role === 'owner' ? owner : await joinedTeammate(server, owner, role);
  const issued = await session.send<{ token: string }>('POST', '/api/dashboard/tokens', { name: `${role} zap` });
  assert.equal(issued.status, 200, issued.text);
  return { role, session, token: issued.body.token };
}

/** A workspace with one person of each role, a contact and the owner's simulated number. */
async function teamOfEveryRole() {
  const owner = await ownerSession(server);
  await server.app.services.workspaces.update(owner.workspaceId, { rateLimitPerMinute: 10_000 });
  const people = new Map<Role, Person>();
  for (const role of ROLES) people.set(role, await personOf(owner, role));
  const contact = await owner.send<{ id: string }>('POST', '/api/v1/actions/create-contact', {
    phone: '+447911123456',
    name: 'Carlos Okafor',
  });
  assert.equal(contact.status, 201, contact.text);
  return { owner, people, contactId: contact.body.id };
}

/** A fresh simulated number of the owner's, for a remove-channel case to aim at. */
async function ownersChannel(owner: DashboardSession): Promise<string> {
  const added = await owner.send<{ id: string }>('POST', '/api/v1/actions/add-channel', {
    provider: 'simulator',
    phone_number_id: numericId(),
  });
  assert.equal(added.status, 200, added.text);
  return added.body.id;
}

function expectAnswer(
  answer: HttpResponse<unknown>,
  role: Role,
  area: AreaCase | { permission: Permission | null },
  allowed: number,
  label: string,
) {
  const problem = answer.body as Problem;
  if (area.permission === null || can(role, area.permission)) {
    assert.equal(answer.status, allowed, `${label}: ${role} may (${answer.text})`);
  } else {
    assert.deepEqual(
      [answer.status, problem.code, problem.permission],
      [403, 'permission_denied', area.permission],
      label,
    );
  }
}

const channelIds = async (owner: DashboardSession) =>
  (await owner.send<{ channels: { id: string }[] }>('POST', '/api/v1/actions/list-channels', {})).body.channels
    .map((channel) => channel.id)
    .sort();

describe(`roles on every surface (${ENGINE})`, () => {
  test('roles › each role’s session, token and MCP tools are allowed or refused alike, area by area', async () => {
    const { owner, people, contactId } = await teamOfEveryRole();
    for (const person of people.values()) {
      const tools = new Set((await (await mcpClient(person.token)).listTools()).tools.map((tool) => tool.name));
      for (const area of CASES) {
        const tool = area.action.replace(/-/g, '_');
        const listed = !area.noTool && (area.permission === null || can(person.role, area.permission));
        assert.equal(tools.has(tool), listed, `tools/list of a ${person.role} and ${tool}`);
        const surfaces = {
          session: (body: Json) => person.session.send('POST', `/api/v1/actions/${area.action}`, body),
          token: (body: Json) =>
            server.http.send('POST', `/api/v1/actions/${area.action}`, { token: person.token, body }),
          mcp: async (body: Json): Promise<HttpResponse<unknown>> => {
            const client = await mcpClient(person.token);
            const result = (await client.callTool({ name: tool, arguments: body })) as CallToolResult;
            const text = (result.content[0] as { text: string }).text;
            const parsed = JSON.parse(text) as Json;
            const status = result.isError ? (parsed.status as number) : area.allowed;
            return { status, headers: {}, body: parsed, text };
          },
        };
        for (const [surface, call] of Object.entries(surfaces)) {
          if (surface === 'mcp' && area.noTool) continue;
          const before = await channelIds(owner);
          const fixture = { contactId, ownersChannelId: await ownersChannel(owner) };
          const answer = await call(area.body(fixture));
          expectAnswer(answer, person.role, area, area.allowed, `${person.role} ${surface} ${area.action}`);
          if (area.permission === 'manage_channel' && !can(person.role, 'manage_channel')) {
            const after = await channelIds(owner);
            assert.deepEqual(after, [...before, fixture.ownersChannelId].sort(), 'the numbers stay as they were');
          }
        }
      }
      for (const area of SESSION_CASES) {
        const answer = await person.session.send(area.method, area.path, area.body);
        expectAnswer(answer, person.role, area, 200, `${person.role} ${area.method} ${area.path}`);
      }
    }
  });

  test('roles › a token acts with its creator’s current role: lowered, it loses access at once; removed, it stops', async () => {
    const owner = await ownerSession(server);
    const member = await personOf(owner, 'member');
    const { body: contact } = await owner.send<{ id: string }>('POST', '/api/v1/actions/create-contact', {
      phone: '+447911123457',
    });
    const listMessages = () =>
      server.http.send<Problem>('POST', '/api/v1/actions/list-messages', {
        token: member.token,
        body: { contact_id: contact.id },
      });
    const first = await listMessages();
    assert.equal(first.status, 200, first.text);
    const client = await mcpClient(member.token);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'list_messages'));

    const lowered = await owner.send('PUT', `/api/dashboard/team/${member.session.userId}`, { role: 'marketer' });
    assert.equal(lowered.status, 200, lowered.text);
    const refused = await listMessages();
    assert.deepEqual([refused.status, refused.body.code], [403, 'permission_denied']);
    assert.match(refused.body.detail, /marketer role/);
    const tools = (await (await mcpClient(member.token)).listTools()).tools.map((tool) => tool.name);
    assert.ok(!tools.includes('list_messages') && tools.includes('list_campaigns'), tools.join());

    assert.equal((await owner.send('DELETE', `/api/dashboard/team/${member.session.userId}`)).status, 200);
    const gone = await server.http.send<Problem>('POST', '/api/v1/actions/list-campaigns', {
      token: member.token,
      body: {},
    });
    assert.deepEqual([gone.status, gone.body.code], [401, 'unauthorized']);
  });

  test('roles › an admin manages everyone but owners; only an owner makes, changes or removes an owner', async () => {
    const owner = await ownerSession(server);
    const admin = await personOf(owner, 'admin');
    const agent = await personOf(owner, 'agent');
    const denied = async (answer: Promise<HttpResponse<Problem>>, label: string) => {
      const { status, body } = await answer;
      assert.deepEqual([status, body.code, body.permission], [403, 'permission_denied', 'manage_owners'], label);
    };
    const team = (path: string, role?: Role) =>
      role
        ? admin.session.send<Problem>('PUT', `/api/dashboard/team/${path}`, { role })
        : admin.session.send<Problem>('DELETE', `/api/dashboard/team/${path}`);
    await denied(team(owner.userId, 'member'), 'an admin demotes the owner');
    await denied(team(owner.userId), 'an admin removes the owner');
    await denied(team(agent.session.userId, 'owner'), 'an admin makes an owner');
    await denied(
      admin.session.send<Problem>('POST', '/api/dashboard/invites', { email: 'boss@example.com', role: 'owner' }),
      'an admin invites an owner',
    );
    assert.equal((await team(agent.session.userId, 'marketer')).status, 200, 'an admin changes an agent’s role');
    const invited = await admin.session.send('POST', '/api/dashboard/invites', {
      email: 'ad@example.com',
      role: 'admin',
    });
    assert.equal(invited.status, 200, invited.text);
    assert.equal((await team(agent.session.userId)).status, 200, 'an admin removes a marketer');
    const promoted = await owner.send('PUT', `/api/dashboard/team/${admin.session.userId}`, { role: 'owner' });
    assert.equal(promoted.status, 200, 'an owner makes an owner');
  });

  test('roles › a marketer’s contact page carries no messages; the simulator’s thread and the live stream are refused', async () => {
    const owner = await ownerSession(server);
    const marketer = await personOf(owner, 'marketer');
    const contact = await owner.send<{ id: string }>('POST', '/api/v1/actions/create-contact', {
      phone: '+447911000111',
    });
    const sent = await owner.send('POST', '/api/v1/actions/simulate-inbound-message', {
      phone: '+447911000111',
      text: 'My order number is 4411',
    });
    assert.equal(sent.status, 200, sent.text);
    type Activity = { messages: unknown[]; sequences: unknown[] };
    const ownerView = await owner.send<Activity>('GET', `/api/dashboard/contacts/${contact.body.id}/activity`);
    assert.equal(ownerView.body.messages.length, 1);
    const marketerView = await marketer.session.send<Activity>(
      'GET',
      `/api/dashboard/contacts/${contact.body.id}/activity`,
    );
    assert.equal(marketerView.status, 200);
    assert.deepEqual(marketerView.body.messages, []);
    assert.ok(!marketerView.text.includes('4411'));
    for (const path of [`/api/dashboard/simulator/messages?contact_id=${contact.body.id}`, '/api/dashboard/events']) {
      const refused = await marketer.session.send<Problem>('GET', path);
      assert.deepEqual([refused.status, refused.body.code], [403, 'permission_denied'], path);
    }
  });
});
