/**
 * src/opt-out/'s front door: opt-out by keyword and marketing preferences. Other folders import it only
 * through here.
 */
export { createOptOutService, type OptOutService } from './opt-out.js';
export { registerOptOutRoutes } from './opt-out.routes.js';
export { normalizeKeyword } from './opt-out.keywords.js';
