/** The dashboard's API as a browser calls it: a session cookie, and the CSRF token on every change. */
import { randomUUID } from 'node:crypto';
import type { Role } from '../src/access/roles.js';
import type { HttpClient, HttpResponse, TestServer } from './server.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What serves Parley over HTTPS: the in-process test server, or a Parley process the test started. */
interface Served {
  http: HttpClient;
}

interface Credentials {
  email: string;
  password: string;
}

/** A signed-in dashboard user, calling /api/dashboard/* and the API with their session. */
export interface DashboardSession extends Credentials {
  userId: string;
  workspaceId: string;
  /** The session cookie's value (a secret: tests look for it where it must not be). */
  cookie: string;
  csrfToken: string;
  /** Sends with the session cookie, and X-CSRF-Token on changes; `headers` add or override (e.g. Origin). */
  send<T = unknown>(
    method: Method,
    pathname: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpResponse<T>>;
}

interface SessionAnswer {
  user: { id: string } | null;
  workspace: { id: string } | null;
  csrf_token: string | null;
}

/** Wraps the session cookie a response set (login, setup or joining). */
async function sessionFrom(
  { http }: Served,
  response: HttpResponse,
  credentials: Credentials,
): Promise<DashboardSession> {
  if (response.status !== 200) throw new Error(`no session: ${response.status} ${response.text}`);
  const cookie = /__Host-parley_session=([^;]+)/.exec(String(response.headers['set-cookie']))?.[1];
  if (!cookie) throw new Error('no session cookie was set');
  const withCookie = { cookie: `__Host-parley_session=${cookie}` };
  const session = await http.send<SessionAnswer>('GET', '/api/dashboard/session', { headers: withCookie });
  const csrfToken = session.body.csrf_token ?? '';
  return {
    email: credentials.email,
    password: credentials.password,
    userId: session.body.user!.id,
    workspaceId: session.body.workspace!.id,
    cookie,
    csrfToken,
    send: (method, pathname, body, headers = {}) =>
      http.send(method, pathname, {
        ...(body !== undefined && { body }),
        headers: { ...withCookie, ...(method !== 'GET' && { 'x-csrf-token': csrfToken }), ...headers },
      }),
  };
}

/** Logs in through POST /api/dashboard/login. */
export async function logInOverHttp(server: Served, credentials: Credentials): Promise<DashboardSession> {
  const { email, password } = credentials;
  const response = await server.http.send('POST', '/api/dashboard/login', { body: { email, password } });
  return sessionFrom(server, response, credentials);
}

/** Sets up a fresh server's first workspace through POST /api/dashboard/setup, as its first page does. */
export async function setUpOverHttp(
  server: Served,
  setup: Credentials & { workspace: string },
): Promise<DashboardSession> {
  const response = await server.http.send('POST', '/api/dashboard/setup', { body: setup });
  return sessionFrom(server, response, setup);
}

/** A new workspace's owner (set up as `parley setup` does), logged in. */
export async function ownerSession(server: TestServer, name = `Shop ${randomUUID().slice(0, 8)}`) {
  const credentials = { email: `owner-${randomUUID()}@example.com`, password: 'correct horse battery' };
  await server.app.services.workspaces.setup({ name, ...credentials });
  return logInOverHttp(server, credentials);
}

/** Invites a teammate through the owner's session; the invitation link's token. */
export async function inviteOverHttp(owner: DashboardSession, email: string, role: Role = 'member') {
  const invite = await owner.send<{ id: string; token: string }>('POST', '/api/dashboard/invites', { email, role });
  if (invite.status !== 200) throw new Error(`invite failed: ${invite.status} ${invite.text}`);
  return invite.body;
}

/** A teammate the owner invites, who joins through the link and is logged in. */
export async function joinedTeammate(
  server: TestServer,
  owner: DashboardSession,
  role: Role = 'member',
): Promise<DashboardSession> {
  const credentials = { email: `mate-${randomUUID()}@example.com`, password: 'a teammate password' };
  const { token } = await inviteOverHttp(owner, credentials.email, role);
  const joined = await server.http.send('POST', '/api/dashboard/invites/accept', {
    body: { token, name: 'Mate', password: credentials.password },
  });
  return sessionFrom(server, joined, credentials);
}
