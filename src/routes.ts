import { registerContactRoutes } from './contacts/contact.routes.js';
import { registerDropdownRoutes } from './dropdowns/dropdown.routes.js';
import { registerHealthRoutes } from './http/health.routes.js';
import type { Api } from './http/types.js';
import type { Services } from './services.js';
import { registerTagRoutes } from './tags/tag.routes.js';
import { registerTemplateRoutes } from './templates/template.routes.js';
import { registerTriggerRoutes } from './triggers/trigger.routes.js';
import { registerMeRoutes } from './workspaces/me.routes.js';

/** The route table: every endpoint Parley serves, domain by domain. */
export function registerRoutes(app: Api, services: Services): void {
  registerHealthRoutes(app, services.deps);
  registerMeRoutes(app, services.workspaces);
  registerContactRoutes(app, services.contacts);
  registerTagRoutes(app, services.tags);
  registerTemplateRoutes(app, services.templates);
  registerTriggerRoutes(app, services.triggers);
  registerDropdownRoutes(app, services.dropdowns);
}
