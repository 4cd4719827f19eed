import { registerAccountRoutes, registerMemberRoutes, registerPasswordRoutes } from './accounts/index.js';
import { registerDashboardStatic } from './dashboard/static.routes.js';
import { registerAutomationDashboardRoutes } from './dashboard/automation.routes.js';
import { registerCampaignDashboardRoutes } from './dashboard/campaign.routes.js';
import { registerSettingsRoutes, registerMeRoutes } from './workspaces/index.js';
import { mediaFileRepository } from './media/media-file.repository.js';
import {
  registerChannelDashboardRoutes,
  registerChannelRoutes,
  registerMarketingMessagesRoutes,
} from './channels/index.js';
import { registerCampaignRoutes } from './campaigns/index.js';
import { registerContactRoutes, registerContactDashboardRoutes } from './contacts/index.js';
import { registerConversationRoutes } from './conversations/index.js';
import { registerOptOutRoutes } from './opt-out/index.js';
import { registerDropdownRoutes } from './dropdowns/index.js';
import { registerHealthRoutes } from './http/health.routes.js';
import type { Api } from './http/types.js';
import { registerInboxRoutes } from './inbox/index.js';
import {
  registerAiReportRoutes,
  registerReportRoutes,
  registerTeamReportRoutes,
  registerCampaignReportRoutes,
  registerCampaignEstimateRoutes,
  registerCostLedgerRoutes,
  registerVolumeRoutes,
} from './reports/index.js';
import { registerMcpRoutes } from './mcp/mcp.routes.js';
import {
  registerHeldSendRoutes,
  registerMediaRoutes,
  registerMessageRoutes,
  registerMessageListRoutes,
} from './messages/index.js';
import { registerFlowRoutes } from './flows/index.js';
import { registerSequenceRoutes } from './sequences/index.js';
import type { Services } from './services.js';
import { registerTagRoutes } from './tags/index.js';
import { registerRoutingRoutes } from './routing/index.js';
import { registerQuickReplyRoutes } from './quick-replies/index.js';
import { registerKnowledgeRoutes } from './knowledge/index.js';
import { registerGroupRoutes } from './groups/index.js';
import { registerWhatsappFlowAnswerRoutes, registerWhatsappFlowRoutes } from './whatsapp-flows/index.js';
import { registerTemplateRoutes, registerTemplateDashboardRoutes } from './templates/index.js';
import { registerTriggerRoutes } from './triggers/index.js';
import { registerFlowsEndpointRequestRoutes, registerWhatsappWebhookRoutes } from './whatsapp/index.js';
import { registerFlowsEndpointRoutes } from './flows-endpoint/index.js';
import { registerWebhookRoutes } from './outgoing/index.js';
import type { Config } from './config.js';
import { registerMetricsRoutes } from './metrics/metrics.routes.js';
import { registerWorkspaceEventRoutes } from './workspace-events/index.js';
import { registerNotificationRoutes } from './notifications/index.js';
import { registerBusinessHoursRoutes } from './business-hours/index.js';
import { registerCsatRoutes } from './csat/index.js';
import { registerAiSettingsRoutes } from './ai-models/index.js';
import { registerCopilotRoutes } from './copilot/index.js';
import { registerAssistantRoutes } from './assistant/index.js';

/** The route table: every endpoint Parley serves, domain by domain. */
export function registerRoutes(app: Api, services: Services, config: Config): void {
  // First: the agent tool interface records the routes below to derive its tools from them.
  registerMcpRoutes(app);
  registerHealthRoutes(app, services.deps);
  registerMetricsRoutes(app, services.metrics, config.metricsToken, services.deps);
  registerMeRoutes(app, services.workspaces);
  registerContactRoutes(app, services.contacts);
  registerOptOutRoutes(app, services.optOut);
  registerChannelRoutes(app, services.channels);
  registerMarketingMessagesRoutes(app, services.marketingMessages);
  registerFlowsEndpointRoutes(app, services.flowsEndpoint);
  registerTagRoutes(app, services.tags);
  registerRoutingRoutes(app, services.routing);
  registerTemplateRoutes(app, services.templates, services.templateSubmission);
  registerTriggerRoutes(app, services.triggers);
  registerDropdownRoutes(app, services.dropdowns);
  registerMessageRoutes(app, services.messages, services.inbound, services.readReceipts);
  registerMessageListRoutes(app, { contacts: services.contacts, db: services.deps.db });
  registerHeldSendRoutes(app, services.messages);
  registerMediaRoutes(app, services.media, services.mediaUploads);
  registerSequenceRoutes(app, services.sequences);
  registerFlowRoutes(app, services.flows);
  registerCampaignRoutes(app, services.campaigns);
  registerCampaignReportRoutes(app, services.deps);
  registerCostLedgerRoutes(app, services.deps);
  registerCampaignEstimateRoutes(app, services.deps);
  registerWhatsappWebhookRoutes(app, config, services.webhooks);
  registerFlowsEndpointRequestRoutes(app, config, services.webhooks, services.flowsEndpoint);
  registerWebhookRoutes(app, services.outgoingWebhooks);
  registerQuickReplyRoutes(app, services.quickReplies);
  registerKnowledgeRoutes(app, services.knowledge);
  registerGroupRoutes(app, services.groups);
  registerWhatsappFlowRoutes(app, services.whatsappFlows, services.whatsappFlowAlerts);
  registerWhatsappFlowAnswerRoutes(app, services.whatsappFlowAnswers);
  registerWorkspaceEventRoutes(app, services.workspaceEvents);
  registerConversationRoutes(app, services.conversations, services.inbox.labels);
  registerBusinessHoursRoutes(app, services.businessHours);
  registerCsatRoutes(app, services.csat);
  registerAiSettingsRoutes(app, services.aiSettings);
  registerCopilotRoutes(app, services.copilot);
  registerAssistantRoutes(app, services.assistant);
  registerTeamReportRoutes(app, services.teamReport);
  registerAiReportRoutes(app, services.aiReport);
  // The dashboard: its own endpoints (sessions, settings) and the front end at `/`.
  registerAccountRoutes(app, services.accounts);
  registerMemberRoutes(app, services.members);
  registerPasswordRoutes(app, services.passwords);
  registerSettingsRoutes(app, services.tokens, services.workspaces, async (workspaceId) => ({
    store: services.mediaStore.kind,
    ...(await mediaFileRepository(services.deps.reads).usage(workspaceId)),
  }));
  registerChannelDashboardRoutes(app, services, config);
  registerTemplateDashboardRoutes(app, services.templates, services.templateSync, services.templateSubmission);
  registerAutomationDashboardRoutes(app, services.deps.db);
  registerCampaignDashboardRoutes(app, {
    db: services.deps.db,
    messages: services.messages,
    deps: services.deps,
  });
  registerContactDashboardRoutes(app, { contacts: services.contacts, ...services.contactViews });
  registerReportRoutes(app, services.reports);
  registerVolumeRoutes(app, services.volume);
  registerInboxRoutes(
    app,
    services.inbox,
    { hub: services.inboxEvents, streams: services.eventStreams },
    services.media,
  );
  registerNotificationRoutes(app, services.notifications);
  registerDashboardStatic(app);
}
