import type { Database } from './schema.js';

/**
 * Who owns each table: the one folder of src/ whose code writes it (its repository, mostly). Another
 * folder changes a table only through the owner's front door. Typed by the schema, so a new table cannot
 * go without an owner. `npm run check` holds the code to it (scripts/check-table-owners.ts).
 */
export const TABLE_OWNERS = {
  ai_reservations: 'ai-models',
  ai_settings: 'ai-models',
  ai_usage: 'ai-models',
  api_tokens: 'workspaces',
  assistant_engagements: 'assistant',
  assistant_settings: 'assistant',
  assistant_turns: 'assistant',
  away_replies: 'business-hours',
  business_hours: 'business-hours',
  calls: 'messages',
  campaigns: 'campaigns',
  channels: 'channels',
  contact_tags: 'contacts',
  contacts: 'contacts',
  conversation_label_links: 'inbox',
  conversation_labels: 'inbox',
  conversation_notes: 'inbox',
  conversation_spans: 'messages',
  conversations: 'inbox',
  csat_settings: 'csat',
  csat_surveys: 'csat',
  deployment_generation: 'db',
  early_statuses: 'messages',
  emails: 'email',
  groups: 'groups',
  held_sends: 'messages',
  event_streams: 'inbox',
  first_run: 'accounts',
  flow_run_edges: 'flows',
  flow_runs: 'flows',
  flows_endpoint_errors: 'flows-endpoint',
  flows_endpoint_fields: 'flows-endpoint',
  flows_endpoints: 'flows-endpoint',
  flow_versions: 'flows',
  flows: 'flows',
  idempotency_keys: 'http',
  inbox_events: 'inbox',
  inbox_settings: 'inbox',
  invites: 'accounts',
  jobs: 'automation',
  knowledge_chunks: 'knowledge',
  knowledge_indexes: 'knowledge',
  knowledge_sources: 'knowledge',
  login_failures: 'accounts',
  marketing_messages_settings: 'channels',
  media_files: 'media',
  media_uploads: 'messages',
  message_rates: 'reports',
  messages: 'messages',
  notification_preferences: 'notifications',
  notifications: 'notifications',
  opt_out_settings: 'opt-out',
  password_resets: 'accounts',
  quick_replies: 'quick-replies',
  rate_cards: 'reports',
  rate_limits: 'http',
  routing_agents: 'routing',
  routing_rules: 'routing',
  routing_settings: 'routing',
  send_pacing: 'messages',
  sequence_enrolments: 'sequences',
  sequences: 'sequences',
  sessions: 'accounts',
  tags: 'tags',
  team_members: 'routing',
  teams: 'routing',
  template_translations: 'templates',
  templates: 'templates',
  users: 'accounts',
  webhook_deliveries: 'outgoing',
  webhook_subscriptions: 'outgoing',
  whatsapp_flow_alerts: 'whatsapp-flows',
  whatsapp_flow_sends: 'messages',
  whatsapp_flow_answers: 'whatsapp-flows',
  whatsapp_flows: 'whatsapp-flows',
  workspace_events: 'workspace-events',
  workspaces: 'workspaces',
} as const satisfies Record<keyof Database, string>;

type Table = keyof Database;

/**
 * The read models: code that reads other folders' tables, in one query, for a screen, a feed, a report
 * or a rule that needs them together — each named with the tables it reads beyond its own folder's.
 * Reading so is allowed only here; a new cross-folder read adds its line (or asks the owner instead).
 */
export const READ_MODELS: Record<string, { for: string; reads: Table[] }> = {
  'assistant/assistant.repository.ts': {
    for: 'the conversation the AI assistant answers: who handles it, its span, its messages; the numbers and teams its settings name',
    reads: ['conversations', 'conversation_spans', 'messages', 'channels', 'teams'],
  },
  'accounts/account.service.ts': {
    for: 'a session and an invitation: the workspace’s name, zone and limits',
    reads: ['workspaces'],
  },
  'accounts/member.service.ts': {
    for: 'a team change: the workspace row locked while roles change',
    reads: ['workspaces'],
  },
  'automation/state-counts.ts': {
    for: 'how many runs and enrolments wait, per state',
    reads: ['flow_runs', 'sequence_enrolments'],
  },
  'business-hours/business-hours.repository.ts': {
    for: 'first replies inside business hours, in the workspace’s zone',
    reads: ['workspaces', 'conversation_spans'],
  },
  'campaigns/campaign.audience.ts': {
    for: 'a campaign’s recipients: tags, opt-outs and open windows',
    reads: ['contacts', 'messages', 'contact_tags', 'tags'],
  },
  'campaigns/campaign.limit.ts': {
    for: 'the room left in a portfolio’s messaging limit: its numbers, and the customers they reached',
    reads: ['channels', 'messages'],
  },
  'campaigns/campaign.dispatch.ts': {
    for: 'whether a sending campaign still has messages queued',
    reads: ['messages'],
  },
  'campaigns/campaign.service.ts': {
    for: 'a campaign’s template and delivery counts',
    reads: ['templates', 'messages'],
  },
  'contacts/contact.dashboard.ts': {
    for: 'the contact page: last message, campaigns, sequences and flows',
    reads: ['messages', 'campaigns', 'sequence_enrolments', 'sequences', 'flow_runs', 'flows'],
  },
  'contacts/contact.repository.ts': { for: 'a contact’s tag names', reads: ['tags'] },
  'dashboard/automation.repository.ts': {
    for: 'the automation pages’ counts',
    reads: ['sequences', 'sequence_enrolments', 'flows', 'flow_runs'],
  },
  'inbox/event-streams.ts': { for: 'who a live stream belongs to', reads: ['sessions', 'users'] },
  'inbox/inbox.repository.ts': {
    for: 'the conversation list and thread; the sends waiting for approval the list counts and filters on',
    reads: ['contacts', 'users', 'teams', 'messages', 'held_sends'],
  },
  'inbox/notes.ts': { for: 'a note’s author', reads: ['users'] },
  'knowledge/synced-sources.ts': {
    for: 'the approved templates and quick replies a workspace’s knowledge indexes, and whether they changed since',
    reads: ['templates', 'template_translations', 'quick_replies'],
  },
  'messages/media-retention.ts': { for: 'each workspace’s media retention', reads: ['workspaces'] },
  'messages/message.repository.ts': { for: 'a message with its contact’s phone', reads: ['contacts'] },
  'messages/outbox-claims.ts': {
    for: 'the recipient’s number and conversation channel (or the group’s Meta id), claimed with each message',
    reads: ['contacts', 'groups'],
  },
  'messages/recent-messages.ts': { for: 'a contact’s latest messages', reads: ['contacts'] },
  'messages/senders.ts': {
    for: 'the names of the members who sent messages, and of the AI assistant',
    reads: ['users', 'assistant_settings'],
  },
  'messages/status-events.ts': { for: 'a message as get-message shows it, for its webhook event', reads: ['contacts'] },
  'notifications/notification.repository.ts': {
    for: 'who to notify and what about',
    reads: ['users', 'contacts', 'conversations', 'team_members'],
  },
  'outgoing/webhook.records.ts': {
    for: 'each webhook event’s data, as its trigger feed shows it',
    reads: ['messages', 'conversations', 'teams', 'users'],
  },
  'portability/campaign-transfer.ts': {
    for: 'a workspace’s campaigns exported and imported',
    reads: ['campaigns', 'templates', 'tags', 'contacts'],
  },
  'portability/portability.service.ts': {
    for: 'a workspace exported and imported: sequences and contacts',
    reads: ['sequences', 'contacts'],
  },
  'reports/ai-report.repository.ts': {
    for: 'the AI report: the assistant’s turns, the conversations it handled and their ratings, its model’s usage and prices',
    reads: ['ai_usage', 'ai_settings'],
  },
  'reports/campaign-report.repository.ts': {
    for: 'campaign outcomes and cost',
    reads: ['messages', 'campaigns', 'templates', 'contacts'],
  },
  'reports/cost-ledger.repository.ts': {
    for: 'the cost ledger: its numbers’ and campaigns’ names',
    reads: ['channels', 'campaigns'],
  },
  'reports/report-filter.ts': {
    for: 'the reports’ filters: numbers, teams, labels, the zone',
    reads: ['workspaces', 'channels', 'teams', 'conversation_labels'],
  },
  'reports/team-report.repository.ts': {
    for: 'per-agent and per-team figures',
    reads: ['users', 'team_members', 'teams'],
  },
  'routing/assignment.repository.ts': {
    for: 'who gets a conversation: queues, tags and people',
    reads: ['contacts', 'conversations', 'users', 'contact_tags', 'tags'],
  },
  'routing/team.repository.ts': { for: 'a team’s members', reads: ['users'] },
  'sequences/sequence.service.ts': { for: 'a sequence step that starts a flow: the flow exists', reads: ['flows'] },
  'sequences/sequence.steps.ts': { for: 'the workspace’s zone for a step’s send window', reads: ['workspaces'] },
  'triggers/trigger.repository.ts': {
    for: 'the trigger feeds integrations poll (WhatsApp Flows’ answers also listed, exported and shown in the thread)',
    reads: [
      'messages',
      'campaigns',
      'templates',
      'flow_runs',
      'flows',
      'contacts',
      'sequence_enrolments',
      'sequences',
      'whatsapp_flow_answers',
      'whatsapp_flows',
      'whatsapp_flow_sends',
    ],
  },
  'workspaces/token.service.ts': { for: 'a token’s creator and their role now', reads: ['users'] },
  'workspaces/workspace.service.ts': {
    for: 'the workspace’s owner (the CLI’s tokens belong to them)',
    reads: ['users'],
  },
};

/** Writes to another folder's table, each with why it cannot go through the owner. */
export const SHARED_WRITES: Record<string, { why: string; writes: Table[] }> = {
  'workspaces/workspace.service.ts': {
    why: 'a workspace is created with its first owner in one transaction, and accounts sit above workspaces',
    writes: ['users'],
  },
};
