import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, isStorageFull } from '../db/outage.js';
import { AppError, ERROR_CODES, errors, type ErrorCode, type FieldError } from '../shared/errors.js';
import type { Api } from './types.js';

/** One field's problem, as a problem document's `errors` (and a flow draft's `problems`) list it. */
export const FieldProblemSchema = Type.Object({
  field: Type.String(),
  message: Type.String({ description: 'What is wrong with the field, in English' }),
  code: Type.Optional(
    Type.String({
      description:
        'The rule Parley’s own checks found broken (`area.rule`, e.g. `routing.not_team_member`), stable across releases, for a client that words problems itself; absent where the request’s shape is wrong',
    }),
  ),
  params: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
      description: 'The values the message names, by name',
    }),
  ),
});

/** RFC 9457 problem details with a stable `code`: the one error shape of every endpoint. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'URI naming the problem type: `urn:parley:problem:<code>`' }),
    title: Type.String({ description: 'Short summary of the problem type' }),
    status: Type.Integer({ description: 'The HTTP status code' }),
    detail: Type.String({ description: 'Explanation of this occurrence' }),
    // One string enum (not a union of literals), so generated clients get a plain enum type.
    code: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: 'Stable machine-readable error code',
    }),
    instance: Type.String({ description: 'The request path' }),
    request_id: Type.String({ description: 'Quote this when reporting a problem' }),
    errors: Type.Optional(Type.Array(FieldProblemSchema, { description: 'The offending fields (validation errors)' })),
    retry_after: Type.Optional(Type.Integer({ description: 'Seconds to wait (429, 503)' })),
    campaign_status: Type.Optional(
      Type.String({ description: 'The campaign’s status when cancel-campaign refuses it (409)' }),
    ),
    run_status: Type.Optional(
      Type.String({ description: 'The flow run’s status when stop-flow-run finds it already ended (409)' }),
    ),
    enrolment_status: Type.Optional(
      Type.String({ description: 'The enrolment’s status when stop-sequence-enrolment finds it already ended (409)' }),
    ),
  },
  { $id: 'Problem', additionalProperties: true, description: 'An error (RFC 9457 problem details)' },
);

/** The media type of every error response (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An AppError as the problem document that describes it. */
export function problemDocument(request: FastifyRequest, error: AppError) {
  return {
    // First, so an error's extra members can never replace the standard ones (status stays the HTTP status).
    ...error.extra,
    type: `urn:parley:problem:${error.code}`,
    title: ERROR_CODES[error.code as keyof typeof ERROR_CODES]?.title ?? error.code,
    status: error.status,
    detail: error.message,
    code: error.code,
    instance: request.url.split('?')[0],
    request_id: String(request.id),
    ...(error.fieldErrors.length > 0 && { errors: error.fieldErrors }),
  };
}

/** Writes an AppError as a problem document. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const retryAfter = error.extra.retry_after;
  if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
  if (error.status === 401) void reply.header('www-authenticate', 'Bearer realm="parley"');
  const body = problemDocument(request, error);
  return reply.code(error.status).type(PROBLEM_CONTENT_TYPE).serializer(JSON.stringify).send(body);
}

/** What a 503 database_unavailable tells the client to wait: a restart or failover takes seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Maps anything thrown during a request to an AppError; unknown errors become a logged 500. */
export function toAppError(error: FastifyError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) return errors.invalid(...error.validation.map((v) => validationField(v, error)));
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'The request body exceeds the size limit');
    case 'FST_ERR_BAD_URL':
      return new AppError(400, 'validation_failed', 'The URL path is not valid: a %-escape in it is not UTF-8 text');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(400, 'validation_failed', 'The URL path is not valid: a part of it is too long');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'invalid_json', 'The request body is not valid JSON');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new AppError(400, 'invalid_json', 'The request body is not valid JSON');
  }
  // The database's pool logs an outage once (db/outage.ts); each request answers it with a retry.
  if (isDatabaseUnavailable(error)) return errors.databaseUnavailable(DATABASE_RETRY_AFTER_SECONDS);
  if (isStorageFull(error)) {
    request.log.error({ err: error }, 'the disk is full: a write was refused (507 storage_full)');
    return errors.storageFull();
  }
  request.log.error({ err: error }, 'unhandled error');
  return new AppError(500, 'internal_error', 'Something went wrong on our side; the request id identifies it');
}

interface AjvError {
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function validationField(v: AjvError, error: FastifyError): FieldError {
  const base = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = typeof v.params.missingProperty === 'string' ? v.params.missingProperty : null;
  const field = missing ? (base ? `${base}.${missing}` : missing) : base || (error.validationContext ?? 'body');
  return { field, message: v.message ?? 'is not valid' };
}

/** Methods a path may be registered with; a wrong one on a known path is a 405, not a 404. */
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** What the router refuses before any route runs (a malformed URL path) answers with a problem document too. */
export function frameworkErrorProblem(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('x-request-id', request.id); // no hook runs for these, the one that sets it included
  void sendProblem(request, reply, toAppError(error, request));
}

/** Every error, and every unknown route or method, answers with a problem document. */
export function registerErrorHandling(app: Api): void {
  app.setErrorHandler((error, request, reply) =>
    sendProblem(request, reply, toAppError(error as FastifyError, request)),
  );
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = ROUTE_METHODS.filter((method) => app.hasRoute({ method, url: path }));
    if (allowed.length === 0) {
      return sendProblem(request, reply, new AppError(404, 'route_not_found', `No endpoint ${request.method} ${path}`));
    }
    void reply.header('allow', allowed.join(', '));
    const message = `${path} does not accept ${request.method}; use ${allowed.join(' or ')}`;
    return sendProblem(request, reply, new AppError(405, 'method_not_allowed', message));
  });
}
