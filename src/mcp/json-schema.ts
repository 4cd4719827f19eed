import type { JsonSchema } from './operations.js';

/**
 * A copy of `schema` that stands on its own: every `$ref` to a shared schema (registered with
 * addSchema, referenced by `$id`) is replaced by that schema, and `$id`s are dropped, so a client
 * can compile each tool's schema separately. Shared schemas are not recursive; a cycle throws.
 */
export function selfContained(schema: JsonSchema, shared: Record<string, unknown>): JsonSchema {
  return inline(schema, shared, []) as JsonSchema;
}

function inline(value: unknown, shared: Record<string, unknown>, resolving: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => inline(item, shared, resolving));
  if (value === null || typeof value !== 'object') return value;
  const { $ref, ...rest } = value as Record<string, unknown>;
  delete rest.$id;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, inline(item, shared, resolving)]));
  if (typeof $ref !== 'string') return copy;
  const id = $ref.replace(/#$/, '');
  if (resolving.includes(id)) throw new Error(`schema ${id} refers to itself; tools need finite schemas`);
  if (!(id in shared)) throw new Error(`unknown schema reference ${$ref}`);
  // Keywords beside the $ref (e.g. a description) override the referenced schema's.
  return { ...(inline(shared[id], shared, [...resolving, id]) as object), ...copy };
}
