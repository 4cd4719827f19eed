import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../shared/errors.js';
import { principalOf, type Api } from '../http/types.js';
import { createMcpServer } from './mcp-server.js';
import { recordOperations } from './operations.js';
import { inProcessRestClient } from './rest-client.js';
import { toolsOf } from './tools.js';

/**
 * The MCP endpoint: streamable HTTP at POST /mcp, stateless (a new server and transport per
 * request, answering with JSON), authenticated like the API. GET and DELETE, which serve
 * server-initiated streams and sessions, are not offered, so they answer 405 as the MCP
 * specification allows. Registered before the other routes: it records them to derive the tools.
 */
export function registerMcpRoutes(app: Api): void {
  recordOperations(app);
  app.post('/mcp', { config: { access: 'read' }, schema: { hide: true } }, async (request, reply) => {
    const principal = principalOf(request);
    const server = createMcpServer(toolsOf(app), inProcessRestClient(app, bearerTokenOf(request)), () =>
      Promise.resolve(principal),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    handOver(reply);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
}

/** The token the tools call the API with; a dashboard session (no bearer token) may not use MCP. */
function bearerTokenOf(request: FastifyRequest): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1]) throw errors.unauthorized('Send the API token as "Authorization: Bearer <token>"');
  return match[1];
}

/** The transport writes the response itself; the headers the hooks set (request id, rate limit) go with it. */
function handOver(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  reply.hijack();
}
