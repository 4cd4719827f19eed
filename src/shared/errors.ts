import { commonProblems } from './common.problems.js';

/**
 * The small, typed set of errors Parley raises. Each carries an HTTP status and a stable
 * machine-readable code; `http/problem.ts` serialises them as RFC 9457 problem details.
 */
export interface FieldError {
  field: string;
  /** In English, for people reading the API's answers. */
  message: string;
  /** The rule the field breaks (`routing.role_without_inbox`), for a client that words it itself (field-problems.ts). */
  code?: string;
  /** The values `message` names, by the placeholder each fills. */
  params?: Record<string, string | number>;
}

/** A send's variables against the template's: ids as `/api/v1/dropdowns/template-variables` lists them. */
export interface VariablesMismatch {
  needed: string[];
  given: number;
  missing: string[];
  unknown: string[];
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

/** What `parse` returns, or null when it refuses the input (an AppError); other errors propagate. */
export function validOrNull<T>(parse: () => T): T | null {
  try {
    return parse();
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** Every error code Parley answers with, its status and title; the OpenAPI document lists them. */
export const ERROR_CODES = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  invalid_json: { status: 400, title: 'The request body is not valid JSON' },
  invalid_cursor: { status: 400, title: 'The cursor is not valid for this request' },
  unauthorized: { status: 401, title: 'Missing or invalid API token' },
  insufficient_scope: { status: 403, title: 'The token may not do this' },
  invalid_credentials: { status: 401, title: 'The email or password is wrong' },
  csrf_token_invalid: { status: 403, title: 'The X-CSRF-Token header is missing or does not match the session' },
  permission_denied: { status: 403, title: 'Your role does not allow this' },
  https_required: { status: 403, title: 'Requests must use HTTPS' },
  not_found: { status: 404, title: 'No such resource' },
  route_not_found: { status: 404, title: 'No such endpoint' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  already_enrolled: { status: 409, title: 'The contact is already in this sequence' },
  idempotency_request_in_progress: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  idempotency_secret_withheld: { status: 409, title: 'Already done; the secret it returned is not shown again' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The request body must be application/json' },
  idempotency_key_reused: { status: 422, title: 'The Idempotency-Key was used with a different request' },
  customer_service_window_closed: { status: 422, title: 'Outside the 24-hour customer service window' },
  contact_opted_out: { status: 422, title: 'The contact opted out of marketing messages' },
  template_not_approved: { status: 422, title: 'The template translation is not approved' },
  template_language_unavailable: { status: 422, title: 'The template has no such translation' },
  template_variables_mismatch: { status: 422, title: 'The variables do not match the template' },
  header_media_required: { status: 422, title: 'The template header needs a media URL' },
  template_not_sendable: { status: 422, title: 'The template uses a component Parley cannot send yet' },
  unknown_phone_number: { status: 422, title: 'The workspace has no channel with this phone number id' },
  template_refused: { status: 422, title: 'Meta refused the template' },
  webhook_signature_invalid: { status: 401, title: 'The webhook signature does not match' },
  // Meta's codes for a WhatsApp Flows data endpoint ("Business Endpoint Error Codes"): 421 makes the
  // client fetch the number's public key again and retry; 432 is a request whose signature fails.
  flows_request_undecryptable: { status: 421, title: "The request cannot be decrypted with the number's key" },
  flows_signature_invalid: { status: 432, title: 'The request signature does not match' },
  flows_business_endpoint_failed: { status: 502, title: "The business's endpoint did not answer the screen" },
  rate_limited: { status: 429, title: 'Too many requests' },
  login_locked: { status: 429, title: 'Too many failed logins; wait before trying again' },
  poll_too_frequent: { status: 429, title: 'Polling faster than the workspace allows' },
  internal_error: { status: 500, title: 'Internal server error' },
  database_unavailable: { status: 503, title: 'The database is not answering; retry shortly' },
  storage_full: { status: 507, title: "The server's disk is full" },
  message_has_no_media: { status: 422, title: 'The message has no media to download' },
  message_not_on_whatsapp: { status: 422, title: 'The message has not reached WhatsApp, so it cannot be quoted' },
  media_not_accepted: { status: 422, title: 'WhatsApp does not accept this file for this kind of media' },
  media_type_mismatch: { status: 422, title: 'The file is not of the MIME type it is declared as' },
  conversation_empty: { status: 422, title: 'The conversation has no messages yet' },
  customer_language_unknown: { status: 422, title: 'Nothing tells which language the customer writes' },
  // The workspace's own AI model (src/ai-models/): not set up, its budget spent, or the endpoint's failure,
  // answered with a gateway's status since the model is a server Parley calls, never a 500.
  ai_model_not_configured: { status: 422, title: 'The workspace has no AI model set up' },
  ai_budget_exhausted: { status: 429, title: 'This month’s AI token budget is spent' },
  ai_model_failed: { status: 502, title: 'The AI model failed to answer' },
  ai_model_rate_limited: { status: 503, title: 'The AI model is rate limiting; retry shortly' },
  ai_model_timeout: { status: 504, title: 'The AI model did not answer in time' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

function make(code: ErrorCode, message: string, fieldErrors: FieldError[] = [], extra = {}): AppError {
  return new AppError(ERROR_CODES[code].status, code, message, fieldErrors, extra);
}

/** Factories for the errors services raise; one place, so codes never drift. */
export const errors = {
  /** A 400 naming each field's problem: a rule of a domain's table (field-problems.ts), or the schema's words. */
  invalid: (...problems: FieldError[]) =>
    make('validation_failed', problems.map((e) => `${e.field}: ${e.message}`).join('; '), problems),
  /** A 400 in words only: for the CLI's and backups' own checks, which no client words itself. */
  validation: (field: string, message: string) =>
    make('validation_failed', `${field}: ${message}`, [{ field, message }]),
  /** A 400 on the cursor: `problem` says why (commonProblems' cursor rules). */
  invalidCursor: (problem: FieldError) => make('invalid_cursor', `${problem.field}: ${problem.message}`, [problem]),
  unauthorized: (message: string) => make('unauthorized', message),
  insufficientScope: (message: string) => make('insufficient_scope', message),
  invalidCredentials: () => make('invalid_credentials', 'The email or password is wrong'),
  csrfTokenInvalid: () =>
    make('csrf_token_invalid', 'Send the session’s CSRF token in the X-CSRF-Token header with every change'),
  permissionDenied: (role: string, permission: string, roles: readonly string[]) =>
    make(
      'permission_denied',
      `The ${role} role does not allow this (${permission}); ask someone who is ${roles.join(' or ')}`,
      [],
      {
        permission,
        roles,
      },
    ),
  loginLocked: (retryAfterSeconds: number) =>
    make('login_locked', `Too many failed logins for this email; try again in ${retryAfterSeconds} s`, [], {
      retry_after: retryAfterSeconds,
    }),
  notFound: (resource: string, field?: string) =>
    make('not_found', `${resource} not found`, field ? [commonProblems.problem(field, 'no_match', { resource })] : [], {
      resource,
    }),
  conflict: (message: string, extra: Record<string, unknown> = {}) => make('conflict', message, [], extra),
  /** Add contact named a phone that is already a contact's: says whose (when known) so the form can link to it. */
  phoneTaken: (holder: { id: string; name: string | null } | null) => {
    const problem = holder?.name
      ? commonProblems.problem('phone', 'phone_taken_by_contact', { name: holder.name })
      : commonProblems.problem('phone', 'phone_taken');
    return make('conflict', `phone: ${problem.message}`, [problem], holder ? { contact_id: holder.id } : {});
  },
  /** The channel (Meta) refused a template submission, edit or deletion; `message` carries its words. */
  templateRefused: (field: string, message: string) => make('template_refused', message, [{ field, message }]),
  /** A 409: the field's value is taken (a name another record has). */
  taken: (problem: FieldError) => make('conflict', `${problem.field}: ${problem.message}`, [problem]),
  /** Says no more: whose number it is, or whether it is connected anywhere, is not the caller's business. */
  numberNotConnectable: () =>
    make('conflict', 'This phone number cannot be connected', [
      commonProblems.problem('phone_number_id', 'number_not_connectable'),
    ]),
  /** A send or campaign named a number that is not one of the workspace's channels. */
  unknownNumber: (field: string, phoneNumberId: string) =>
    make('unknown_phone_number', `${field}: ${phoneNumberId} is not one of this workspace's numbers`, [
      commonProblems.problem(field, 'unknown_number'),
    ]),
  idempotencyInProgress: () =>
    make(
      'idempotency_request_in_progress',
      'A request with this Idempotency-Key is still being processed; retry later',
    ),
  idempotencySecretWithheld: () =>
    make(
      'idempotency_secret_withheld',
      'A request with this Idempotency-Key was already done; its answer carried a secret, which is shown only once and is not stored',
    ),
  idempotencyKeyReused: () =>
    make('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body or endpoint'),
  rateLimited: (retryAfterSeconds: number) =>
    make('rate_limited', `Rate limit exceeded; retry in ${retryAfterSeconds} s`, [], {
      retry_after: retryAfterSeconds,
    }),
  tooManyStreams: (limit: number, retryAfterSeconds: number) =>
    make(
      'rate_limited',
      `This session already has ${limit} live update streams open (one per dashboard tab); close a tab`,
      [],
      { retry_after: retryAfterSeconds },
    ),
  pollTooFrequent: (intervalSeconds: number, retryAfterSeconds: number) =>
    make(
      'poll_too_frequent',
      `This workspace may poll each trigger once every ${intervalSeconds} s; retry in ${retryAfterSeconds} s`,
      [],
      { retry_after: retryAfterSeconds, poll_interval_seconds: intervalSeconds },
    ),
  windowClosed: (closedAt: string | null) =>
    make(
      'customer_service_window_closed',
      closedAt
        ? `The 24-hour customer service window closed at ${closedAt}; send a template message instead`
        : 'The contact has never messaged, so no customer service window is open; send a template message instead',
      [],
      { window_closed_at: closedAt },
    ),
  optedOut: () => make('contact_opted_out', 'The contact opted out of marketing messages'),
  alreadyEnrolled: (enrolmentId: string) =>
    make(
      'already_enrolled',
      'The contact is already enrolled in this sequence; it can be enrolled again once that enrolment ends',
      [],
      { enrolment_id: enrolmentId },
    ),
  templateNotApproved: (language: string, status: string) =>
    make(
      'template_not_approved',
      `The ${language} translation is ${status}; only APPROVED translations can be sent`,
      [commonProblems.problem('language', 'translation_status', { status })],
      { language, template_status: status },
    ),
  templateLanguageUnavailable: (language: string, available: string[]) =>
    make('template_language_unavailable', `The template has no ${language} translation`, [
      commonProblems.problem('language', 'translations_available', { languages: available.join(', ') }),
    ]),
  /** `needed`: every variable id the translation takes; `missing`/`unknown`: what the request got wrong. */
  templateVariablesMismatch: (field: string, mismatch: VariablesMismatch) => {
    const { needed, given, missing, unknown } = mismatch;
    const listed = needed.length > 0 ? ` (${needed.join(', ')})` : '';
    const wrong = [
      ...(missing.length > 0 ? [`missing ${missing.join(', ')}`] : []),
      ...(unknown.length > 0 ? [`unknown ${unknown.join(', ')}`] : []),
    ];
    return make(
      'template_variables_mismatch',
      `${field}: the template expects ${needed.length} value(s)${listed}; ${given} given${wrong.map((w) => `; ${w}`).join('')}`,
      [commonProblems.problem(field, 'variables_count', { expected: needed.length, given })],
      { expected: needed.length, given, needed, missing, unknown },
    );
  },
  templateNotSendable: (capabilities: string[]) =>
    make(
      'template_not_sendable',
      `Parley cannot send this template yet: it needs ${capabilities.join(', ')} support`,
      [commonProblems.problem('template_id', 'template_needs', { capabilities: capabilities.join(', ') })],
      { missing_capabilities: capabilities },
    ),
  headerMediaRequired: (headerType: string) =>
    make('header_media_required', `The template has a ${headerType} header: give its header_media_url`, [
      commonProblems.problem('header_media_url', 'header_media_required'),
    ]),
  /** The database cannot be reached (restarting, failing over, not up yet): nothing was done. */
  databaseUnavailable: (retryAfterSeconds: number) =>
    make(
      'database_unavailable',
      `The database is not answering (restarting or unreachable), so nothing was done; retry in ${retryAfterSeconds} s`,
      [],
      { retry_after: retryAfterSeconds },
    ),
  /** A write found no room on the server's disk (or the database's): nothing was stored. */
  storageFull: () =>
    make(
      'storage_full',
      "The server's disk is full, so nothing was stored; reads still work. Tell the operator to free space, then retry",
    ),
  webhookSignatureInvalid: () =>
    make('webhook_signature_invalid', 'X-Hub-Signature-256 is missing or does not match the body'),
  flowsSignatureInvalid: () =>
    make('flows_signature_invalid', 'X-Hub-Signature-256 is missing or does not match the body'),
  flowsRequestUndecryptable: () =>
    make(
      'flows_request_undecryptable',
      "The request cannot be decrypted with this number's private key: fetch its public key again and retry",
    ),
  flowsBusinessEndpointFailed: () =>
    make(
      'flows_business_endpoint_failed',
      "The business's endpoint did not answer the screen in time (the server's log says why)",
    ),
  messageHasNoMedia: (type: string, reason: string) =>
    make(
      'message_has_no_media',
      `The message has no media to download: ${reason}`,
      [commonProblems.problem('message_id', 'message_without_media')],
      { message_type: type },
    ),
  /** A reply or reaction names a message WhatsApp has no id for (still queued, failed, or simulated away). */
  messageNotOnWhatsapp: (field: string) =>
    make(
      'message_not_on_whatsapp',
      `${field}: the message has no WhatsApp id yet (queued or failed), so WhatsApp cannot show what it refers to`,
      [commonProblems.problem(field, 'message_not_on_whatsapp')],
    ),
  /** A file outside Meta's documented limits for its kind of media (type, size): `problem` says which. */
  mediaNotAccepted: (problem: FieldError, extra: Record<string, unknown>) =>
    make('media_not_accepted', `${problem.field}: ${problem.message}`, [problem], extra),
  /** A file whose bytes are not of its declared MIME type (`detected`: what they are, if known). */
  mediaTypeMismatch: (field: string, declared: string, detected: string | null, reason: string) =>
    make(
      'media_type_mismatch',
      `${field}: declared as ${declared}, but ${reason}`,
      [commonProblems.problem(field, 'not_declared_type', { mime_type: declared })],
      { declared_mime_type: declared, detected_mime_type: detected },
    ),
  /** An AI action on a conversation with nothing in it yet to read. */
  conversationEmpty: () => make('conversation_empty', 'The conversation has no messages yet: there is nothing to read'),
  /** A translation into the customer's language when they never wrote and their contact names no language. */
  customerLanguageUnknown: () =>
    make(
      'customer_language_unknown',
      'The customer has not written yet and their contact has no `language` attribute, so their language is unknown',
    ),
  /** The workspace's AI model is off or not set up: says who turns it on, and where. */
  aiModelNotConfigured: () =>
    make(
      'ai_model_not_configured',
      'The workspace has no AI model set up: an owner or admin sets one up in Settings → AI model (save-ai-settings)',
    ),
  /** The month's token budget is spent: calls are refused until the month (UTC) turns. */
  aiBudgetExhausted: (detail: string, retryAfterSeconds: number) =>
    make(
      'ai_budget_exhausted',
      `The AI model was not asked: ${detail}; an owner or admin can raise the budget in Settings → AI model`,
      [],
      {
        retry_after: retryAfterSeconds,
      },
    ),
  aiModelFailed: (detail: string) => make('ai_model_failed', `The AI model gave no answer: ${detail}`),
  aiModelRateLimited: (detail: string, retryAfterSeconds: number) =>
    make('ai_model_rate_limited', `The AI model gave no answer: ${detail}`, [], { retry_after: retryAfterSeconds }),
  aiModelTimeout: (detail: string) => make('ai_model_timeout', `The AI model gave no answer: ${detail}`),
};
