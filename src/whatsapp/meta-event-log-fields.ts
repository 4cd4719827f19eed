/**
 * The webhook fields Meta documents that the workspace event log records (every field but those Parley
 * models: messages, templates' own, and the WhatsApp Business app's echoes and chat history): the dashboard names each in words (settings:events.kinds); a
 * field Meta adds later is recorded too and shown by its own name. A module without imports, so the
 * dashboard's bundle takes only this list.
 */
export const META_EVENT_LOG_FIELDS = [
  'account_update',
  'account_alerts',
  'account_review_update',
  'business_capability_update',
  'phone_number_quality_update',
  'phone_number_name_update',
  'security',
  'calls',
  'smb_app_state_sync',
  'group_lifecycle_update',
  'group_participants_update',
  'group_settings_update',
  'group_status_update',
  'automatic_events',
  'flows',
  'template_category_update',
  'message_template_components_update',
  'payment_configuration_update',
  // Not a field: the action type of the Marketing Messages API's click reports (on `messages`).
  'marketing_messages_link_click',
] as const;
