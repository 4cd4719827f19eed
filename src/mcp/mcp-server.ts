import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../access/principal.js';
import { can } from '../access/roles.js';
import { scopeAllows } from '../http/types.js';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.js';
import type { RestClient } from './rest-client.js';
import { callTool } from './tool-call.js';
import type { RestOperation } from './operations.js';
import type { ToolDefinition } from './tools.js';
import { PARLEY_VERSION } from '../shared/version.js';

const INSTRUCTIONS = `Parley is a WhatsApp messaging workspace: contacts with tags, approved message templates, drip sequences, chatbot flows and campaigns. Every tool acts on the one workspace of your token (get_me shows it).
Messaging rules: free-form text (send_text_message) is only allowed within 24 hours of the contact's latest inbound message; otherwise send an APPROVED template (send_template_message). Read a conversation with list_messages before answering.
Lists come in pages: when a result has a non-null next_cursor, call the same tool again with cursor = next_cursor for more.
A failed call returns a problem document with a stable \`code\` and, for invalid input, \`errors\` naming each field: fix the input and retry. On rate_limited or poll_too_frequent wait retry_after seconds.
Tools that message a customer are marked open-world and destructive (a message cannot be taken back). If get_me shows token.mode "approval", your sends do not go out at once: they answer status "awaiting_approval" with a held send id, and a person approves, edits or rejects each one; give each send a short \`reasoning\` for that person, and follow it with get_held_send.`;

/** Who the tools act as: the token's scope and its creator's role, as they are now. */
export type ToolCaller = Pick<Principal, 'role' | 'scope'>;

/** Whether the caller may call an operation: the token's scope allows its access, the role its permission. */
export function offers(caller: ToolCaller, operation: Pick<RestOperation, 'access' | 'permission'>): boolean {
  return (
    scopeAllows(caller.scope, operation.access) && (!operation.permission || can(caller.role, operation.permission))
  );
}

/**
 * An MCP server whose tools and resources call the REST API as one token. tools/list offers only
 * the tools the token may call (`offers`: a read-only token sees only the read tools, a role only what
 * it allows); calling another is refused by its route, with the same problem document as over REST
 * (insufficient_scope, permission_denied) as a tool error.
 */
export function createMcpServer(
  tools: ToolDefinition[],
  rest: RestClient,
  callerNow: () => Promise<ToolCaller>,
): Server {
  const server = new Server(
    { name: 'parley', title: 'Parley', version: PARLEY_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((definition) => [definition.tool.name, definition]));

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const caller = await callerNow();
    const allowed = tools.filter(({ operation }) => offers(caller, operation));
    return { tools: allowed.map((definition) => definition.tool) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const definition = byName.get(request.params.name);
    if (!definition) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    return callTool(rest, definition, request.params.arguments ?? {});
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(rest) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(rest, request.params.uri));
  return server;
}
