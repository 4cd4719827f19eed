import type { DashboardLanguage } from '../shared/languages.js';
import type { Role } from '../access/roles.js';
import type { ColumnType, Generated } from 'kysely';
/**
 * Row types of every table, shared by both dialects. Timestamps are ISO 8601 strings and JSON
 * columns are JSON text on both engines (the PostgreSQL connection parses them that way), so
 * repositories never branch on the dialect for plain reads and writes.
 */
export interface Database {
  workspaces: WorkspaceTable;
  users: UserTable;
  api_tokens: ApiTokenTable;
  contacts: ContactTable;
  tags: TagTable;
  contact_tags: ContactTagTable;
  templates: TemplateTable;
  template_translations: TemplateTranslationTable;
  messages: MessageTable;
  channels: ChannelTable;
  campaigns: CampaignTable;
  sequences: SequenceTable;
  sequence_enrolments: SequenceEnrolmentTable;
  flows: FlowTable;
  flow_runs: FlowRunTable;
  flow_versions: FlowVersionTable;
  flow_run_edges: FlowRunEdgeTable;
  idempotency_keys: IdempotencyKeyTable;
  jobs: JobTable;
  sessions: SessionTable;
  login_failures: LoginFailureTable;
  rate_limits: RateLimitTable;
  deployment_generation: DeploymentGenerationTable;
  send_pacing: SendPacingTable;
  first_run: FirstRunTable;
  invites: InviteTable;
  password_resets: PasswordResetTable;
  conversations: ConversationTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_deliveries: WebhookDeliveryTable;
  event_streams: EventStreamTable;
  opt_out_settings: OptOutSettingsTable;
  early_statuses: EarlyStatusTable;
  workspace_events: WorkspaceEventTable;
  media_uploads: MediaUploadTable;
  media_files: MediaFileTable;
  inbox_settings: InboxSettingsTable;
  conversation_notes: ConversationNoteTable;
  calls: CallTable;
  conversation_labels: ConversationLabelTable;
  conversation_label_links: ConversationLabelLinkTable;
  quick_replies: QuickReplyTable;
  conversation_spans: ConversationSpanTable;
  teams: TeamTable;
  team_members: TeamMemberTable;
  routing_agents: RoutingAgentTable;
  routing_settings: RoutingSettingsTable;
  routing_rules: RoutingRuleTable;
  message_rates: MessageRateTable;
  rate_cards: RateCardTable;
  inbox_events: InboxEventTable;
  held_sends: HeldSendTable;
  notifications: NotificationTable;
  notification_preferences: NotificationPreferenceTable;
  emails: EmailTable;
  business_hours: BusinessHoursTable;
  away_replies: AwayReplyTable;
  csat_settings: CsatSettingsTable;
  marketing_messages_settings: MarketingMessagesSettingsTable;
  csat_surveys: CsatSurveyTable;
  groups: GroupTable;
  flows_endpoints: FlowsEndpointTable;
  flows_endpoint_fields: FlowsEndpointFieldsTable;
  flows_endpoint_errors: FlowsEndpointErrorTable;
  whatsapp_flows: WhatsappFlowTable;
  whatsapp_flow_sends: WhatsappFlowSendTable;
  whatsapp_flow_alerts: WhatsappFlowAlertTable;
  whatsapp_flow_answers: WhatsappFlowAnswerTable;
  ai_settings: AiSettingsTable;
  ai_usage: AiUsageTable;
  ai_reservations: AiReservationTable;
  knowledge_sources: KnowledgeSourceTable;
  knowledge_chunks: KnowledgeChunkTable;
  knowledge_indexes: KnowledgeIndexTable;
  assistant_settings: AssistantSettingsTable;
  assistant_turns: AssistantTurnTable;
  assistant_engagements: AssistantEngagementTable;
}

export interface WorkspaceTable {
  id: string;
  name: string;
  poll_interval_seconds: number;
  rate_limit_per_minute: number;
  time_zone: Generated<string>;
  /** Media files are deleted this many days after they were stored; null: kept forever. */
  media_retention_days: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: string;
  workspace_id: string;
  email: string;
  name: string;
  password_hash: string;
  role: Role;
  created_at: string;
  /** The dashboard's language they chose (src/shared/languages.ts); null: their browser's (0036). */
  language: Generated<DashboardLanguage | null>;
}

export interface ApiTokenTable {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  token_prefix: string;
  token_hash: string;
  scope: 'full' | 'read';
  /** `approval`: the token's sends to customers wait for a person (held_sends); `direct` before 0061. */
  mode: Generated<TokenMode>;
  /** An approval token's: how long a held send waits before it expires; null for a direct token. */
  approval_timeout_seconds: Generated<number | null>;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface ContactTable {
  id: string;
  workspace_id: string;
  phone: string;
  name: string | null;
  email: string | null;
  custom_attributes: string;
  opted_out_at: string | null;
  last_message_at: string | null;
  last_inbound_at: string | null;
  /** When the channel said the customer service window closed (it reopens with their next message). */
  window_closed_at: string | null;
  handoff_at: string | null;
  /** Meta's wa_id as sent, where it differs from the phone (e.g. Mexico's `521…`) or fails validation. */
  wa_id: string | null;
  /** The business-scoped user id Meta sends (`from_user_id`); the only identity of a sender without a phone. */
  bsuid: string | null;
  /**
   * Where the name came from (NAME_SOURCE): 0 a person in Parley (kept), 1 the WhatsApp profile (a newer
   * profile name replaces it), 2 the WhatsApp Business app's contact book (only the book renames it).
   */
  name_from_whatsapp: Generated<number>;
  /** The click-to-WhatsApp ad `referral` of the contact's first message that carried one (JSON). */
  first_touch: string | null;
  /** The channel the contact last wrote to: where conversations with them continue. */
  conversation_channel_id: Generated<string | null>;
  /** Their latest answer to a request to call them (JSON: response, permanent, expires_at, answered_at). */
  call_permission: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** `contacts.name_from_whatsapp`: who named the contact, which decides what may rename them. */
export const NAME_SOURCE = { parley: 0, profile: 1, businessApp: 2 } as const;

export interface TagTable {
  id: string;
  workspace_id: string;
  name: string;
  name_key: string;
  created_at: string;
}

export interface ContactTagTable {
  contact_id: string;
  tag_id: string;
  created_at: string;
  /** The contact's last_message_at, kept equal by a trigger (migration 0028): the tag's recency index. */
  last_message_at: string | null;
}

export interface TemplateTable {
  id: string;
  workspace_id: string;
  name: string;
  category: string;
  /** Meta's announced recategorization, `{category, effective_at}` as JSON; null when none is announced. */
  category_notice: Generated<string | null>;
  /** Meta's `message_send_ttl_seconds`: how long Meta tries to deliver its messages; null: Meta's default (0050). */
  message_send_ttl_seconds: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface TemplateTranslationTable {
  id: string;
  template_id: string;
  language: string;
  status: string;
  body: string;
  header_type: string | null;
  header_content: string | null;
  footer: string | null;
  buttons: string;
  /** POSITIONAL or NAMED (Meta's `parameter_format`). */
  parameter_format: Generated<string>;
  /** JSON array of Meta's components Parley keeps but cannot send yet (carousel, limited-time offer). */
  other_components: Generated<string>;
  /** Meta's id of this name + language, once submitted from Parley or synced. */
  meta_template_id: Generated<string | null>;
  /** Sample values submitted to Meta, keyed by variable id ("1", "header_1", "button_0_1"); JSON. */
  examples: Generated<string | null>;
  /** Meta's reason for the last rejection (or pause); null otherwise. */
  rejection_reason: Generated<string | null>;
  /** Meta's quality score: GREEN, YELLOW, RED or UNKNOWN; null until Meta rates it. */
  quality_score: Generated<string | null>;
  /** An authentication template: 1 when Meta adds its security recommendation to the body, 0 when not. */
  add_security_recommendation: Generated<number | null>;
  /** An authentication template: the minutes its footer says the code lasts (Meta's 1–90). */
  code_expiration_minutes: Generated<number | null>;
  /** The Meta Template Library template this translation was made from. */
  library_template_name: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface MessageTable {
  id: string;
  workspace_id: string;
  /** The customer's conversation it is in; null for a group's message (then `group_id` names the group). */
  contact_id: string | null;
  /** The group conversation it is in (migration 0044); null in a one-to-one conversation. */
  group_id: Generated<string | null>;
  direction: 'inbound' | 'outbound';
  type: string;
  content: string;
  status: string;
  provider_message_id: string | null;
  error: string | null;
  /** Inbound only: the new-message-received record as JSON text, written with the message. */
  feed_record: string | null;
  /** Outbound: delivery attempts so far, and when the outbox should try (again); null when done. */
  attempts: Generated<number>;
  next_attempt_at: string | null;
  campaign_id: string | null;
  /** Inbound: Meta's send time (created_at is when Parley recorded the message, the feeds' order). */
  sent_at: Generated<string | null>;
  /** The message a reply quotes or a reaction reacts to, when it is one Parley has. */
  reply_to_message_id: Generated<string | null>;
  /** The contact's current reaction emoji to this message. */
  reaction: Generated<string | null>;
  /** Earlier versions of an edited message, oldest first (JSON array). */
  edits: Generated<string | null>;
  /** When the sender deleted the message for everyone (its content is kept). */
  revoked_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
  /** Outbound: what Meta's status webhooks said beyond the status (pricing, conversation, callback data), JSON. */
  delivery: string | null;
  /** The channel the message went out (once sent) or came in on; null before 0020 and while queued unnamed. */
  channel_id: Generated<string | null>;
  /** Outbound: who sent it (see Sender), recorded where it is queued; null for inbound and before 0021. */
  sender_type: Generated<SenderType | null>;
  /** The member, token, campaign, sequence or flow that sent it; null for Parley itself. */
  sender_id: Generated<string | null>;
  /** Received media: pending, stored, failed or expired (src/messages/media-download.ts); null: no received file. */
  media_state: Generated<MediaState | null>;
  /** Why the file's last download failed (pending: it is tried again; failed: given up). */
  media_error: Generated<string | null>;
  /** Outbound: `marketing_messages` when Meta's Marketing Messages API took it; null: Cloud API's /messages (0050). */
  sent_via: Generated<'marketing_messages' | null>;
}

/** A WhatsApp group a business number is in (Meta's Groups API), and its conversation's state. */
export interface GroupTable {
  id: string;
  workspace_id: string;
  channel_id: string;
  /** Meta's group id; null until Meta has created a group Parley asked for. */
  wa_group_id: string | null;
  /** Meta's request id of the create Parley sent, which its lifecycle webhook names. */
  request_id: string | null;
  subject: string;
  description: string | null;
  invite_link: string | null;
  /** JSON: GroupParticipant[]. */
  participants: string;
  state: GroupState;
  last_message_at: string | null;
  created_at: string;
  updated_at: string;
}

export const GROUP_STATES = ['creating', 'active', 'failed', 'suspended', 'deleted'] as const;
export type GroupState = (typeof GROUP_STATES)[number];

/** A WhatsApp Flow (Meta's form) of the workspace's WhatsApp Business Account, as Meta's Flows API told it (0055). */
export interface WhatsappFlowTable {
  id: string;
  workspace_id: string;
  meta_flow_id: string;
  name: string;
  /** JSON: Meta's categories. */
  categories: string;
  /** Meta's status: DRAFT, PUBLISHED, DEPRECATED, BLOCKED or THROTTLED. */
  status: string;
  /** The Flow JSON document's text as last uploaded; null for a Flow made elsewhere. */
  flow_json: string | null;
  /** JSON: Meta's validation_errors of that document. */
  validation_errors: string;
  preview_url: string | null;
  preview_expires_at: string | null;
  /** JSON: which answer field fills which contact attribute, `{ field name: attribute key }` (0058). */
  answer_attributes: Generated<string>;
  created_at: string;
  updated_at: string;
}

/**
 * One Flow sent: the `flow_token` Parley made for it and the message that carried it (0055). Meta echoes
 * the token in the customer's answer (`nfm_reply`) and in data-exchange requests: this is how they name the send.
 */
export interface WhatsappFlowSendTable {
  flow_token: string;
  workspace_id: string;
  message_id: string;
  contact_id: string | null;
  whatsapp_flow_id: string | null;
  meta_flow_id: string;
  created_at: string;
}

/** What Meta's `flows` webhook said of a Flow: a status change or an alert about its endpoint (0060). */
export interface WhatsappFlowAlertTable {
  id: string;
  workspace_id: string;
  whatsapp_flow_id: string;
  /** Meta's `event`, e.g. FLOW_STATUS_CHANGE, ENDPOINT_ERROR_RATE. */
  event: string;
  /** ACTIVATED or DEACTIVATED (the performance alerts); null otherwise. */
  alert_state: string | null;
  message: string | null;
  /** JSON: Meta's value, as sent. */
  details: string;
  received_at: string;
}

/**
 * A completed WhatsApp Flow a customer sent (`nfm_reply`), once per message (0058): linked to the send by
 * its `flow_token` when Parley made it, otherwise to no send.
 */
export interface WhatsappFlowAnswerTable {
  id: string;
  workspace_id: string;
  message_id: string;
  contact_id: string;
  flow_token: string | null;
  whatsapp_flow_id: string | null;
  meta_flow_id: string | null;
  /** JSON: `[{ name, label, value }]` in the form's order; values as Meta sent them. */
  fields: string;
  received_at: string;
}

export type MediaState = 'pending' | 'stored' | 'failed' | 'expired';

/**
 * Who sends an outbound message: a team member, an API token, an automation, Parley itself (opt-out
 * replies), the business from the WhatsApp Business app on the same number (coexistence), or the AI
 * assistant (src/assistant/, 0065).
 */
export const SENDER_TYPES = ['user', 'api', 'campaign', 'sequence', 'flow', 'system', 'business_app', 'ai'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];

/** A WhatsApp call with a contact, from Meta's `calls` webhooks: one row per call id. */
export interface CallTable {
  id: string;
  workspace_id: string;
  contact_id: string;
  channel_id: string;
  call_id: string;
  direction: 'inbound' | 'outbound';
  /** ringing, ongoing, answered, missed, rejected, failed. */
  outcome: string;
  placed_at: string;
  started_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
  /** JSON array of Meta's events of the call, oldest first. */
  events: string;
  updated_at: string;
}

export interface ConversationNoteTable {
  id: string;
  workspace_id: string;
  contact_id: string;
  /** The member who wrote it; kept when they leave. */
  author_id: string | null;
  /** The AI assistant's name when it wrote the note (its hand-over summary, 0065); null for a member's note. */
  ai_author: Generated<string | null>;
  body: string;
  created_at: string;
}

/** A workspace's saved answer, typed in the composer as `/shortcut`. */
export interface QuickReplyTable {
  id: string;
  workspace_id: string;
  shortcut: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface ChannelTable {
  id: string;
  workspace_id: string;
  provider: 'simulator' | 'whatsapp-cloud';
  phone_number_id: string | null;
  waba_id: string | null;
  /** Sealed with the secret box; never the plain token. */
  access_token: string | null;
  messages_per_second: number;
  /** 1 for the workspace's default channel (at most one per workspace), else 0. */
  is_default: Generated<number>;
  display_phone_number: string | null;
  verified_name: string | null;
  /** Meta's GREEN / YELLOW / RED / UNKNOWN. */
  quality_rating: string | null;
  /** Meta's messaging limit tier, e.g. TIER_1K; null until Meta says. */
  messaging_limit_tier: string | null;
  /** 1 when the business also uses the number in the WhatsApp Business app (coexistence). */
  business_app: Generated<number>;
  /** How far the import of the app's chat history has come (HistoryImport as JSON); null before any. */
  history_import: Generated<string | null>;
  /** Meta took the number's account from this app (Disconnection as JSON): its sends wait; null when connected. */
  disconnection: Generated<string | null>;
  /** Meta's latest word on the number's account from account_update (AccountStatus as JSON); null before any. */
  account_status: Generated<string | null>;
  /** The messaging limit Meta last stated for the number's business portfolio (PortfolioLimit as JSON); null until Meta says. */
  portfolio_limit: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface CampaignTable {
  id: string;
  workspace_id: string;
  name: string;
  template_id: string | null;
  status: string;
  audience: string;
  language: string | null;
  /** JSON array of placeholder values (literals or {{contact.…}} references). */
  variables: string | null;
  recipients: Generated<number>;
  /** Audience members not messaged (opted out when the campaign was dispatched). */
  skipped: Generated<number>;
  /** Of the skipped, those who had opted out of marketing. */
  opted_out: Generated<number>;
  scheduled_at: string | null;
  sent_at: string | null;
  /** The channel the campaign sends from; null: each contact's conversation number, else the default. */
  channel_id: Generated<string | null>;
  /** The https link a media-header template sends in its header; null: the template's own sample. */
  header_media_url: Generated<string | null>;
  /** The campaign this one resends to those who did not read it (resend-campaign); null otherwise. */
  resend_of: Generated<string | null>;
  /** Recipients past the portfolio's room left: `send` (Meta refuses them) or `wait` (due when room returns). */
  over_limit: Generated<'send' | 'wait'>;
  created_at: string;
  updated_at: string;
}

export interface SequenceTable {
  id: string;
  workspace_id: string;
  name: string;
  definition: string;
  created_at: string;
  updated_at: string;
}

export interface SequenceEnrolmentTable {
  id: string;
  workspace_id: string;
  sequence_id: string;
  contact_id: string;
  status: string;
  context: string;
  step_index: Generated<number>;
  ended_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface FlowTable {
  id: string;
  workspace_id: string;
  name: string;
  definition: string;
  /** Lower-cased start keywords as a JSON array; null when none. */
  keywords: string | null;
  /** The live version: `definition` is its definition (also kept in flow_versions). */
  version: Generated<number>;
  /** The unpublished draft's definition as saved, possibly invalid; null when there is none. */
  draft: string | null;
  draft_updated_at: string | null;
  /** Where the builder's cards are, as JSON (node id → {x, y}); null until the builder saves one. */
  layout: string | null;
  created_at: string;
  updated_at: string;
}

/** Every published definition of a flow; runs read the one they started on. Version 0 is the builder's try-run. */
export interface FlowVersionTable {
  flow_id: string;
  version: number;
  definition: string;
  created_at: string;
}

/** Each exit a run took, once per run (the edge counts of get-flow-stats). */
export interface FlowRunEdgeTable {
  run_id: string;
  from_node: string;
  exit: string;
  to_node: string;
  flow_id: string;
  version: number;
}

export interface FlowRunTable {
  id: string;
  workspace_id: string;
  flow_id: string;
  contact_id: string;
  status: string;
  context: string;
  /** The node the run is at; once ended, the node it ended at (null for runs ended before migration 0054). */
  node_id: string | null;
  retries: Generated<number>;
  /** The flow version it runs on. */
  version: Generated<number>;
  ended_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyKeyTable {
  workspace_id: string;
  /** Whose key it is: the principal's token id (`session:<user id>` for the dashboard). */
  caller: string;
  key: string;
  fingerprint: string;
  /** Null while the first request runs. */
  status_code: number | null;
  /** Null once completed when the response carried a secret: it is never stored. */
  response_body: string | null;
  created_at: string;
}

export const TOKEN_MODES = ['direct', 'approval'] as const;
export type TokenMode = (typeof TOKEN_MODES)[number];

export const HELD_SEND_STATUSES = ['awaiting_approval', 'approved', 'rejected', 'expired'] as const;
export type HeldSendStatus = (typeof HELD_SEND_STATUSES)[number];

/** A message an approval-mode token sent to a contact, held until a person decides (0061, decision 0160). */
export interface HeldSendTable {
  id: string;
  workspace_id: string;
  contact_id: string;
  token_id: string;
  type: string;
  /** JSON: the content as the agent proposed it. */
  content: string;
  reply_to_message_id: string | null;
  channel_id: string | null;
  /** JSON: the WhatsApp Flow send to record with the message (a send-whatsapp-flow); null otherwise. */
  flow_send: string | null;
  reasoning: string | null;
  status: HeldSendStatus;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: string | null;
  /** 1: approved with a person's own text. */
  edited: Generated<number>;
  note: string | null;
  message_id: string | null;
}

export interface JobTable {
  id: string;
  workspace_id: string;
  kind: string;
  subject_id: string;
  payload: string;
  due_at: string;
  leased_until: string | null;
  attempts: Generated<number>;
  created_at: string;
}

export interface SessionTable {
  id_hash: string;
  user_id: string;
  workspace_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface LoginFailureTable {
  email: string;
  failures: number;
  locked_until: string | null;
  updated_at: string;
}

/** A fixed-window counter shared by every process: `hits` in the window that ends at `expires_at`. */
export interface RateLimitTable {
  key: string;
  hits: number;
  expires_at: string;
}

/** One row (id 1): bumped by triggers when a token, a workspace's limits or a channel changes. */
export interface DeploymentGenerationTable {
  id: number;
  generation: number;
}

/** Per WhatsApp number, the next free send slot in ms since the epoch (fractional: 80/s is 12.5 ms apart). */
export interface SendPacingTable {
  pace_key: string;
  next_slot_ms: number;
}

/** At most one row (id 1), written by the first-run set-up that claimed the installation. */
export interface FirstRunTable {
  id: number;
  completed_at: string;
}

export interface InviteTable {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

/** A one-time password reset link (only its token's hash), minted by `parley user reset-password`. */
export interface PasswordResetTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A conversation's inbox state (one per contact that has one): read up to, assigned to, done at. */
export interface ConversationTable {
  contact_id: string;
  workspace_id: string;
  read_at: string | null;
  assignee_id: string | null;
  done_at: string | null;
  /** none, low, medium, high or urgent (migration 0033). */
  priority: Generated<string>;
  /** Set while the conversation is snoozed: it is out of the open list until `snoozed_until` or the customer's next message. */
  snoozed_at: Generated<string | null>;
  /** When a snooze ends by itself; null: only the customer's next message ends it. */
  snoozed_until: Generated<string | null>;
  /** The team whose queue the conversation is in (src/routing/). */
  team_id: Generated<string | null>;
  updated_at: string;
}

/** A workspace's conversation label (not a contact's tag): a name and a colour. */
export interface ConversationLabelTable {
  id: string;
  workspace_id: string;
  name: string;
  /** The name lower-cased: unique per workspace. */
  name_key: string;
  colour: string;
  created_at: string;
  updated_at: string;
}

export interface ConversationLabelLinkTable {
  contact_id: string;
  label_id: string;
  workspace_id: string;
  created_at: string;
}

export interface TeamTable {
  id: string;
  workspace_id: string;
  name: string;
  name_key: string;
  created_at: string;
}

export interface TeamMemberTable {
  team_id: string;
  user_id: string;
  workspace_id: string;
}

export interface RoutingAgentTable {
  user_id: string;
  workspace_id: string;
  available: Generated<number>;
  /** The workspace's turn counter when the person last got a conversation (round-robin order). */
  last_turn: Generated<string | number>;
  updated_at: string;
}

export interface RoutingSettingsTable {
  workspace_id: string;
  auto_assign: Generated<number>;
  agent_limit: number | null;
  turn: Generated<string | number>;
  updated_at: string;
}

export interface RoutingRuleTable {
  id: string;
  workspace_id: string;
  position: number;
  kind: 'number' | 'keyword' | 'tag';
  value: string;
  team_id: string;
}

export interface WebhookSubscriptionTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  /** The signing secret, sealed with the SecretBox. */
  secret: string;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  subscription_id: string;
  workspace_id: string;
  event_type: string;
  /** The body sent on every attempt, as JSON text. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string | null;
  first_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  /** JSON array of the latest attempts. */
  attempt_log: string;
  created_at: string;
  updated_at: string;
}

/** A live inbox event some Parley process published, kept briefly for every process's streams to read. */
export interface InboxEventTable {
  id: Generated<number>;
  workspace_id: string;
  type: string;
  /** The contact whose conversation it is about; null for a group's event. */
  contact_id: string | null;
  /** The WhatsApp group it is about (type `group`); null for a contact's. */
  group_id: string | null;
  message_id: string | null;
  direction: string | null;
  origin: string;
  created_at: string;
}

/** A dashboard event stream open in some Parley process, counted against its session's bound. */
export interface EventStreamTable {
  id: string;
  session_hash: string;
  seen_at: string;
}

/** A workspace's opt-out keywords and confirmation setting; no row means the defaults. */
export interface OptOutSettingsTable {
  workspace_id: string;
  /** JSON array of keywords that opt a contact out of marketing. */
  stop_keywords: string;
  /** JSON array of keywords that opt them back in. */
  start_keywords: string;
  /** 1 when a contact who opts out is told so once. */
  confirm: number;
  updated_at: string;
}

/** A status webhook for a wamid no message had yet: applied when the send is recorded. */
export interface EarlyStatusTable {
  id: string;
  workspace_id: string;
  wamid: string;
  status_update: string;
  received_at: string;
}

/** The workspace event log: Meta's `value.errors` and account updates. */
export interface WorkspaceEventTable {
  id: string;
  workspace_id: string;
  kind: string;
  summary: string;
  details: string;
  occurred_at: string | null;
  /** One row per event however often Meta delivers it (its id when Meta gives no time to tell retries by). */
  dedupe_key: string;
  created_at: string;
}

/** A file uploaded to the workspace's channel; media messages name it by `media_id`. */
/** A file the media store holds (src/media/): received with `message_id`, or uploaded. */
export interface MediaFileTable {
  workspace_id: string;
  media_id: string;
  message_id: string | null;
  mime_type: string;
  /** Bytes (bigint on PostgreSQL: read it through Number()). */
  size: ColumnType<number | string, number, number>;
  sha256: string;
  stored_at: string;
}

export interface MediaUploadTable {
  workspace_id: string;
  media_id: string;
  type: string;
  mime_type: string;
  size: number;
  sha256: string;
  filename: string | null;
  created_at: string;
}

/** The inbox's per-workspace choices; a workspace without a row uses the defaults. */
export interface InboxSettingsTable {
  workspace_id: string;
  /** 1: opening a conversation shows the customer a typing indicator with the read receipt. */
  typing_indicator: number;
  updated_at: string;
}

/** One conversation from the customer's message that opened it to the agent's "Mark done" (reports). */
export interface ConversationSpanTable {
  id: string;
  workspace_id: string;
  contact_id: string;
  opened_at: string;
  /** The first message a person or the API sent after it opened (not automations or campaigns). */
  first_response_at: string | null;
  /** The member who sent that first response; null when an API token did (or before 0025). */
  first_responder_id: Generated<string | null>;
  closed_at: string | null;
  /** Who its resolution counts for: the assignee when it was closed, else the agent who closed it. */
  agent_id: string | null;
}

/** The price a workspace pays Meta per billable message, by Meta's pricing category (reports' cost). */
export interface MessageRateTable {
  workspace_id: string;
  currency: string;
  /** JSON object: category → price per message. */
  rates: string;
  updated_at: string;
}

/** A rate card a workspace imported: in effect from its day (the workspace's time zone) until the next card's. */
export interface RateCardTable {
  id: string;
  workspace_id: string;
  /** YYYY-MM-DD. */
  effective_from: string;
  currency: string;
  /** JSON object: market → pricing category → price per charged message. */
  rates: string;
  source: string;
  imported_at: string;
}

/** Something a person is told about (a mention, an assignment, a new conversation), read or unread. */
export interface NotificationTable {
  id: string;
  workspace_id: string;
  user_id: string;
  kind: string;
  contact_id: string;
  actor_id: string | null;
  created_at: string;
  read_at: string | null;
}

/** A person's choice for one kind of notification: shown in the dashboard, emailed (1/0). */
export interface NotificationPreferenceTable {
  user_id: string;
  kind: string;
  in_app: number;
  email: number;
}

/** An email queued for the SMTP server; `sealed` holds its subject and text, encrypted. */
export interface EmailTable {
  id: string;
  workspace_id: string;
  notification_id: string | null;
  to_address: string;
  sealed: string;
  state: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: Generated<number>;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** A workspace's business hours (no row: always open, no away reply). */
export interface BusinessHoursTable {
  workspace_id: string;
  /** 1: a customer who writes outside the hours gets the away reply. */
  enabled: number;
  time_zone: string;
  /** JSON: weekday → [{ opens, closes }] in local "HH:MM". */
  weekly: string;
  /** JSON: local dates ("YYYY-MM-DD") closed all day. */
  holidays: string;
  away_message: string;
  updated_at: string;
}

/** The away reply sent for one conversation opening (span): at most one each. */
export interface AwayReplyTable {
  span_id: string;
  workspace_id: string;
  contact_id: string;
  message_id: string | null;
  sent_at: string;
}

/** Whether a workspace asks customers to rate a closed conversation (no row: off). */
/** Whether a workspace sends its marketing templates through Meta's Marketing Messages API (no row: off). */
export interface MarketingMessagesSettingsTable {
  workspace_id: string;
  enabled: number;
  /** Who confirmed, on turning it on, that the business accepted Meta's terms; null once that user is removed. */
  terms_accepted_by: string | null;
  terms_accepted_at: string | null;
  updated_at: string;
}

/** WhatsApp Flows' data endpoint of one number: its key pair and the business endpoint screens are relayed to. */
export interface FlowsEndpointTable {
  channel_id: string;
  workspace_id: string;
  /** The private key (PKCS #8 PEM), sealed with the secret box; null before set-up-flows-encryption. */
  private_key: string | null;
  /** The public key registered with Meta (SPKI PEM). */
  public_key: string | null;
  /** valid, mismatch or missing_at_meta: what Meta last said about the registered key. */
  key_status: string | null;
  key_registered_at: string | null;
  key_checked_at: string | null;
  /** The business's HTTPS endpoint that INIT, data_exchange and BACK are relayed to; null: none. */
  business_url: string | null;
  /** Its Standard Webhooks signing secret (`whsec_…`), sealed with the secret box. */
  business_secret: string | null;
  /** Who answers INIT, data_exchange and BACK: `business_endpoint` (relayed) or `parley` (its screen table) (0059). */
  answered_by: Generated<string>;
  /** JSON text: Parley's screen table, what each screen leads to and with what data (0059). */
  screen_answers: string | null;
  updated_at: string;
}

/** What a customer entered so far in one opened Flow, for Parley's screen answers to use (0059). */
export interface FlowsEndpointFieldsTable {
  channel_id: string;
  flow_token: string;
  /** JSON text: the fields of every screen submitted, later ones over earlier ones. */
  fields: string;
  updated_at: string;
}

/** An error notification Meta's Flow client sent to a number's data endpoint; the latest few are kept (0059). */
export interface FlowsEndpointErrorTable {
  id: string;
  channel_id: string;
  flow_token: string | null;
  screen: string | null;
  /** Meta's error key, e.g. `payload-schema-error`. */
  error: string;
  error_message: string | null;
  received_at: string;
}

export interface CsatSettingsTable {
  workspace_id: string;
  enabled: number;
  updated_at: string;
}

/** A rating request sent when a conversation span was closed, and the customer's answer (1–5). */
export interface CsatSurveyTable {
  id: string;
  workspace_id: string;
  contact_id: string;
  span_id: string;
  agent_id: string | null;
  message_id: string;
  sent_at: string;
  rating: number | null;
  rated_at: string | null;
}

/** The AI model a workspace brings (0062): an OpenAI-compatible endpoint, off until `enabled`. */
export interface AiSettingsTable {
  workspace_id: string;
  enabled: number;
  base_url: string | null;
  model: string | null;
  /** Sealed with the secret box (shared/secret-box.ts); never returned. */
  api_key: string | null;
  embeddings_model: string | null;
  timeout_seconds: number;
  /** Tokens a month (bigint on PostgreSQL: read it through Number()); null: no budget. */
  monthly_token_budget: ColumnType<number | string | null, number | null, number | null>;
  input_price_per_million: number | null;
  output_price_per_million: number | null;
  updated_at: string;
}

/** What a workspace's model calls used, per UTC month (`YYYY-MM`) and purpose (0062); bigints on PostgreSQL. */
export interface AiUsageTable {
  workspace_id: string;
  month: string;
  purpose: string;
  calls: ColumnType<number | string, number, number>;
  prompt_tokens: ColumnType<number | string, number, number>;
  completion_tokens: ColumnType<number | string, number, number>;
}
/** Tokens an AI model call in flight has set aside against the month's budget, until it is settled (0070). */
export interface AiReservationTable {
  id: string;
  workspace_id: string;
  month: string;
  tokens: ColumnType<number | string, number, number>;
  expires_at: string;
}
/** A source of the workspace's knowledge: a Q&A pair, a document, or its templates or quick replies (0063). */
export interface KnowledgeSourceTable {
  id: string;
  workspace_id: string;
  kind: 'qa' | 'document' | 'templates' | 'quick_replies';
  /** A Q&A pair's question, a document's title; empty for templates and quick replies. */
  title: string;
  /** A Q&A pair's answer, a document's text; empty for templates and quick replies. */
  content: string;
  format: 'markdown' | 'text';
  file_name: string | null;
  /** What the chunks were made from (a content hash, or templates' and quick replies' state); null: not indexed. */
  digest: string | null;
  chunk_count: Generated<number>;
  created_at: string;
  updated_at: string;
  indexed_at: string | null;
}

/** A piece of a knowledge source, as retrieval finds and cites it (0063). */
export interface KnowledgeChunkTable {
  id: string;
  workspace_id: string;
  source_id: string;
  position: number;
  /** The headings above it, outermost first, joined with " › "; empty when none. */
  heading: string;
  text: string;
  /** The words the full-text index takes (knowledge/search-text.ts). */
  search_text: string;
  /** SHA-256 of heading and text. */
  content_hash: string;
  /** float32 little-endian; null until embedded. */
  embedding: Buffer | null;
  embedding_model: string | null;
  /** SQLite: the chunk's row in the FTS5 index; null on PostgreSQL (a tsvector column instead). */
  search_rowid: number | null;
  created_at: string;
}

/** Per workspace: the generation of its knowledge index and the embeddings model last seen (0063). */
export interface KnowledgeIndexTable {
  workspace_id: string;
  generation: Generated<number>;
  embedding_model: string | null;
  updated_at: string;
}

/** A workspace's AI assistant on conversations (0065): off until saved on. */
export interface AssistantSettingsTable {
  workspace_id: string;
  enabled: number;
  /** JSON array of channel ids it answers on; empty: every number. */
  channel_ids: string;
  /** JSON array of team ids whose conversations it answers; empty: whatever the team. */
  team_ids: string;
  /** always, outside (business hours) or inside. */
  hours: string;
  name: string;
  instructions: string;
  reply_limit: number;
  confidence_floor: number;
  /** JSON array of extra words that hand the conversation to a person. */
  stop_words: string;
  handover_message: string;
  updated_at: string;
}

/** One turn the AI assistant took on a customer's message (0065): what it decided, why, cited and cost. */
export interface AssistantTurnTable {
  id: string;
  workspace_id: string;
  contact_id: string;
  span_id: string | null;
  /** The customer's latest message it answered (unique: one turn per message). */
  message_id: string;
  /** reply, hand_over or close. */
  action: string;
  /** Why it handed over (stop_word, low_confidence, unsupported_claim, model_error…); null otherwise. */
  reason: string | null;
  reply_message_id: string | null;
  /** The message telling the customer a person will answer (once per conversation). */
  notice_message_id: string | null;
  confidence: number | null;
  /** JSON: [{ chunk_id, source_id, source, heading, text }]. */
  citations: string;
  summary: string | null;
  /** JSON arrays: tags added, attributes set ([{ name, value }]). */
  tags: string;
  attributes: string;
  /** JSON: the model's decision as it came; null when the model was not asked or failed. */
  decision: string | null;
  model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  model_ms: number | null;
  total_ms: number;
  created_at: string;
}

/** A conversation a flow's ai_assistant node handed to the assistant, until it is next closed (0065). */
export interface AssistantEngagementTable {
  contact_id: string;
  workspace_id: string;
  flow_id: string | null;
  engaged_at: string;
}
