/**
 * The small, typed set of errors Parley raises. Each carries an HTTP status and a stable
 * machine-readable code; `http/problem.ts` serialises them as RFC 9457 problem details.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Every error code Parley answers with, its status and title; the OpenAPI document lists them. */
export const ERROR_CODES = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  invalid_json: { status: 400, title: 'The request body is not valid JSON' },
  unauthorized: { status: 401, title: 'Missing or invalid API token' },
  insufficient_scope: { status: 403, title: 'The token may not do this' },
  https_required: { status: 403, title: 'Requests must use HTTPS' },
  not_found: { status: 404, title: 'No such resource' },
  route_not_found: { status: 404, title: 'No such endpoint' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  idempotency_request_in_progress: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The request body must be application/json' },
  idempotency_key_reused: { status: 422, title: 'The Idempotency-Key was used with a different request' },
  rate_limited: { status: 429, title: 'Too many requests' },
  poll_too_frequent: { status: 429, title: 'Polling faster than the workspace allows' },
  internal_error: { status: 500, title: 'Internal server error' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

function make(code: ErrorCode, message: string, fieldErrors: FieldError[] = [], extra = {}): AppError {
  return new AppError(ERROR_CODES[code].status, code, message, fieldErrors, extra);
}

/** Factories for the errors services raise; one place, so codes never drift. */
export const errors = {
  validation: (field: string, message: string) =>
    make('validation_failed', `${field}: ${message}`, [{ field, message }]),
  validationMany: (fieldErrors: FieldError[]) =>
    make('validation_failed', fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; '), fieldErrors),
  unauthorized: (message: string) => make('unauthorized', message),
  insufficientScope: (message: string) => make('insufficient_scope', message),
  notFound: (resource: string, field?: string) =>
    make('not_found', `${resource} not found`, field ? [{ field, message: `no ${resource} matches` }] : [], {
      resource,
    }),
  conflict: (message: string, extra: Record<string, unknown> = {}) => make('conflict', message, [], extra),
  idempotencyInProgress: () =>
    make(
      'idempotency_request_in_progress',
      'A request with this Idempotency-Key is still being processed; retry later',
    ),
  idempotencyKeyReused: () =>
    make('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body or endpoint'),
  rateLimited: (retryAfterSeconds: number) =>
    make('rate_limited', `Rate limit exceeded; retry in ${retryAfterSeconds} s`, [], {
      retry_after: retryAfterSeconds,
    }),
  pollTooFrequent: (intervalSeconds: number, retryAfterSeconds: number) =>
    make(
      'poll_too_frequent',
      `This workspace may poll each trigger once every ${intervalSeconds} s; retry in ${retryAfterSeconds} s`,
      [],
      { retry_after: retryAfterSeconds, poll_interval_seconds: intervalSeconds },
    ),
};
