/** The dashboard's API as a browser calls it: a session cookie, and the CSRF token on every change. */
import { randomUUID } from 'node:crypto';
import type { HttpResponse, TestServer } from './server.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A signed-in dashboard user, calling /api/dashboard/* and the API with their session. */
export interface DashboardSession {
  userId: string;
  email: string;
  password: string;
  workspaceId: string;
  send<T = unknown>(method: Method, pathname: string, body?: unknown): Promise<HttpResponse<T>>;
}

interface SessionAnswer {
  user: { id: string } | null;
  workspace: { id: string } | null;
  csrf_token: string | null;
}

/** Wraps a session cookie taken from a response's Set-Cookie (login, setup or joining). */
async function sessionFrom(
  server: TestServer,
  response: HttpResponse,
  credentials: { email: string; password: string },
): Promise<DashboardSession> {
  if (response.status !== 200) throw new Error(`no session: ${response.status} ${response.text}`);
  const setCookie = [response.headers['set-cookie'] ?? []].flat().map(String);
  const cookie = setCookie.find((c) => c.startsWith('__Host-parley_session='))!.split(';')[0]!;
  const session = await server.http.send<SessionAnswer>('GET', '/api/dashboard/session', { headers: { cookie } });
  const csrf = session.body.csrf_token ?? '';
  return {
    ...credentials,
    userId: session.body.user!.id,
    workspaceId: session.body.workspace!.id,
    send: (method, pathname, body) =>
      server.http.send(method, pathname, {
        headers: { cookie, ...(method !== 'GET' && { 'x-csrf-token': csrf }) },
        ...(body !== undefined && { body }),
      }),
  };
}

/** Logs in through POST /api/dashboard/login. */
export async function logInOverHttp(
  server: TestServer,
  credentials: { email: string; password: string },
): Promise<DashboardSession> {
  const response = await server.http.send('POST', '/api/dashboard/login', { body: credentials });
  return sessionFrom(server, response, credentials);
}

/** A new workspace's owner (set up as `parley setup` does), logged in. */
export async function ownerSession(server: TestServer, name = `Shop ${randomUUID().slice(0, 8)}`) {
  const credentials = { email: `owner-${randomUUID()}@example.com`, password: 'correct horse battery' };
  await server.app.services.workspaces.setup({ name, ...credentials });
  return logInOverHttp(server, credentials);
}

/** Invites a teammate through the owner's session; the invitation link's token. */
export async function inviteOverHttp(owner: DashboardSession, email: string, role: 'owner' | 'member' = 'member') {
  const invite = await owner.send<{ id: string; token: string }>('POST', '/api/dashboard/invites', { email, role });
  if (invite.status !== 200) throw new Error(`invite failed: ${invite.status} ${invite.text}`);
  return invite.body;
}

/** A teammate the owner invites, who joins through the link and is logged in. */
export async function joinedTeammate(
  server: TestServer,
  owner: DashboardSession,
  role: 'owner' | 'member' = 'member',
): Promise<DashboardSession> {
  const credentials = { email: `mate-${randomUUID()}@example.com`, password: 'a teammate password' };
  const { token } = await inviteOverHttp(owner, credentials.email, role);
  const joined = await server.http.send('POST', '/api/dashboard/invites/accept', {
    body: { token, name: 'Mate', password: credentials.password },
  });
  return sessionFrom(server, joined, credentials);
}
