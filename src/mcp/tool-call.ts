import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RestClient } from './rest-client.js';
import type { ToolDefinition } from './tools.js';

/**
 * Runs a tool as its REST operation. Success: the response as structuredContent (a list wrapped
 * as `{ data }`) plus the same JSON as text. A refused request (4xx) is a tool error carrying the
 * problem document, so the model can read its `code` and `errors` and correct the call.
 */
export async function callTool(
  rest: RestClient,
  definition: ToolDefinition,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const response = await rest.request(
    definition.operation.method,
    pathOf(definition, args),
    toRequest(definition, args),
  );
  if (response.status >= 400) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(response.body) }] };
  }
  const structured = Array.isArray(response.body)
    ? { data: response.body }
    : (response.body as Record<string, unknown>);
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
}

/** The operation's URL with its `:name` path parameters filled from the arguments (validated by the route). */
function pathOf({ operation, pathKeys }: ToolDefinition, args: Record<string, unknown>): string {
  return pathKeys.reduce(
    (url, key) => url.replace(`:${key}`, encodeURIComponent(typeof args[key] === 'string' ? args[key] : '')),
    operation.url,
  );
}

/** Query parameters go in the query string (a list always as a cursor page); path ones in the URL; the rest is the JSON body. */
function toRequest({ queryKeys, pathKeys, paged }: ToolDefinition, args: Record<string, unknown>) {
  const query: Record<string, string> = paged ? { paginate: 'cursor' } : {};
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (pathKeys.includes(key)) continue;
    if (!queryKeys.includes(key)) body[key] = value;
    // Query values are text: a number the model sends for `limit` is written as its digits.
    else if (value !== undefined && value !== null) {
      query[key] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return { query, body };
}
