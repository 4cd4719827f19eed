import type { RouteOptions } from 'fastify';
import type { Permission } from '../access/roles.js';
import type { Access, Api } from '../http/types.js';

/** A JSON Schema as Fastify holds it (TypeBox objects are plain JSON Schema). */
export type JsonSchema = Record<string, unknown>;

/** A documented REST operation, as its route was registered: what a tool is derived from. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface RestOperation {
  operationId: string;
  method: RestMethod;
  /** The full path, e.g. `/api/v1/actions/get-contact`. */
  url: string;
  access: Access;
  /** What the caller's role must grant (none: every role may call it). */
  permission: Permission | undefined;
  summary: string;
  body: JsonSchema | undefined;
  querystring: JsonSchema | undefined;
  /** Path parameters (`/api/v1/conversations/:contact_id`). */
  params: JsonSchema | undefined;
  /** The success response (200, else 201). */
  response: JsonSchema | undefined;
  /** The answer of a send held for a person's approval (202), for the sends that may be held. */
  held: JsonSchema | undefined;
}

const API_V1 = '/api/v1/';
const recorded = new WeakMap<Api, RestOperation[]>();

/**
 * Records every documented /api/v1 operation as its route is registered. Must run before the
 * routes are registered; an onRoute hook sees each route's access level and permission, which
 * the OpenAPI document does not carry.
 */
export function recordOperations(app: Api): void {
  const operations: RestOperation[] = [];
  recorded.set(app, operations);
  app.addHook('onRoute', (route) => {
    const operation = toOperation(route);
    if (operation) operations.push(operation);
  });
}

/** The operations recorded on this server (complete once its routes are registered). */
export function operationsOf(app: Api): RestOperation[] {
  const operations = recorded.get(app);
  if (!operations) throw new Error('recordOperations(app) must run before the routes are registered');
  return operations;
}

function toOperation(route: RouteOptions): RestOperation | null {
  const schema = route.schema as JsonSchema | undefined;
  const method = route.method;
  if (!route.url.startsWith(API_V1) || typeof method !== 'string' || !METHODS.includes(method)) return null;
  if (!schema || typeof schema.operationId !== 'string' || schema.hide || schema.deprecated) return null;
  const responses = (schema.response ?? {}) as Record<string, JsonSchema>;
  return {
    operationId: schema.operationId,
    method: method as RestMethod,
    url: route.url,
    access: route.config?.access ?? 'read',
    permission: route.config?.permission,
    summary: typeof schema.summary === 'string' ? schema.summary : schema.operationId,
    body: schema.body as JsonSchema | undefined,
    querystring: schema.querystring as JsonSchema | undefined,
    params: schema.params as JsonSchema | undefined,
    response: responses['200'] ?? responses['201'],
    held: responses['202'],
  };
}
