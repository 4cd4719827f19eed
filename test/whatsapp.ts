import { randomInt } from 'node:crypto';
import { signBody } from '../src/webhooks/whatsapp.fixtures.js';
import { createWorkspace, type TestWorkspace } from './factories.js';
import { startGraphStandIn, type GraphStandIn } from './graph-stand-in.js';
import { startServer, type HttpResponse, type TestServer } from './server.js';

export const API_VERSION = 'v23.0';
export const APP_SECRET = 'test-app-secret';

/** A workspace whose channel is WhatsApp Cloud (the stand-in), with the token it sends with. */
export interface CloudWorkspace {
  ws: TestWorkspace;
  phoneNumberId: string;
  accessToken: string;
}

export interface WhatsappTestBed {
  graph: GraphStandIn;
  server: TestServer;
  cloudWorkspace: () => Promise<CloudWorkspace>;
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
  return {
    graph,
    server,
    cloudWorkspace: async () => {
      const ws = await createWorkspace(server);
      const phoneNumberId = String(randomInt(100_000_000, 999_999_999));
      const accessToken = `token-${phoneNumberId}`;
      await server.app.services.channels.useWhatsappCloud(
        { workspaceId: ws.workspaceId },
        { phoneNumberId, wabaId: '4000001', accessToken },
      );
      return { ws, phoneNumberId, accessToken };
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
