/** Parley's one error shape (RFC 9457 problem details), as every endpoint answers a 4xx/5xx. */
export interface Problem {
  status: number;
  code: string;
  title: string;
  detail?: string;
  errors?: { field: string; message: string }[];
  retry_after?: number;
  /** The contact that already has the phone (Add contact's 409). */
  contact_id?: string;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }

  /** The message for one field, for showing beside its input. */
  fieldMessage(field: string): string | undefined {
    const message = this.problem.errors?.find((e) => sameField(e.field, field))?.message;
    return message === undefined ? undefined : plainMessage(message);
  }

  /**
   * The same error without the problems at or under these fields (`translations.0` takes
   * `translations.0.body` with it), or null when no problem is left: a field's problem goes as soon
   * as the field changes. An error that names no field stays as it is.
   */
  withoutChanged(fields: string[]): ApiError | null {
    const all = this.problem.errors ?? [];
    if (all.length === 0) return this;
    const changed = fields.map(dotted);
    const rest = all.filter((e) => !changed.some((field) => isUnder(dotted(e.field), field)));
    if (rest.length === all.length) return this;
    return rest.length > 0 ? new ApiError({ ...this.problem, errors: rest }) : null;
  }

  /** The same error without the problems of these fields (a form shows those beside their inputs). */
  without(fields: string[]): ApiError | null {
    const rest = this.problem.errors?.filter((e) => !fields.some((field) => sameField(e.field, field))) ?? [];
    return rest.length > 0 ? new ApiError({ ...this.problem, errors: rest }) : null;
  }
}

/** Problems name fields as `name` or as a JSON Pointer (`/name`). */
const sameField = (named: string, field: string) => named === field || named === `/${field}`;
/** A field's path in one form: `/steps/0/delay` and `steps.0.delay` are both `steps.0.delay`. */
const dotted = (field: string) => field.replace(/^\//, '').replaceAll('/', '.');
const isUnder = (path: string, field: string) => path === field || path.startsWith(`${field}.`);

let csrfToken = '';
/** The session's CSRF token, sent with every change (the session endpoint hands it out). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token ?? '';
}

/** Called when a request finds the session gone (expired, or logged out in another tab). */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/**
 * Calls Parley's API with the session cookie: the dashboard uses the same REST API integrations do
 * (plus a few dashboard-only endpoints), so what staff see is what integrations get.
 */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const problem = (parsed ?? { status: response.status, code: 'http_error', title: response.statusText }) as Problem;
    if (response.status === 401 && !path.startsWith('/api/dashboard/login')) onSignedOut();
    throw new ApiError(problem);
  }
  return parsed as T;
}

/** POST /api/v1/actions/NAME — the spec's actions, as integrations call them. */
export const action = <T>(name: string, body: object = {}) => api<T>('POST', `/api/v1/actions/${name}`, body);

/** The dashboard's own endpoints (sessions, tokens, settings, inbox…). */
export const dashboard = {
  get: <T>(path: string) => api<T>('GET', `/api/dashboard/${path}`),
  post: <T>(path: string, body: object = {}) => api<T>('POST', `/api/dashboard/${path}`, body),
  put: <T>(path: string, body: object = {}) => api<T>('PUT', `/api/dashboard/${path}`, body),
  delete: <T>(path: string) => api<T>('DELETE', `/api/dashboard/${path}`),
};

/** The labels a form shows, by the API field each one fills (`{ from: 'Phone' }`). */
export type FieldLabels = Record<string, string>;

/** Patterns the API's schemas use, said in words (the schema's own regex means nothing to people). */
const PATTERN_WORDS: Record<string, string> = {
  '^[a-z0-9_]+$': 'may use only lower-case letters, digits and underscores (_)',
  '^[A-Za-z0-9_]+$': 'may use only letters, digits and underscores (_)',
  '^[A-Za-z0-9_-]+$': 'may use only letters, digits, hyphens (-) and underscores (_)',
};
const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an email address',
  uri: 'must be a web address such as https://example.com',
  url: 'must be a web address such as https://example.com',
  'date-time': 'must be a date and time',
  date: 'must be a date',
  uuid: 'is not a valid id',
};
const TYPE_WORDS: Record<string, string> = {
  string: 'must be text',
  integer: 'must be a whole number',
  number: 'must be a number',
  boolean: 'must be yes or no',
  array: 'must be a list',
  object: 'is not filled in correctly',
};

/** A schema validator's phrasing ("must NOT have fewer than 1 characters") rewritten for people. */
export function plainMessage(message: string): string {
  const rules: [RegExp, (...groups: string[]) => string][] = [
    [/^must match pattern "(.*)"$/, (p) => PATTERN_WORDS[p] ?? 'contains characters that are not allowed here'],
    [/^must match format "(.*)"$/, (f) => FORMAT_WORDS[f] ?? 'is not in the expected form'],
    [/^must NOT have fewer than 1 (characters|items)$/, () => 'is required'],
    [/^must NOT have fewer than (\d+) characters$/, (n) => `must be at least ${n} characters`],
    [/^must NOT have more than (\d+) characters$/, (n) => `must be at most ${n} characters`],
    [/^must NOT have fewer than (\d+) items$/, (n) => `needs at least ${n}`],
    [/^must NOT have more than (\d+) items$/, (n) => `takes at most ${n}`],
    [/^must have required property '.*'$/, () => 'is required'],
    [/^must be (string|integer|number|boolean|array|object)$/, (t) => TYPE_WORDS[t]!],
    [/^must be (>=|>) (\S+)$/, (op, n) => `must be ${op === '>=' ? 'at least' : 'more than'} ${n}`],
    [/^must be (<=|<) (\S+)$/, (op, n) => `must be ${op === '<=' ? 'at most' : 'less than'} ${n}`],
    [/^must be equal to one of the allowed values$/, () => 'must be one of the choices offered'],
    [/^must NOT have additional properties$/, () => 'has a value this form does not send'],
    // The forms ask for a duration as a number and a unit, so the only wrong one is nothing at all.
    [/^must be an ISO 8601 duration greater than zero/, () => 'must be more than zero'],
  ];
  for (const [pattern, words] of rules) {
    const found = pattern.exec(message);
    if (found) return words(...found.slice(1));
  }
  return message;
}

/** The field a problem names, as the form labels it; a field the form has no label for is not named. */
function problemSentence(problem: { field: string; message: string }, labels: FieldLabels): string {
  const field = problem.field.replace(/^\//, '').replaceAll('/', '.');
  const message = plainMessage(problem.message);
  const label = labels[field] ?? labels[field.split('.')[0]!];
  if (label) return `${label} ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** Every problem of an error as a sentence for people, each field named by its label. */
export function sentencesOf(error: unknown, labels: FieldLabels = {}): string[] {
  if (error instanceof ApiError) {
    const sentences = error.problem.errors?.map((e) => problemSentence(e, labels)) ?? [];
    return sentences.length > 0 ? [...new Set(sentences)] : [error.message];
  }
  return [error instanceof Error ? error.message : String(error)];
}

/** A human sentence for any thrown value. */
export function messageOf(error: unknown, labels: FieldLabels = {}): string {
  return sentencesOf(error, labels).join(' ');
}

/** The session's CSRF token, for requests made without `api` (an upload with progress events). */
export const currentCsrfToken = (): string => csrfToken;
