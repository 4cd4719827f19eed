import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Api } from '../http/types.js';
import { selfContained } from './json-schema.js';
import { operationsOf, type JsonSchema, type RestOperation } from './operations.js';
import { TOOL_DESCRIPTIONS } from './tool-descriptions.js';
import { deriveHints } from './tool-hints.js';

/** A REST operation offered as an MCP tool, with how its arguments map back onto the request. */
export interface ToolDefinition {
  tool: Tool;
  operation: RestOperation;
  /** Arguments sent in the query string; the others form the JSON body. */
  queryKeys: string[];
  /** Arguments that fill the path's parameters (`:contact_id`). */
  pathKeys: string[];
  /** A list that is always fetched as a cursor page (`paginate=cursor`). */
  paged: boolean;
}

/**
 * Operations that are not tools: download-media stores a file on the server's disk, useless to a
 * remote agent; the template pick-lists repeat list_templates and get_template in a poorer form;
 * webhook subscriptions are an operator's integration plumbing, and creating one answers with its
 * signing secret, which must not end up in a model's transcript; so does setting a number's WhatsApp
 * Flows business endpoint.
 */
export const EXCLUDED_OPERATIONS = new Set([
  'downloadMedia',
  'dropdownTemplates',
  'dropdownTemplateVariables',
  'createWebhook',
  'listWebhooks',
  'updateWebhook',
  'deleteWebhook',
  'listWebhookDeliveries',
  'replayWebhookDelivery',
  'setFlowsBusinessEndpoint',
]);

/** The query parameter that switches a list to cursor pages; the tools always set it. */
const PAGINATE = 'paginate';

/** `searchContacts` → `search_contacts`. */
export function toolName(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

const derived = new WeakMap<Api, ToolDefinition[]>();

/** The tools of this server, derived from its routes once they are all registered. */
export function toolsOf(app: Api): ToolDefinition[] {
  let tools = derived.get(app);
  if (!tools) {
    tools = deriveTools(operationsOf(app), app.getSchemas());
    derived.set(app, tools);
  }
  return tools;
}

/** One tool per documented operation (minus the excluded), with self-contained schemas. */
export function deriveTools(operations: RestOperation[], shared: Record<string, unknown>): ToolDefinition[] {
  return operations
    .filter((operation) => !EXCLUDED_OPERATIONS.has(operation.operationId))
    .map((operation) => deriveTool(operation, shared));
}

function deriveTool(operation: RestOperation, shared: Record<string, unknown>): ToolDefinition {
  const resolve = (schema: JsonSchema | undefined) => (schema ? selfContained(schema, shared) : undefined);
  const { inputSchema, queryKeys, pathKeys, paged } = toolInput(
    operation,
    resolve(operation.body),
    resolve(operation.querystring),
    resolve(operation.params),
  );
  const outputSchema = toolOutput(resolve(operation.response), resolve(operation.held), paged);
  const tool: Tool = {
    name: toolName(operation.operationId),
    title: operation.summary,
    description: TOOL_DESCRIPTIONS[operation.operationId] ?? operation.summary,
    inputSchema,
    ...(outputSchema && { outputSchema }),
    annotations: { title: operation.summary, ...deriveHints(operation) },
  };
  return { tool, operation, queryKeys, pathKeys, paged };
}

/** The body's, the query string's and the path's properties as one object schema (without `paginate`). */
function toolInput(
  operation: RestOperation,
  body: JsonSchema | undefined,
  query: JsonSchema | undefined,
  params: JsonSchema | undefined,
) {
  const queryProperties = { ...(query?.properties as Record<string, JsonSchema> | undefined) };
  const paged = PAGINATE in queryProperties;
  delete queryProperties[PAGINATE];
  const pathProperties = (params?.properties ?? {}) as Record<string, JsonSchema>;
  const bodyProperties = (body?.properties ?? {}) as Record<string, JsonSchema>;
  const keys = [...Object.keys(queryProperties), ...Object.keys(pathProperties), ...Object.keys(bodyProperties)];
  const clash = keys.find((key, index) => keys.indexOf(key) !== index);
  if (clash) throw new Error(`${operation.operationId}: "${clash}" is named twice among body, query and path`);
  const required = [
    ...((body?.required as string[]) ?? []),
    ...((query?.required as string[]) ?? []),
    ...Object.keys(pathProperties),
  ];
  const inputSchema: Tool['inputSchema'] = {
    ...body,
    type: 'object',
    properties: { ...bodyProperties, ...queryProperties, ...pathProperties },
    ...(required.length > 0 && { required }),
  };
  return { inputSchema, queryKeys: Object.keys(queryProperties), pathKeys: Object.keys(pathProperties), paged };
}

/**
 * What structuredContent holds: an object response as it is, a list wrapped as `{ data }`, and a
 * cursor page as the route documents it (the `{ data, next_cursor }` variant of its response). A send
 * that may be held for approval answers either the message or the held send.
 */
function toolOutput(
  response: JsonSchema | undefined,
  held: JsonSchema | undefined,
  paged: boolean,
): Tool['outputSchema'] {
  if (!response) return undefined;
  if (held) return { type: 'object', anyOf: [response, held] };
  if (paged) {
    const variants = (response.anyOf ?? response.oneOf ?? []) as JsonSchema[];
    return variants.find(
      (variant) => (variant.properties as JsonSchema | undefined)?.next_cursor,
    ) as Tool['outputSchema'];
  }
  if (response.type === 'array') return { type: 'object', properties: { data: response }, required: ['data'] };
  if (response.type === 'object') return response as Tool['outputSchema'];
  return undefined;
}
