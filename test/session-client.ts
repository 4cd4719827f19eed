import assert from 'node:assert/strict';
import type { HttpClient, HttpResponse } from './server.js';

/** A dashboard session over HTTPS without a browser: what a logged-in page sends with each request. */
export interface SessionClient {
  /** The session cookie's value (a secret: tests look for it where it must not be). */
  cookie: string;
  csrfToken: string;
  send<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    pathname: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpResponse<T>>;
}

/** Signs in with `POST /api/dashboard/login` (or first-run set-up with `path`) and reads the session's CSRF token. */
export async function openSession(
  http: HttpClient,
  body: { email: string; password: string; workspace?: string },
  path: '/api/dashboard/login' | '/api/dashboard/setup' = '/api/dashboard/login',
): Promise<SessionClient> {
  const signedIn = await http.send('POST', path, { body });
  assert.equal(signedIn.status, 200, signedIn.text);
  const cookie = /__Host-parley_session=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1];
  assert.ok(cookie, 'a session cookie is set');
  const withCookie = { cookie: `__Host-parley_session=${cookie}` };
  const session = await http.send<{ csrf_token: string }>('GET', '/api/dashboard/session', { headers: withCookie });
  const csrfToken = session.body.csrf_token;
  return {
    cookie,
    csrfToken,
    send: (method, pathname, sent, headers = {}) =>
      http.send(method, pathname, {
        ...(sent !== undefined && { body: sent }),
        headers: { ...withCookie, 'x-csrf-token': csrfToken, ...headers },
      }),
  };
}
