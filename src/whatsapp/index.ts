/**
 * The WhatsApp Cloud API adapter: everything in Meta's format lives in this folder (the Graph API
 * client and its errors, the request payloads, the webhook's parser and signature, Meta's codes). It
 * depends inward on the core's channel port (channels/provider.ts) and services; nothing in the core
 * imports it. The app wires it: `createWhatsappCloud` is the core's CloudConnector, the webhook
 * service and routes take Meta's callbacks in.
 */
import type { CloudConnector } from '../channels/index.js';
import { whatsappCloudProvider } from './cloud-provider.js';
import { createGraphClient, type GraphClientOptions } from './graph-client.js';

export { createWhatsappWebhookService, type WhatsappWebhookService } from './webhook.service.js';
export { registerFlowsEndpointRequestRoutes } from './flows-endpoint.routes.js';
export { registerWhatsappWebhookRoutes } from './webhook.routes.js';

/** The cloud numbers' connector over one keep-alive Graph API client; `close()` releases its connections. */
export function createWhatsappCloud(options: GraphClientOptions): CloudConnector & { close(): Promise<void> } {
  const graph = createGraphClient(options);
  return {
    describeNumber: (phoneNumberId, wabaId, accessToken) => graph.describeNumber(phoneNumberId, wabaId, accessToken),
    provider: (channel) => whatsappCloudProvider(graph, channel),
    close: () => graph.close(),
  };
}
