import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/**
 * For tests: serializers that fail an answer of the chosen routes when the response schema would
 * drop or change one of its values. fast-json-stringify writes only the properties a schema names
 * and coerces values to the schema's types, so an incomplete schema would otherwise go unnoticed
 * until a page shows a blank; with this, every test that calls the route finds it as a 500.
 */
export function checkedSerializers(factory: SerializerFactory, checks: (url: string) => boolean): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      const serialize = compile(route);
      if (!checks(route.url)) return serialize;
      return (doc) => {
        const text = serialize(doc);
        const lost = firstDifference(JSON.parse(JSON.stringify(doc)), JSON.parse(text));
        if (lost !== null) {
          throw new Error(
            `${route.method} ${route.url} ${route.httpStatus}: the response schema drops or changes ${lost}`,
          );
        }
        return text;
      };
    };
  };
}

/** The JSON Pointer of the first value of `sent` that `kept` lacks or holds differently, or null. */
function firstDifference(sent: unknown, kept: unknown, at = ''): string | null {
  if (typeof sent !== 'object' || sent === null) return sent === kept ? null : at || '/';
  if (typeof kept !== 'object' || kept === null || Array.isArray(sent) !== Array.isArray(kept)) return at || '/';
  const keptEntries = kept as Record<string, unknown>;
  for (const [key, value] of Object.entries(sent)) {
    if (!(key in keptEntries)) return `${at}/${key}`;
    const inner = firstDifference(value, keptEntries[key], `${at}/${key}`);
    if (inner !== null) return inner;
  }
  return null;
}
