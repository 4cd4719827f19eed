/** Parley's one error shape (RFC 9457 problem details), as every endpoint answers a 4xx/5xx. */
export interface Problem {
  status: number;
  code: string;
  title: string;
  detail?: string;
  errors?: { field: string; message: string }[];
  retry_after?: number;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }

  /** The message for one field, for showing beside its input. */
  fieldMessage(field: string): string | undefined {
    return this.problem.errors?.find((e) => e.field === field || e.field === `/${field}`)?.message;
  }
}

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

/** A human sentence for any thrown value. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.problem.errors?.map((e) => `${e.field.replace(/^\//, '')}: ${e.message}`) ?? [];
    return fields.length > 0 ? fields.join('; ') : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The session's CSRF token, for requests made without `api` (an upload with progress events). */
export const currentCsrfToken = (): string => csrfToken;
