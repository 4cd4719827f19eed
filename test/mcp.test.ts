/**
 * The agent tool interface through the MCP SDK's own client: over streamable HTTP to the running
 * HTTPS server, and over stdio to the real `parley mcp` process on the same database.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch } from 'undici';
import { FlowNodeSchema } from '../src/flows/flow.definition.js';
import { effectOf } from '../src/mcp/tool-hints.js';
import { EXCLUDED_OPERATIONS, toolName } from '../src/mcp/tools.js';
import { TOOL_DESCRIPTIONS } from '../src/mcp/tool-descriptions.js';
import { REPO_ROOT, runCli, stderrLines } from './cli.js';
import { createTemplate, createWorkspace, type TestWorkspace } from './factories.js';
import { TOOL_EXAMPLES, type ExampleState } from './mcp-examples.js';
import { ENGINE, startServer } from './server.js';

type Json = Record<string, unknown>;

const server = await startServer();
const agent = new Agent({ connect: { ca: server.app.tls!.cert } });
after(() => agent.close());

/** The lists an agent pages through with `cursor` (the REST endpoints with `paginate=cursor`). */
const PAGED_TOOLS = [
  'search_contacts',
  'list_templates',
  'list_tags',
  'new_message_received',
  'new_campaign_sent',
  'new_flow_triggered',
  'new_sequence_triggered',
  'new_whatsapp_flow_answer',
  'list_whatsapp_flow_answers',
];

/** The first message of every MCP session. */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'script', version: '1' } },
};

/** A workspace whose token may call freely: every MCP request and tool call counts against its budget. */
const roomyWorkspace = (options: { scope?: 'read' } = {}) =>
  createWorkspace(server, { ...options, rateLimitPerMinute: 10_000, pollIntervalSeconds: 0 });

/** The SDK client over streamable HTTP, trusting the test server's self-signed certificate. */
async function httpClient(token: string): Promise<Client> {
  const trusting: FetchLike = (url, init) => fetch(url, { ...init, dispatcher: agent } as never) as never;
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
    fetch: trusting,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  return connected(transport);
}

/** The SDK client over stdio, running the real CLI against the test server's database. */
async function stdioClient(token: string): Promise<Client> {
  const env = Object.fromEntries(Object.entries(server.env).filter((entry): entry is [string, string] => !!entry[1]));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'bin/parley.js'), 'mcp', '--token', token],
    cwd: REPO_ROOT,
    env,
    stderr: 'inherit',
  });
  return connected(transport);
}

async function connected(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<Client> {
  const client = new Client({ name: 'parley-test', version: '1.0.0' });
  await client.connect(transport);
  after(() => client.close());
  return client;
}

/** Calls a tool that must succeed; returns its structuredContent. */
async function call(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.ok(!result.isError, `${name} failed: ${JSON.stringify(result.content)}`);
  assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), result.structuredContent);
  return result.structuredContent!;
}

/** Calls a tool that must be refused; returns the problem document it carries. */
async function refused(client: Client, name: string, args: Json): Promise<Json & { code: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(result.isError, true, `${name} should fail: ${JSON.stringify(result.content)}`);
  return JSON.parse((result.content[0] as { text: string }).text) as Json & { code: string };
}

/** Retries `check` until it passes (work the stdio process does in the background). */
async function eventually(check: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Runs every tool's example through `client`, in order, against a fresh workspace. */
async function exerciseEveryTool(client: Client, ws: TestWorkspace): Promise<void> {
  const template = await createTemplate(server.app.services, ws.workspaceId);
  const phone = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
  const state = { templateId: template.id, phone } as ExampleState;
  for (const example of TOOL_EXAMPLES) {
    const result = example.refusal
      ? await refused(client, example.tool, example.input(state))
      : await call(client, example.tool, example.input(state));
    if (example.refusal) assert.equal(result.code, example.refusal);
    example.expect(result, state);
  }
}

/** The paths of the properties under `schema` (in objects, arrays and alternatives) without a description. */
function undescribedProperties(schema: unknown, path: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => undescribedProperties(item, `${path}[${index}]`));
  if (schema === null || typeof schema !== 'object') return [];
  const { properties, ...rest } = schema as Json;
  const own = Object.entries((properties ?? {}) as Record<string, Json>).flatMap(([name, property]) => [
    ...(typeof property.description === 'string' && property.description.trim() ? [] : [`${path}.${name}`]),
    ...undescribedProperties(property, `${path}.${name}`),
  ]);
  const nested = ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'].flatMap((key) =>
    key in rest ? undescribedProperties(rest[key], `${path}.${key}`) : [],
  );
  return [...own, ...nested];
}

describe(`MCP server (${ENGINE})`, () => {
  test('lists one tool per documented /v1 operation, each with a curated description and self-contained schemas', async () => {
    const ws = await roomyWorkspace();
    const client = await httpClient(ws.token);
    const { tools } = await client.listTools();
    const openapi = (await ws.get<{ paths: Record<string, Record<string, Json>> }>('/v1/openapi.json')).body;
    const operationIds = Object.entries(openapi.paths)
      .filter(([route]) => route.startsWith('/v1/'))
      .flatMap(([, methods]) => Object.values(methods))
      .filter((operation) => !operation.deprecated)
      .map((operation) => operation.operationId as string)
      .filter((operationId) => !EXCLUDED_OPERATIONS.has(operationId));
    assert.deepEqual(tools.map((tool) => tool.name).sort(), operationIds.map(toolName).sort());
    for (const operationId of operationIds) {
      const tool = tools.find((candidate) => candidate.name === toolName(operationId))!;
      assert.equal(tool.description, TOOL_DESCRIPTIONS[operationId], `${operationId} needs a curated description`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.ok(!JSON.stringify(tool).includes('"$ref"'), `${tool.name} has a $ref`);
    }
    const stale = Object.keys(TOOL_DESCRIPTIONS).filter((operationId) => !operationIds.includes(operationId));
    assert.deepEqual(stale, [], 'descriptions of operations that are not tools');
    assert.deepEqual(
      TOOL_EXAMPLES.map((example) => example.tool).sort(),
      tools.map((tool) => tool.name).sort(),
      'every tool needs an example in mcp-examples.ts',
    );
    for (const name of PAGED_TOOLS) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      assert.ok(
        tool.inputSchema.properties?.cursor && tool.inputSchema.properties.limit,
        `${name} takes cursor, limit`,
      );
      assert.deepEqual(tool.outputSchema?.required, ['data', 'next_cursor'], `${name} returns a cursor page`);
    }
  });

  test('annotations › every tool says whether it reads, destroys, repeats harmlessly and reaches outside Parley', async () => {
    const ws = await roomyWorkspace();
    const { tools } = await (await httpClient(ws.token)).listTools();
    const hints = (name: string) => {
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tools.find(
        (t) => t.name === name,
      )!.annotations!;
      return { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
    };
    for (const tool of tools) {
      const set = Object.values(hints(tool.name)).filter((hint) => typeof hint === 'boolean');
      assert.equal(set.length, 4, `${tool.name} sets every hint: MCP's defaults assume the worst`);
    }
    const operationOf = (name: string) => Object.keys(TOOL_DESCRIPTIONS).find((id) => toolName(id) === name)!;
    const unclassified = tools.filter((t) => !t.annotations!.readOnlyHint && !effectOf(operationOf(t.name)));
    assert.deepEqual(
      unclassified.map((t) => t.name),
      [],
      'a writing tool whose verb src/mcp/tool-hints.ts does not know',
    );
    const reads = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
    assert.deepEqual(hints('search_contacts'), { ...reads, openWorldHint: false });
    assert.deepEqual(hints('get_flows_endpoint'), { ...reads, openWorldHint: true }, 'asks Meta for the key');
    const sends = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
    for (const name of ['send_text_message', 'send_template_message', 'send_group_text', 'trigger_flow']) {
      assert.deepEqual(hints(name), sends, `${name} messages a customer, and it cannot be taken back`);
    }
    assert.deepEqual(hints('delete_tag'), {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.deepEqual(hints('delete_template'), {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    assert.deepEqual(hints('create_contact'), {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.deepEqual(hints('add_conversation_note'), {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  test('every property of every tool input is described, at every depth (a model reads nothing else)', async () => {
    const ws = await roomyWorkspace();
    const { tools } = await (await httpClient(ws.token)).listTools();
    const undescribed = tools.flatMap((tool) => undescribedProperties(tool.inputSchema, tool.name));
    assert.deepEqual(undescribed, []);
  });

  test('save_flow and save_flow_draft › the input schema carries the flow definition: every node type and its fields', async () => {
    const ws = await roomyWorkspace();
    const { tools } = await (await httpClient(ws.token)).listTools();
    for (const name of ['save_flow', 'save_flow_draft']) {
      const input = tools.find((tool) => tool.name === name)!.inputSchema as unknown as {
        properties: {
          definition: { properties: { nodes: { items: { anyOf: { title: string; properties: Json }[] } } } };
        };
      };
      const nodes = input.properties.definition.properties.nodes.items.anyOf;
      assert.deepEqual(
        nodes.map((node) => node.title),
        FlowNodeSchema.anyOf.map((node) => node.properties.type.const),
        name,
      );
      const buttons = nodes.find((node) => node.title === 'send_buttons')!;
      assert.deepEqual(Object.keys(buttons.properties), ['id', 'type', 'title', 'text', 'buttons', 'next'], name);
    }
  });

  test('streamable HTTP › calls every tool with valid input', async () => {
    const ws = await roomyWorkspace();
    await exerciseEveryTool(await httpClient(ws.token), ws);
  });

  test('stdio › parley mcp calls every tool with valid input', async () => {
    const ws = await roomyWorkspace();
    await exerciseEveryTool(await stdioClient(ws.token), ws);
  });

  test('stdio › runs the outbox and scheduler itself: a campaign it creates is sent and enters new_campaign_sent', async () => {
    const ws = await roomyWorkspace();
    const client = await stdioClient(ws.token);
    const template = await createTemplate(server.app.services, ws.workspaceId);
    await call(client, 'create_contact', { phone: '+14155550142', name: 'Grace', tags: 'launch' });
    const campaign = await call(client, 'create_campaign', {
      name: 'Launch',
      template_id: template.id,
      audience: { tag: 'launch' },
      variables: ['{{contact.name}}', 'ORD-9'],
    });
    await eventually(async () => {
      const sent = await call(client, 'new_campaign_sent');
      assert.deepEqual(
        (sent.data as Json[]).map((record) => record.id),
        [campaign.id],
      );
    });
    const [message] = (await call(client, 'list_messages', { phone: '+14155550142' })).data as Json[];
    assert.notEqual(message!.status, 'queued', 'delivered by the stdio process’s outbox');
    // Sent and not read: resend_campaign makes one resend, and a second call answers the same one.
    const resend = await call(client, 'resend_campaign', { campaign_id: campaign.id });
    assert.deepEqual(resend.audience, { not_read_of: campaign.id });
    assert.equal((await call(client, 'resend_campaign', { campaign_id: campaign.id })).id, resend.id);
  });

  test('search_contacts › pages through more contacts than the limit with next_cursor, each exactly once', async () => {
    const ws = await roomyWorkspace();
    const client = await httpClient(ws.token);
    const created = new Set<string>();
    for (let i = 0; i < 7; i++) {
      created.add((await call(client, 'create_contact', { phone: `+1415555030${i}`, name: `Page ${i}` })).id as string);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await call(client, 'search_contacts', { query: 'page', limit: '3', ...(cursor && { cursor }) });
      seen.push(...(page.data as Json[]).map((contact) => contact.id as string));
      cursor = page.next_cursor as string | null;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen.sort(), [...created].sort());
  });

  test('resources › the workspace, the template list and each template', async () => {
    const ws = await roomyWorkspace();
    const client = await httpClient(ws.token);
    const template = await createTemplate(server.app.services, ws.workspaceId, { name: 'order_shipped' });
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((resource) => resource.uri),
      ['parley://workspace', 'parley://templates', `parley://templates/${template.id}`],
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((resource) => resource.uriTemplate),
      ['parley://templates/{id}'],
    );

    const read = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      assert.equal(contents[0]!.mimeType, 'application/json');
      return JSON.parse((contents[0] as { text: string }).text) as unknown;
    };
    assert.equal(((await read('parley://workspace')) as { workspace: Json }).workspace.id, ws.workspaceId);
    assert.deepEqual(
      ((await read('parley://templates')) as Json[]).map((t) => t.name),
      ['order_shipped'],
    );
    assert.deepEqual(
      await read(`parley://templates/${template.id}`),
      await call(client, 'get_template', { template_id: template.id }),
    );
    await assert.rejects(read('parley://templates/0190a0a0-0000-7000-8000-000000000000'), /template not found/);
    await assert.rejects(read('parley://contacts'), /No resource/);
  });

  test('isolation › a token of another workspace sees nothing of the first', async () => {
    const first = await roomyWorkspace();
    const other = await roomyWorkspace();
    const firstClient = await httpClient(first.token);
    const template = await createTemplate(server.app.services, first.workspaceId);
    const contact = await call(firstClient, 'create_contact', { phone: '+14155550177', name: 'Secret' });

    const otherClient = await httpClient(other.token);
    assert.equal((await refused(otherClient, 'get_contact', { contact_id: contact.id })).code, 'not_found');
    assert.equal((await refused(otherClient, 'list_messages', { contact_id: contact.id })).code, 'not_found');
    assert.deepEqual((await call(otherClient, 'search_contacts', {})).data, []);
    assert.deepEqual((await call(otherClient, 'list_templates', {})).data, []);
    await assert.rejects(otherClient.readResource({ uri: `parley://templates/${template.id}` }), /not found/);
    const me = (await otherClient.readResource({ uri: 'parley://workspace' })).contents[0] as { text: string };
    assert.equal((JSON.parse(me.text) as { workspace: Json }).workspace.id, other.workspaceId);
  });

  test('a refused call is a tool error carrying the problem document, so the model can correct it', async () => {
    const ws = await roomyWorkspace();
    const client = await httpClient(ws.token);
    const invalid = await refused(client, 'create_contact', { phone: '12' });
    assert.equal(invalid.code, 'validation_failed');
    assert.deepEqual(
      (invalid.errors as Json[]).map((error) => error.field),
      ['phone'],
    );
    await call(client, 'create_contact', { phone: '+14155550188' });
    const closed = await refused(client, 'send_text_message', { phone: '+14155550188', message: 'Hi' });
    assert.equal(closed.code, 'customer_service_window_closed');
    assert.deepEqual((await call(client, 'search_contacts', {})).data, [
      await call(client, 'get_contact', { phone: '+14155550188' }),
    ]);
  });

  test('a read-only token lists only the read tools; calling a writing one answers insufficient_scope', async () => {
    const full = await (await httpClient((await roomyWorkspace()).token)).listTools();
    const ws = await roomyWorkspace({ scope: 'read' });
    const client = await httpClient(ws.token);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      full.tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name),
    );
    assert.ok(tools.length > 20 && !tools.some((tool) => tool.name === 'send_text_message'));
    const stdioTools = (await (await stdioClient(ws.token)).listTools()).tools;
    assert.deepEqual(
      stdioTools.map((tool) => tool.name),
      tools.map((tool) => tool.name),
      'parley mcp offers the same',
    );
    assert.deepEqual((await call(client, 'search_contacts', {})).data, []);
    assert.equal((await refused(client, 'create_contact', { phone: '+14155550199' })).code, 'insufficient_scope');
  });

  test('streamable HTTP › refuses a missing or unknown token with a 401 problem; GET is a 405', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    for (const token of [undefined, 'parley_not-a-token']) {
      const response = await server.http.send('POST', '/mcp', { body: INITIALIZE, headers, ...(token && { token }) });
      assert.equal(response.status, 401);
      assert.match(String(response.headers['content-type']), /application\/problem\+json/);
      assert.equal((response.body as { code: string }).code, 'unauthorized');
    }
    const ws = await roomyWorkspace();
    const get = await server.http.send('GET', '/mcp', { token: ws.token, headers });
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
  });

  test('stdio › answers every request of a script that closes stdin right after writing them', async () => {
    const ws = await roomyWorkspace();
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/parley.js'), 'mcp', '--token', ws.token], {
      cwd: REPO_ROOT,
      env: server.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const call = (id: number, name: string, args: Json) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    const script = [
      INITIALIZE,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call(2, 'create_contact', { phone: '+14155550166' }),
      call(3, 'get_me', {}),
    ];
    child.stdin.end(script.map((message) => `${JSON.stringify(message)}\n`).join(''));
    let output = '';
    for await (const chunk of child.stdout) output += String(chunk);
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 0);
    const answers = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: { structuredContent: Json } })
      .sort((a, b) => a.id - b.id);
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [1, 2, 3],
    );
    assert.equal(answers[1]!.result.structuredContent.phone, '+14155550166');
    assert.equal((answers[2]!.result.structuredContent.workspace as Json).id, ws.workspaceId);
  });

  test('stdio › parley mcp with an invalid token exits non-zero with a one-line error', async () => {
    const result = await runCli(server, 'mcp', '--token', 'parley_not-a-token');
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    const lines = stderrLines(result);
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, /^parley: .*\(unauthorized\)$/);
  });
});
