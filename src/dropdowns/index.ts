/**
 * src/dropdowns/'s front door: the option lists integration tools show. Other folders import it only
 * through here.
 */
export { registerDropdownRoutes } from './dropdown.routes.js';
export { createDropdownService } from './dropdown.service.js';
