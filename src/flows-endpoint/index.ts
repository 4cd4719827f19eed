/**
 * src/flows-endpoint/'s front door: WhatsApp Flows' data endpoint of each number (its key pair, the
 * business endpoint screens are relayed to). Meta's side of it (the route, the encryption) is the
 * WhatsApp adapter's. Other folders import it only through here.
 */
export type { RelayOutcome } from './flows-endpoint.relay.js';
export { registerFlowsEndpointRoutes } from './flows-endpoint.routes.js';
export {
  createFlowsEndpointService,
  FLOWS_ENDPOINT_PATH,
  type FlowsEndpointService,
  type FlowsErrorNotification,
  type OpenedEndpoint,
} from './flows-endpoint.service.js';
