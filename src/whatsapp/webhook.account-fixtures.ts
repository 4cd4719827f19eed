/**
 * account_update webhooks on an account's standing, written from Meta's account_update webhook reference
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/account_update).
 * Each is a change's `value`; wrap it with `accountWebhook` (webhook.delivery-fixtures.ts).
 */

/** The reference's restriction example: the account may not start conversations until the expiration. */
export const ACCOUNT_RESTRICTION = {
  event: 'ACCOUNT_RESTRICTION',
  restriction_info: [{ restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: 1767225600 }],
};

/** The reference's volume-based pricing example: the account reached a new utility tier in a market. */
export const VOLUME_PRICING_TIER = {
  event: 'VOLUME_BASED_PRICING_TIER_UPDATE',
  volume_tier_info: {
    tier_update_time: 1764547200,
    pricing_category: 'UTILITY',
    region: 'INDIA',
    tier: '25000001:50000000',
    effective_month: '2025-12',
  },
};

/** The reference's authentication-international example: eligible from a start time, one market later. */
export const AUTH_INTL_ELIGIBILITY = {
  event: 'AUTH_INTL_PRICE_ELIGIBILITY_UPDATE',
  auth_international_rate_eligibility: {
    start_time: 1717225200,
    exception_countries: [{ country_code: 'IN', start_time: 1719817200 }],
  },
};

/** The reference's partner-led business verification example: the submission was approved. */
export const BUSINESS_VERIFICATION_APPROVED = {
  event: 'PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE',
  partner_client_certification_info: {
    client_business_id: '184842356123446',
    status: 'APPROVED',
    rejection_reasons: [],
  },
};
