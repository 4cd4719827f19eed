import { createScheduler } from './automation/scheduler.js';
import { createCampaignJobs, createCampaignService } from './campaigns/index.js';
import { createChannelService, createMarketingMessagesSettings, createSimulatorProvider } from './channels/index.js';
import type { Config } from './config.js';
import {
  createContactBulk,
  createContactBook,
  createContactService,
  createTagging,
  type ContactEvents,
  createContactDashboardService,
  createContactImportService,
} from './contacts/index.js';
import { createConversationApi } from './conversations/index.js';
import { createOptOutService } from './opt-out/index.js';
import { createDropdownService } from './dropdowns/index.js';
import { createEventHub, createEventStreams, createInboxService } from './inbox/index.js';
import {
  createMediaService,
  createMediaDownloader,
  createMediaRetention,
  retentionChanged,
  createMediaUploadService,
  createReadReceiptService,
  createBusinessAppService,
  createCallService,
  createInboundService,
  createMessageService,
  createOutbox,
  createOutbound,
  createStatusService,
} from './messages/index.js';
import { createMediaStore } from './media/media.store.js';
import { createPortabilityService } from './portability/portability.service.js';
import { systemClock, type Clock } from './shared/clock.js';
import type { Deps } from './db/deps.js';
import { openDeps } from './db/open.js';
import type { OpenOptions } from './db/connection.js';
import type { QueuedWork } from './shared/queued-work.js';
import { createCursorCodec } from './shared/cursor.js';
import { loadSecretBox } from './shared/secret-box.js';
import { createSequenceService } from './sequences/index.js';
import { createFlowWebhookClient, createFlowEngine, createFlowService } from './flows/index.js';
import { createFlowsEndpointService } from './flows-endpoint/index.js';
import { createTagService } from './tags/index.js';
import { createRoutingService } from './routing/index.js';
import {
  createTemplateSubmissionService,
  createTemplateSyncService,
  createTemplateService,
} from './templates/index.js';
import { createTriggerService } from './triggers/index.js';
import { createAccountService, createMemberService, createPasswordService } from './accounts/index.js';
import { SharedWindowLimiter } from './http/rate-limit.js';
import { createTokenService, createWorkspaceService } from './workspaces/index.js';
import { createWhatsappCloud, createWhatsappWebhookService } from './whatsapp/index.js';
import { createWebhookService, createWebhookWorker } from './outgoing/index.js';
import { createGroupService } from './groups/index.js';
import {
  createWhatsappFlowAlerts,
  createWhatsappFlowAnswers,
  createWhatsappFlowService,
  whatsappFlowMessages,
} from './whatsapp-flows/index.js';
import { createQuickReplyService } from './quick-replies/index.js';
import { createKnowledgeService } from './knowledge/index.js';
import { createWorkspaceEventService } from './workspace-events/index.js';
import {
  createAiReport,
  createReportService,
  createTeamReport,
  createVolumeReport,
  messageCosts,
} from './reports/index.js';

import { createMetrics } from './metrics/metrics.js';
import { createAiModels, createAiSettingsService } from './ai-models/index.js';
import { createEmailService } from './email/email.service.js';
import { createSmtpMailer } from './email/mailer.js';
import { createNotificationService } from './notifications/index.js';
import { createBusinessHoursService } from './business-hours/index.js';
import { createCsatService } from './csat/index.js';
import { createReception } from './reception/index.js';
import { createCopilotService } from './copilot/index.js';
import { createAssistantService } from './assistant/index.js';

/** Every service, built once from the same dependencies; the REST API and the CLI share them. */
export function createServices(opened: Deps, config: Config) {
  // Metrics exist only where they can be scraped (METRICS_TOKEN): the CLI and other servers pay nothing.
  const metrics = config.metricsToken ? createMetrics() : null;
  const deps: Deps = { ...opened, ...(metrics && { signals: metrics.signals }) };
  const secrets = loadSecretBox(config);
  const cursors = createCursorCodec(() => secrets.deriveKey('cursor'));
  const templates = createTemplateService(deps, cursors);
  // Contacts and messages tell the automation engines about tags and replies; the engines are built below.
  const contactEvents: ContactEvents = {
    tagged: (trx, workspaceId, links) => sequences.onTagged(trx, workspaceId, links),
  };
  const tagging = createTagging(deps, () => contactEvents);
  const contactBulk = createContactBulk(deps, tagging);
  const contacts = createContactService(deps, tagging, cursors, contactBulk);
  const whatsapp = createWhatsappCloud({ graphUrl: config.whatsappGraphUrl, apiVersion: config.whatsappApiVersion });
  // The simulator reports its receipts through the message service, as Meta's status webhooks do.
  const simulator = createSimulatorProvider({ newId: deps.newId, statuses: () => statuses });
  const channels = createChannelService(deps, secrets, whatsapp, simulator);
  // Every media file (received or uploaded) is kept here; received ones are downloaded by a job as they arrive.
  const mediaStore = createMediaStore(config.mediaStorage, config.dataDir);
  const mediaDownloader = createMediaDownloader(deps, channels, mediaStore);
  // The dashboard's live updates: the message service and the outbox tell it what changed.
  const inboxEvents = createEventHub(deps);
  // Outgoing webhooks: queued by the events in their transactions, sent by the worker once woken after the commit.
  const webhookWorker = createWebhookWorker(deps, secrets, { allowPrivate: config.allowPrivateWebhooks });
  /** Wakes the workers a committed transaction queued work for (queued-work.ts). */
  const wakeFor = (work: QueuedWork) => {
    if (work.handOffs.length > 0) outbox.send(work.handOffs);
    else if (work.kinds.has('messages')) outbox.wake();
    if (work.kinds.has('jobs')) scheduler.wake();
    if (work.kinds.has('deliveries')) webhookWorker.wake();
  };
  // Email through the operator's SMTP server (none without it), queued as jobs; notifications use it.
  const email = createEmailService(deps, secrets, config.smtp ? createSmtpMailer(config.smtp) : null, () =>
    scheduler.wake(),
  );
  const notifications = createNotificationService(deps, email, { publicBaseUrl: config.publicBaseUrl });
  const accountMail = { email, publicBaseUrl: config.publicBaseUrl };
  const inbox = createInboxService(deps, inboxEvents, channels, (work) => wakeFor(work), {
    notifier: notifications,
    // The bulk action "assign" goes through routing's one assignment rule (teams, roles, webhook event).
    assign: (viewer, contactIds, input) => routing.assignMany(viewer, contactIds, input),
    // Closing a conversation frees its person's capacity: routing gives them the next one waiting.
    capacityFreed: (workspaceId) => routing.drain(workspaceId),
    satisfaction: () => csat,
    // The thread shows each charged message's cost by the ledger's one pricing rule.
    messageCosts: (workspaceId, phone, rows) => messageCosts(deps.reads, workspaceId, phone, rows),
  });
  const routing = createRoutingService(deps, cursors, inboxEvents, wakeFor, notifications);
  const eventStreams = createEventStreams(deps);
  const sessionEnded = (sessionId: string) => eventStreams.sessionEnded(sessionId);
  // Meta's status webhooks and the simulator's receipts take one path.
  const statuses = createStatusService(deps, wakeFor, inboxEvents);
  const outbox = createOutbox(deps, channels, () => statuses, { graceMs: config.outboxGraceMs }, inboxEvents, wakeFor);
  // Every sender queues through the one outbound path: the sending rules, then the outbox.
  const outbound = createOutbound(deps, outbox, channels);
  const optOut = createOptOutService(deps, outbound);
  const messages = createMessageService(deps, contacts, outbound, wakeFor, inboxEvents);
  const businessHours = createBusinessHoursService(deps, outbound);
  const csat = createCsatService(deps, outbound);
  const whatsappFlowAnswers = createWhatsappFlowAnswers(deps, cursors);
  // Inbound messages: stored, then answered by the domains in reception's order.
  const reception = createReception(deps, () => ({
    optOut,
    csat,
    routing,
    inbox,
    notifications,
    businessHours,
    sequences,
    flows: flowEngine,
    whatsappFlowAnswers,
    assistant,
  }));
  const inbound = createInboundService(deps, channels, wakeFor, () => reception, inboxEvents);
  const flowWebhooks = createFlowWebhookClient({ allowPrivate: config.allowPrivateWebhooks });
  const flowEngine = createFlowEngine(deps, flowWebhooks, outbound, tagging, whatsappFlowMessages, () => assistant);
  const flows = createFlowService(
    deps,
    contacts,
    flowEngine,
    flowWebhooks,
    whatsappFlowMessages,
    wakeFor,
    async (workspaceId) => (await channels.providerOf(workspaceId)).simulated,
  );
  const sequences = createSequenceService(
    deps,
    contacts,
    tagging,
    wakeFor,
    () => flowEngine.start,
    whatsappFlowMessages,
  );
  const campaigns = createCampaignService(deps, () => scheduler.wake(), channels);
  const templateSubmission = createTemplateSubmissionService(deps, templates, channels);
  const aiOptions = { allowPrivate: config.allowPrivateAiEndpoints };
  const aiModels = createAiModels(deps, secrets, aiOptions);
  // The AI teammate's knowledge: full-text always, and vectors from the workspace's embeddings model when it has one.
  const knowledge = createKnowledgeService(deps, aiModels, wakeFor);
  const aiSettings = createAiSettingsService(deps, secrets, aiModels, aiOptions);
  // The AI assistant answers what flows leave, from the knowledge, through its job; flows hand it conversations.
  const assistant = createAssistantService(deps, {
    model: aiModels,
    knowledge,
    outbound,
    tagging,
    inbox: inbox.assistant,
    isOpenNow: (db, workspaceId) => businessHours.isOpenNow(db, workspaceId),
    isStopKeyword: (db, workspaceId, text) => optOut.isStopKeyword(db, workspaceId, text),
    holding: (db, workspaceId, contactIds) => flowEngine.holding(db, workspaceId, contactIds),
  });
  const scheduler = createScheduler(
    deps,
    {
      sequence_step: sequences.handler,
      flow_timeout: flowEngine.handlers.timeout,
      flow_webhook: flowEngine.handlers.webhook,
      ...createCampaignJobs(deps),
      template_review: templateSubmission.reviewHandler,
      media_download: mediaDownloader.handler,
      media_expiry: createMediaRetention(deps, mediaStore).handler,
      conversation_snooze: inbox.snoozeHandler,
      email_send: email.handler,
      knowledge_embed: knowledge.embedJob,
      held_send_expiry: messages.heldSends.expiryHandler,
      assistant_reply: assistant.handler,
    },
    wakeFor,
  );
  const templateSync = createTemplateSyncService(deps, templates, channels);
  const whatsappFlowAlerts = createWhatsappFlowAlerts(deps);
  const workspaces = createWorkspaceService(deps, (trx, workspaceId, days) =>
    retentionChanged(trx, deps, workspaceId, days),
  );
  const workspaceEvents = createWorkspaceEventService(deps);
  const groups = createGroupService(deps, channels, messages, wakeFor, inboxEvents);
  const reports = createReportService(deps);
  return {
    deps,
    workspaces,
    accounts: createAccountService(deps, workspaces, sessionEnded, accountMail),
    // A removed person's conversations lose their assignee (ON DELETE SET NULL); a new role may not handle them.
    members: createMemberService(deps, sessionEnded, (workspaceId, userId) =>
      routing.personChanged(workspaceId, userId),
    ),
    passwords: createPasswordService(deps, sessionEnded, accountMail),
    tokens: createTokenService(deps),
    contacts,
    optOut,
    contactViews: {
      dashboard: createContactDashboardService(deps),
      imports: createContactImportService(contactBulk),
    },
    tags: createTagService(deps, cursors),
    routing,
    templates,
    triggers: createTriggerService(deps, cursors),
    dropdowns: createDropdownService(deps, templates),
    portability: createPortabilityService(deps, contactBulk, templates, { sequences, flows }, reports, knowledge),
    channels,
    messages,
    statuses,
    inbound,
    inbox,
    conversations: createConversationApi(inbox, cursors),
    inboxEvents,
    eventStreams,
    outbox,
    simulator,
    scheduler,
    sequences,
    flows,
    flowWebhooks,
    campaigns,
    whatsapp,
    mediaStore,
    media: createMediaService(deps, mediaStore, mediaDownloader),
    mediaUploads: createMediaUploadService(deps, channels, mediaStore),
    readReceipts: createReadReceiptService(deps, channels),
    templateSync,
    templateSubmission,
    workspaceEvents,
    reports,
    teamReport: createTeamReport(deps),
    aiReport: createAiReport(deps),

    volume: createVolumeReport(deps),
    webhooks: createWhatsappWebhookService({
      channels,
      inbound,
      businessApp: createBusinessAppService(deps, inboxEvents),
      calls: createCallService(deps),
      contactBook: createContactBook(deps),
      statuses,
      templateSync,
      limiter: new SharedWindowLimiter(deps),
      eventLog: workspaceEvents,
      optOut,
      groups,
      whatsappFlowAlerts,
    }),
    outgoingWebhooks: createWebhookService(deps, secrets, { allowPrivate: config.allowPrivateWebhooks }, () =>
      webhookWorker.wake(),
    ),
    webhookWorker,
    quickReplies: createQuickReplyService(deps),
    knowledge,
    groups,
    whatsappFlows: createWhatsappFlowService(deps, channels, messages),
    whatsappFlowAlerts,
    whatsappFlowAnswers,
    email,
    notifications,
    businessHours,
    csat,
    assistant,
    marketingMessages: createMarketingMessagesSettings(deps),
    flowsEndpoint: createFlowsEndpointService(deps, secrets, channels, {
      allowPrivate: config.allowPrivateWebhooks,
      publicBaseUrl: config.publicBaseUrl,
    }),
    metrics,
    aiModels,
    aiSettings,
    // The composer's copilot drafts from the workspace's knowledge.
    copilot: createCopilotService(deps, aiModels, knowledge, aiSettings),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Opens the configured database, migrates it to the latest schema and builds the services on it. */
export async function openServices(
  config: Config,
  clock: Clock = systemClock,
  options: OpenOptions = {},
): Promise<Services> {
  return createServices(await openDeps(config, clock, options), config);
}
