/**
 * src/csat/'s front door: satisfaction surveys after a conversation. Other folders import it only through
 * here.
 */
export { registerCsatRoutes } from './csat.routes.js';
export { createCsatService } from './csat.service.js';
export type { CsatService } from './csat.service.js';
