/**
 * The account-level fields Meta documents for a WhatsApp Business Account subscription: the webhook
 * reads them, the dashboard names each (a module without imports, so its bundle takes only this list).
 */
export const META_ACCOUNT_FIELDS = [
  'account_update',
  'account_alerts',
  'account_review_update',
  'business_capability_update',
  'phone_number_quality_update',
  'phone_number_name_update',
  'security',
] as const;
