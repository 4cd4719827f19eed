/**
 * src/routing/'s front door: teams, assignment and availability. Other folders import it only through here.
 */
export { registerRoutingRoutes } from './routing.routes.js';
export { createRoutingService } from './routing.service.js';
export type { RoutingService } from './routing.service.js';
