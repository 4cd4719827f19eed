import errorsCatalog from './locales/en/errors.json';
import i18next from 'i18next';
import { currentLanguage, t } from './i18n/i18n';
import { formatNumber } from './i18n/format';

/** Parley's one error shape (RFC 9457 problem details), as every endpoint answers a 4xx/5xx. */
export interface Problem {
  status: number;
  code: string;
  title: string;
  detail?: string;
  errors?: FieldProblem[];
  retry_after?: number;
  /** The contact that already has the phone (Add contact's 409). */
  contact_id?: string;
}

/** One field's problem: the API's English `message`; Parley's own rules add a `code` and the values it names. */
export interface FieldProblem {
  field: string;
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }

  /** The message for one field, for showing beside its input. */
  fieldMessage(field: string): string | undefined {
    const problem = this.problem.errors?.find((e) => sameField(e.field, field));
    return problem === undefined ? undefined : problemWords(problem);
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

/**
 * The problems a form finds before asking the server, in the server's shape, so they are shown as the
 * server's are: each beside its field, named by the field's label (`message` already in the person's words).
 */
export function formProblems(errors: FieldProblem[], title = t('errors:codes.validation_failed')): ApiError {
  return new ApiError({ status: 400, code: 'validation_failed', title, errors });
}

/** One field's problem found before asking the server (formProblems). */
export const formProblem = (field: string, message: string, title?: string): ApiError =>
  formProblems([{ field, message }], title);

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

/** The labels a form shows, by the API field each one fills (`{ from: 'Phone' }`). */
export type FieldLabels = Record<string, string>;

/**
 * How the API's field problems read for people, in the person's language: each rule turns the API's own
 * English phrasing (a schema validator's "must NOT have fewer than 1 characters", or a rule's "is
 * required") into a catalog message. The API's text stays English for integrations; a message no rule
 * knows is shown as the API wrote it.
 */
type Rule = [RegExp, (...groups: string[]) => string];
const SCHEMA_RULES: Rule[] = [
  [/^must match pattern "(.*)"$/, (pattern) => PATTERN_WORDS[pattern]?.() ?? t('errors:field.notAllowedCharacters')],
  [/^must match format "(.*)"$/, (format) => FORMAT_WORDS[format]?.() ?? t('errors:field.notExpectedForm')],
  [/^must NOT have fewer than 1 (characters|items)$/, () => t('errors:field.required')],
  [/^must NOT have fewer than (\d+) characters$/, (n) => t('errors:field.minCharacters', { count: Number(n) })],
  [/^must NOT have more than (\d+) characters$/, (n) => t('errors:field.maxCharacters', { count: Number(n) })],
  [/^must NOT have fewer than (\d+) items$/, (n) => t('errors:field.minItems', { count: Number(n) })],
  [/^must NOT have more than (\d+) items$/, (n) => t('errors:field.maxItems', { count: Number(n) })],
  [/^must have required property '.*'$/, () => t('errors:field.required')],
  [/^must be (string|integer|number|boolean|array|object)$/, (type) => TYPE_WORDS[type as keyof typeof TYPE_WORDS]()],
  [/^must be >= (\S+)$/, (n) => t('errors:field.atLeast', { limit: numberWords(n) })],
  [/^must be > (\S+)$/, (n) => t('errors:field.moreThan', { limit: numberWords(n) })],
  [/^must be <= (\S+)$/, (n) => t('errors:field.atMost', { limit: numberWords(n) })],
  [/^must be < (\S+)$/, (n) => t('errors:field.lessThan', { limit: numberWords(n) })],
  [/^must be equal to one of the allowed values$/, () => t('errors:field.oneOfTheChoices')],
  [/^must NOT have additional properties$/, () => t('errors:field.notSentByThisForm')],
  // The forms ask for a duration as a number and a unit, so the only wrong one is nothing at all.
  [/^must be an ISO 8601 duration greater than zero/, () => t('errors:field.moreThanZero')],
];

/** Parley's own rules, as its services word them: already for people in English, translated otherwise. */
const PARLEY_RULES: Rule[] = [
  [/^(is required|must not be empty)$/, () => t('errors:field.required')],
  [/^must be an email address$/, () => t('errors:field.email')],
  [/^must be an IANA time zone/, () => t('errors:field.timeZone')],
  [/^must be a date such as (\S+)$/, (example) => t('errors:field.dateSuchAs', { example })],
  [/^must be 1 to (\d+) characters$/, (n) => t('errors:field.maxCharacters', { count: Number(n) })],
  [/^must be at least (\d+) characters$/, (n) => t('errors:field.minCharacters', { count: Number(n) })],
  [/^is not your current password$/, () => t('errors:field.notCurrentPassword')],
  [/^is too common or predictable/, () => t('errors:field.tooCommon')],
];

/** Patterns the API's schemas use, said in words (the schema's own regex means nothing to people). */
const PATTERN_WORDS: Record<string, () => string> = {
  '^[a-z0-9_]+$': () => t('errors:field.lowerCaseDigitsUnderscores'),
  '^[A-Za-z0-9_]+$': () => t('errors:field.lettersDigitsUnderscores'),
  '^[A-Za-z0-9_-]+$': () => t('errors:field.lettersDigitsHyphensUnderscores'),
};
const FORMAT_WORDS: Record<string, () => string> = {
  email: () => t('errors:field.email'),
  uri: () => t('errors:field.webAddress'),
  url: () => t('errors:field.webAddress'),
  'date-time': () => t('errors:field.dateTime'),
  date: () => t('errors:field.date'),
  uuid: () => t('errors:field.id'),
};
const TYPE_WORDS = {
  string: () => t('errors:field.text'),
  integer: () => t('errors:field.wholeNumber'),
  number: () => t('errors:field.number'),
  boolean: () => t('errors:field.yesOrNo'),
  array: () => t('errors:field.list'),
  object: () => t('errors:field.notFilledIn'),
};

const numberWords = (value: string) => (Number.isFinite(Number(value)) ? formatNumber(Number(value)) : value);

/** A field problem's message in the person's words and language (the API's English when no rule knows it). */
export function plainMessage(message: string): string {
  const rules = currentLanguage() === 'en' ? SCHEMA_RULES : [...SCHEMA_RULES, ...PARLEY_RULES];
  for (const [pattern, words] of rules) {
    const found = pattern.exec(message);
    if (found) return words(...found.slice(1));
  }
  return message;
}

/**
 * A field problem in the person's language: a rule of Parley's own by its code (the catalog
 * `problems`, whose English is the API's), else the API's words through the rules above.
 */
export function problemWords(problem: FieldProblem): string {
  const english = plainMessage(problem.message);
  if (currentLanguage() === 'en' || !problem.code) return english;
  const params = Object.fromEntries(
    Object.entries(problem.params ?? {}).map(([name, value]) => [name, paramWords(name, value)]),
  );
  return i18next.t(`problems:${problem.code}`, { ...params, defaultValue: english });
}

/** A problem's value as the sentence shows it: a number in the language's digits, a role by its name. */
function paramWords(name: string, value: string | number): string {
  if (typeof value === 'number') return formatNumber(value);
  return name === 'role' ? i18next.t(`shell:roles.${value}.inSentence`, { defaultValue: value }) : value;
}

/** The field a problem names, as the form labels it; a field the form has no label for is not named. */
function problemSentence(problem: FieldProblem, labels: FieldLabels): string {
  const field = problem.field.replace(/^\//, '').replaceAll('/', '.');
  const message = problemWords(problem);
  const label = labels[field] ?? labels[field.split('.')[0]!];
  if (label) return t('errors:sentence', { label, message });
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/**
 * A problem without field problems, for people: in English the API's own detail (the most precise
 * words); in another language the catalog's message for its code, with the API's detail after it when
 * that says which thing (a conflict, Meta's refusal) — the API's text itself stays English.
 */
function problemMessage(error: ApiError): string {
  const { code, detail } = error.problem;
  if (currentLanguage() === 'en' || !isKnownCode(code)) return error.message;
  const message = t(`errors:codes.${code}`);
  return detail && DETAIL_NAMES_THE_THING.has(code) ? t('errors:withDetail', { message, detail }) : message;
}

/** Codes whose detail names the particular thing (which contact, which template, Meta's reason). */
const DETAIL_NAMES_THE_THING = new Set(['conflict', 'not_found', 'validation_failed', 'template_refused']);
const isKnownCode = (code: string): code is keyof typeof errorsCatalog.codes => code in errorsCatalog.codes;

/** Every problem of an error as a sentence for people, each field named by its label. */
export function sentencesOf(error: unknown, labels: FieldLabels = {}): string[] {
  if (error instanceof ApiError) {
    const sentences = error.problem.errors?.map((e) => problemSentence(e, labels)) ?? [];
    return sentences.length > 0 ? [...new Set(sentences)] : [problemMessage(error)];
  }
  if (error instanceof TypeError) return [t('errors:network')]; // fetch could not reach the server
  return [error instanceof Error ? error.message : String(error)];
}

/** A human sentence for any thrown value. */
export function messageOf(error: unknown, labels: FieldLabels = {}): string {
  return sentencesOf(error, labels).join(' ');
}

/** The session's CSRF token, for requests made without `api` (an upload with progress events). */
export const currentCsrfToken = (): string => csrfToken;
