import { Type, type Static, type TSchema } from '@sinclair/typebox';

const ERROR_STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid (validation_failed, invalid_json, invalid_cursor)',
  401: 'Missing, malformed, unknown or revoked token (unauthorized)',
  403: 'The token is read-only (insufficient_scope) or the request was not HTTPS',
  404: 'No such resource in this workspace (not_found)',
  409: 'Conflict with the current state (conflict, idempotency_request_in_progress)',
  413: 'The body is larger than 1 MiB (payload_too_large)',
  415: 'The body is not JSON (unsupported_media_type)',
  422: 'The request cannot be carried out (see code)',
  429: 'Rate limit or polling interval exceeded; see Retry-After',
  500: 'Internal error (internal_error)',
};

const problem = (status: number) => Type.Ref('Problem', { description: ERROR_STATUS_DESCRIPTIONS[status] });

/** Error responses of a POST action: the common ones (idempotency adds 409 and 422) plus the given statuses. */
export function actionErrors(...statuses: number[]): Record<number, TSchema> {
  return errorResponses([400, 401, 403, 409, 413, 415, 422, 429, 500, ...statuses]);
}

/** Error responses of a GET route: the common ones plus the given statuses. */
export function readErrors(...statuses: number[]): Record<number, TSchema> {
  return errorResponses([400, 401, 429, 500, ...statuses]);
}

function errorResponses(statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries([...new Set(statuses)].sort().map((s) => [s, problem(s)]));
}

/**
 * A nullable input value, written as OpenAPI 3.1 writes it. The value's description is the field's
 * too, so a reader of the field (a model choosing a tool's arguments) sees it beside the alternatives.
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Union([schema, Type.Null()], schema.description ? { description: schema.description } : {});

/**
 * A nullable response field of a single JSON type, as a type array (`["string", "null"]`).
 * fast-json-stringify writes a type array directly, whereas an `anyOf` costs a schema validation
 * per field and record. TypeBox's Value cannot check this shape, so inputs keep `Nullable`.
 */
export const NullableField = <T extends TSchema & { type: string; enum?: unknown[] }>(schema: T) =>
  Type.Unsafe<Static<T> | null>({
    ...schema,
    type: [schema.type, 'null'],
    ...(schema.enum && { enum: [...schema.enum, null] }),
  });

/**
 * A UUID string in the 8-4-4-4-12 form. The pattern matters for input: ajv's `uuid` format alone
 * also admits a `urn:uuid:` prefix, which PostgreSQL refuses with an error (a 500, not a 400).
 * Ids are case-insensitive and stored lower-case: a request's are lower-cased here, once, as they are
 * validated (`x-lowercase`, see lowercaseKeyword), so no service compares cases.
 */
export const Uuid = (description?: string) =>
  Type.String({
    format: 'uuid',
    pattern: '^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$',
    'x-lowercase': true,
    ...(description && { description }),
  });

/** The ajv keyword behind `x-lowercase`: a string is replaced, in the request, by its lower-case form. */
export const lowercaseKeyword = {
  keyword: 'x-lowercase',
  modifying: true,
  schemaType: 'boolean',
  compile: (enabled: boolean) =>
    function lowercase(
      data: unknown,
      context?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number },
    ) {
      if (enabled && typeof data === 'string' && context?.parentData) {
        context.parentData[context.parentDataProperty] = data.toLowerCase();
      }
      return true;
    },
} as const;

/** `x-lowercase` for input checked without ajv (the CLI checks with TypeBox's Value): the same ids lower-cased. */
export function lowercaseIds(schema: TSchema, value: unknown): unknown {
  if (schema['x-lowercase'] === true && typeof value === 'string') return value.toLowerCase();
  const branches = (schema.anyOf ?? schema.oneOf ?? []) as TSchema[];
  if (branches.length > 0) return branches.reduce((current, branch) => lowercaseIds(branch, current), value);
  if (Array.isArray(value) && schema.items) return value.map((item) => lowercaseIds(schema.items as TSchema, item));
  if (typeof value !== 'object' || value === null || !schema.properties) return value;
  const properties = schema.properties as Record<string, TSchema>;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, properties[key] ? lowercaseIds(properties[key], item) : item]),
  );
}

/** A timestamp in the spec's form (ISO 8601, UTC, `+00:00`). */
export const Timestamp = (description?: string) =>
  Type.String({
    format: 'date-time',
    examples: ['2026-11-22T09:30:00.000+00:00'],
    ...(description && { description }),
  });
