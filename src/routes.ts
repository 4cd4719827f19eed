import { registerAccountRoutes } from './accounts/account.routes.js';
import { registerDashboardStatic } from './dashboard/static.routes.js';
import { registerSettingsRoutes } from './workspaces/settings.routes.js';
import { registerCampaignRoutes } from './campaigns/campaign.routes.js';
import { registerContactRoutes } from './contacts/contact.routes.js';
import { registerDropdownRoutes } from './dropdowns/dropdown.routes.js';
import { registerHealthRoutes } from './http/health.routes.js';
import type { Api } from './http/types.js';
import { registerMediaRoutes } from './messages/media.routes.js';
import { registerMessageRoutes } from './messages/message.routes.js';
import { registerFlowRoutes } from './flows/flow.routes.js';
import { registerSequenceRoutes } from './sequences/sequence.routes.js';
import type { Services } from './services.js';
import { registerTagRoutes } from './tags/tag.routes.js';
import { registerTemplateRoutes } from './templates/template.routes.js';
import { registerTriggerRoutes } from './triggers/trigger.routes.js';
import { registerWhatsappWebhookRoutes } from './webhooks/whatsapp.routes.js';
import { registerMeRoutes } from './workspaces/me.routes.js';
import type { Config } from './config.js';

/** The route table: every endpoint Parley serves, domain by domain. */
export function registerRoutes(app: Api, services: Services, config: Config): void {
  registerHealthRoutes(app, services.deps);
  registerMeRoutes(app, services.workspaces);
  registerContactRoutes(app, services.contacts);
  registerTagRoutes(app, services.tags);
  registerTemplateRoutes(app, services.templates);
  registerTriggerRoutes(app, services.triggers);
  registerDropdownRoutes(app, services.dropdowns);
  registerMessageRoutes(app, services.messages);
  registerMediaRoutes(app, services.media);
  registerSequenceRoutes(app, services.sequences);
  registerFlowRoutes(app, services.flows);
  registerCampaignRoutes(app, services.campaigns);
  registerWhatsappWebhookRoutes(app, config, services.webhooks);
  // The dashboard: its own endpoints (sessions, settings) and the front end at `/`.
  registerAccountRoutes(app, services.accounts);
  registerSettingsRoutes(app, services.tokens, services.workspaces);
  registerDashboardStatic(app);
}
