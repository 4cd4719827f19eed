import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './connection.js';
import type { Database } from './schema.js';
import * as initial from './migrations/0001_initial.js';
import * as contactSearchPaths from './migrations/0002_contact_search_paths.js';
import * as messageFeedRecords from './migrations/0003_message_feed_records.js';
import * as messaging from './migrations/0004_messaging.js';
import * as automation from './migrations/0005_automation.js';
import * as dashboard from './migrations/0006_dashboard.js';
import * as outgoingWebhooks from './migrations/0007_outgoing_webhooks.js';
import * as cursorIndexes from './migrations/0008_cursor_indexes.js';
import * as idempotencyPerCaller from './migrations/0009_idempotency_per_caller.js';
import * as people from './migrations/0010_people.js';
import * as loginGuard from './migrations/0011_login_guard.js';
import * as webhook from './migrations/0012_webhook.js';
import * as inbound from './migrations/0013_inbound.js';
import * as delivery from './migrations/0014_delivery.js';
import * as optOut from './migrations/0015_opt_out.js';
import * as outbound from './migrations/0016_outbound.js';
import * as richMessages from './migrations/0017_rich_messages.js';
import * as templateParameters from './migrations/0018_template_parameters.js';
import * as templateSubmission from './migrations/0019_template_submission.js';
import * as channels from './migrations/0020_channels.js';
import * as thread from './migrations/0021_thread.js';
import * as liveEvents from './migrations/0022_live_events.js';
import * as reports from './migrations/0023_reports.js';
import * as campaignHeaderMedia from './migrations/0024_campaign_header_media.js';
import * as firstResponder from './migrations/0025_first_responder.js';
import * as sharedLimits from './migrations/0026_shared_limits.js';
import * as search from './migrations/0027_search.js';
import * as tagRecency from './migrations/0028_tag_recency.js';
import * as mediaStore from './migrations/0029_media_store.js';
import * as onePendingInvite from './migrations/0030_one_pending_invite.js';
import * as roleGeneration from './migrations/0031_role_generation.js';
import * as routing from './migrations/0032_routing.js';
import * as conversationTools from './migrations/0033_conversation_tools.js';
import * as notifications from './migrations/0034_notifications.js';
import * as businessHoursCsat from './migrations/0035_business_hours_csat.js';
import * as userLanguage from './migrations/0036_user_language.js';
import * as teamReport from './migrations/0037_team_report.js';
import * as campaignResend from './migrations/0038_campaign_resend.js';
import * as vacuumHotTables from './migrations/0039_vacuum_hot_tables.js';
import * as volumeIndex from './migrations/0040_volume_index.js';
import * as businessApp from './migrations/0041_business_app.js';
import * as templateCategoryNotice from './migrations/0042_template_category_notice.js';
import * as channelDisconnection from './migrations/0043_channel_disconnection.js';
import * as groups from './migrations/0044_groups.js';
import * as calls from './migrations/0045_calls.js';
import * as rateCards from './migrations/0046_rate_cards.js';
import * as channelAccountStatus from './migrations/0047_channel_account_status.js';
import * as portfolioLimits from './migrations/0048_portfolio_limits.js';
import * as templateOptions from './migrations/0049_template_options.js';
import * as marketingMessages from './migrations/0050_marketing_messages.js';
import * as groupLiveEvents from './migrations/0052_group_live_events.js';
import * as marketingMessagesGeneration from './migrations/0053_marketing_messages_generation.js';
import * as flowVersions from './migrations/0054_flow_versions.js';
import * as whatsappFlows from './migrations/0055_whatsapp_flows.js';
import * as flowsEndpoints from './migrations/0056_flows_endpoints.js';
import * as flowLayout from './migrations/0057_flow_layout.js';
import * as whatsappFlowAnswers from './migrations/0058_whatsapp_flow_answers.js';
import * as flowsEndpointAnswers from './migrations/0059_flows_endpoint_answers.js';
import * as whatsappFlowAlerts from './migrations/0060_whatsapp_flow_alerts.js';
import * as sendApprovals from './migrations/0061_send_approvals.js';
import * as aiModels from './migrations/0062_ai_models.js';
import * as knowledge from './migrations/0063_knowledge.js';
import * as assistant from './migrations/0065_assistant.js';
import * as aiReservations from './migrations/0070_ai_reservations.js';

type DialectMigration = { up(db: Kysely<Database>, dialect: Dialect): Promise<void> };

/** Every migration in order; names are permanent once released. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_initial': initial,
  '0002_contact_search_paths': contactSearchPaths,
  '0003_message_feed_records': messageFeedRecords,
  '0004_messaging': messaging,
  '0005_automation': automation,
  '0006_dashboard': dashboard,
  '0007_outgoing_webhooks': outgoingWebhooks,
  '0008_cursor_indexes': cursorIndexes,
  '0009_idempotency_per_caller': idempotencyPerCaller,
  '0010_people': people,
  '0011_login_guard': loginGuard,
  '0012_webhook': webhook,
  '0013_inbound': inbound,
  '0014_delivery': delivery,
  '0015_opt_out': optOut,
  '0016_outbound': outbound,
  '0017_rich_messages': richMessages,
  '0018_template_parameters': templateParameters,
  '0019_template_submission': templateSubmission,
  '0020_channels': channels,
  '0021_thread': thread,
  '0022_live_events': liveEvents,
  '0023_reports': reports,
  '0024_campaign_header_media': campaignHeaderMedia,
  '0025_first_responder': firstResponder,
  '0026_shared_limits': sharedLimits,
  '0027_search': search,
  '0028_tag_recency': tagRecency,
  '0029_media_store': mediaStore,
  '0030_one_pending_invite': onePendingInvite,
  '0031_role_generation': roleGeneration,
  '0032_routing': routing,
  '0033_conversation_tools': conversationTools,
  '0034_notifications': notifications,
  '0035_business_hours_csat': businessHoursCsat,
  '0036_user_language': userLanguage,
  '0037_team_report': teamReport,
  '0038_campaign_resend': campaignResend,
  '0039_vacuum_hot_tables': vacuumHotTables,
  '0040_volume_index': volumeIndex,
  '0041_business_app': businessApp,
  '0042_template_category_notice': templateCategoryNotice,
  '0043_channel_disconnection': channelDisconnection,
  '0044_groups': groups,
  '0045_calls': calls,
  '0046_rate_cards': rateCards,
  '0047_channel_account_status': channelAccountStatus,
  '0048_portfolio_limits': portfolioLimits,
  '0049_template_options': templateOptions,
  '0050_marketing_messages': marketingMessages,
  '0052_group_live_events': groupLiveEvents,
  '0053_marketing_messages_generation': marketingMessagesGeneration,
  '0054_flow_versions': flowVersions,
  '0055_whatsapp_flows': whatsappFlows,
  '0056_flows_endpoints': flowsEndpoints,
  '0057_flow_layout': flowLayout,
  '0058_whatsapp_flow_answers': whatsappFlowAnswers,
  '0059_flows_endpoint_answers': flowsEndpointAnswers,
  '0060_whatsapp_flow_alerts': whatsappFlowAlerts,
  '0061_send_approvals': sendApprovals,
  '0062_ai_models': aiModels,
  '0063_knowledge': knowledge,
  '0065_assistant': assistant,
  '0070_ai_reservations': aiReservations,
};

class InCodeProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}

  getMigrations(): Promise<Record<string, Migration>> {
    const entries = Object.entries(MIGRATIONS).map(([name, m]) => [
      name,
      { up: (db: Kysely<Database>) => m.up(db, this.dialect) },
    ]);
    return Promise.resolve(Object.fromEntries(entries) as Record<string, Migration>);
  }
}

/** Applies pending migrations (Kysely's migrator locks, so concurrent starts are safe). Returns their names. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  return migrateTo(db, dialect, Object.keys(MIGRATIONS).at(-1)!);
}

/** Applies pending migrations up to and including `name` (upgrade tests start from an older schema). */
export async function migrateTo(db: Kysely<Database>, dialect: Dialect, name: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeProvider(dialect) });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
