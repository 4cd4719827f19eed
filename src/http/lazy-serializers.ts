import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled at its route's first answer
 * instead of all at start: compiling every route's schemas was the largest part of a start's CPU (about
 * 1.25 s of 3.5 s), and most routes are not called in a process's first seconds. The serializers are the
 * same; a schema fast-json-stringify cannot compile fails that route's first answer rather than the
 * start (the OpenAPI and route tests answer through every route).
 */
export const buildLazySerializer: SerializerFactory = (externalSchemas, options) => {
  const compileNow = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | null = null;
    return (doc) => (serialize ??= compileNow(route))(doc);
  };
};
