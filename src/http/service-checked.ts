import AjvCompiler from '@fastify/ajv-compiler';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyServerOptions } from 'fastify';

/** Marks a part of a request schema that the route documents but its service checks (see checkedByService). */
const SERVICE_CHECKED = 'x-checked-by-service';

/**
 * A request field documented by `schema` (in OpenAPI and in the MCP tools, which read the route's schema)
 * that the route does not validate: its service checks it as a whole, so each problem names its JSON
 * Pointer in the service's words (a flow's dangling edge, an unknown node type), and the request's
 * validator neither refuses it first in other words nor fills in its defaults.
 */
export const checkedByService = (schema: TSchema, description: string) =>
  Type.Unsafe<unknown>({ ...Type.Ref(schema), description, [SERVICE_CHECKED]: true });

type BuildValidator = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];
/** What Fastify hands a validator compiler (@fastify/ajv-compiler's types say a bare schema; its code takes this). */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart: string;
}
type CompileRouteSchema = (route: RouteSchema) => unknown;

/** Fastify's own validators (ajv), compiled with every service-checked part of a request schema left open. */
export const buildValidator = ((externalSchemas: never, options: never) => {
  const compile = AjvCompiler()(externalSchemas, options) as unknown as CompileRouteSchema;
  return (route: RouteSchema) => compile({ ...route, schema: withoutServiceChecked(route.schema) });
}) as unknown as BuildValidator;

/** The schema with each service-checked part open (`{}`); the same object when it has none. */
function withoutServiceChecked(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if ((schema as Record<string, unknown>)[SERVICE_CHECKED] === true) return {};
  const entries = Object.entries(schema);
  const opened = entries.map(([key, value]) => [key, withoutServiceChecked(value)] as const);
  if (opened.every(([, value], i) => value === entries[i]![1])) return schema;
  return Array.isArray(schema) ? opened.map(([, value]) => value) : Object.fromEntries(opened);
}
