/**
 * src/business-hours/'s front door: business hours and the away message. Other folders import it only
 * through here.
 */
export { registerBusinessHoursRoutes } from './business-hours.routes.js';
export { createBusinessHoursService } from './business-hours.service.js';
export type { BusinessHoursService } from './business-hours.service.js';
