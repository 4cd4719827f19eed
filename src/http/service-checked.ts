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
/** A compiled validator as Fastify calls it: ajv's, which leaves a failed check's problems on `errors`. */
interface Validate {
  (data: unknown): boolean;
  errors?: unknown;
}
type CompileRouteSchema = (route: RouteSchema) => Validate;

/**
 * One server's validator builder: Fastify's own validators (ajv), compiled with every service-checked part
 * of a request schema left open, each at its route's first request (as the serializers, lazy-serializers.ts:
 * compiling every route's schemas was most of a start's CPU; a schema ajv cannot compile fails that route's
 * first request, and the route tests request every route). Fastify asks again for a compiler for each route
 * of a plugin that added schemas: the ajv built for the same shared schemas (the same objects) is reused,
 * where a new one would compile its meta-schema and every shared schema again, ~200 times a start.
 */
export function serviceCheckedValidators(): BuildValidator {
  const compilers = new Map<string, CompileRouteSchema>();
  // Fastify hands over a fresh copy of the shared schemas each time: they are told apart by their objects.
  const schemaIds = new WeakMap<object, number>();
  let schemasSeen = 0;
  const identity = (schema: object) => schemaIds.get(schema) ?? schemaIds.set(schema, ++schemasSeen).get(schema);
  const compilerFor = (externalSchemas: Record<string, object>, options: never) => {
    const key = Object.entries(externalSchemas)
      .map(([id, schema]) => `${id}#${identity(schema)}`)
      .join();
    let compiler = compilers.get(key);
    if (!compiler) compilers.set(key, (compiler = AjvCompiler()(externalSchemas, options) as CompileRouteSchema));
    return compiler;
  };
  return ((externalSchemas: Record<string, object>, options: never) => (route: RouteSchema) => {
    let compiled: Validate | null = null;
    const validate: Validate = (data) => {
      compiled ??= compilerFor(externalSchemas, options)({ ...route, schema: withoutServiceChecked(route.schema) });
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    };
    return validate;
  }) as unknown as BuildValidator;
}

/** The schema with each service-checked part open (`{}`); the same object when it has none. */
function withoutServiceChecked(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if ((schema as Record<string, unknown>)[SERVICE_CHECKED] === true) return {};
  const entries = Object.entries(schema);
  const opened = entries.map(([key, value]) => [key, withoutServiceChecked(value)] as const);
  if (opened.every(([, value], i) => value === entries[i]![1])) return schema;
  return Array.isArray(schema) ? opened.map(([, value]) => value) : Object.fromEntries(opened);
}
