import { randomUUID } from 'node:crypto';
import { signBody } from '../src/whatsapp/webhook.fixtures.js';
import { createWorkspace, type TestWorkspace } from './factories.js';
import { startGraphStandIn, type GraphStandIn, type StandInNumber } from './graph-stand-in.js';
import { startServer, type HttpResponse, type TestServer } from './server.js';

export const API_VERSION = 'v23.0';
export const APP_SECRET = 'test-app-secret';

/** A workspace whose channel is WhatsApp Cloud (the stand-in), with the token it sends with. */
export interface CloudWorkspace {
  ws: TestWorkspace;
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
}

export interface WhatsappTestBed {
  graph: GraphStandIn;
  server: TestServer;
  cloudWorkspace: () => Promise<CloudWorkspace>;
  /** Connects a workspace to a number of its own on the stand-in (a business of its own: number, WABA, token). */
  connect: (workspaceId: string, options?: { messagesPerSecond?: number }) => Promise<StandInNumber>;
  /** Posts a webhook body signed as Meta signs it (or with the given signature header). */
  postWebhook: <T = unknown>(body: object, signature?: string) => Promise<HttpResponse<T>>;
}

/**
 * A Parley server pointed at a Graph API stand-in, with the app secret and verify token set: the
 * set-up of every test of sending, receiving and syncing. The outbox delivers only when asked.
 */
export async function startWhatsappServer(
  options: { outbox?: boolean; env?: Record<string, string> } = {},
): Promise<WhatsappTestBed> {
  const graph = await startGraphStandIn({ apiVersion: API_VERSION });
  const server = await startServer(
    {
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_API_VERSION: API_VERSION,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-me',
      ...options.env,
    },
    options,
  );
  // Each workspace gets its own token, so a mix-up of workspaces' credentials shows.
  const connect = async (workspaceId: string, options: { messagesPerSecond?: number } = {}) => {
    const number = graph.addPhoneNumber({ accessToken: `token-${randomUUID()}` });
    const { phoneNumberId, wabaId, accessToken } = number;
    await server.app.services.channels.useWhatsappCloud(
      { workspaceId },
      { phoneNumberId, wabaId, accessToken, ...options },
    );
    return number;
  };
  return {
    graph,
    server,
    connect,
    cloudWorkspace: async () => {
      const ws = await createWorkspace(server);
      const { phoneNumberId, wabaId, accessToken } = await connect(ws.workspaceId);
      return { ws, phoneNumberId, wabaId, accessToken };
    },
    postWebhook: <T = unknown>(body: object, signature?: string) => {
      const raw = JSON.stringify(body);
      return server.http.send<T>('POST', '/webhooks/whatsapp', {
        rawBody: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature ?? signBody(raw, APP_SECRET) },
      });
    },
  };
}
