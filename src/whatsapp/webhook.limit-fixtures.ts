/**
 * The messaging limit's webhooks, each shaped after its page of Meta's webhook reference,
 * developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/<field>/
 * (values from the pages' lists; ids are the tests').
 */

/**
 * reference/business_capability_update/: the business portfolio's capabilities. Integers; -1 is
 * unlimited messaging; `max_daily_conversation_per_phone` is being removed (February 2026) in favour of
 * `max_daily_conversations_per_business`.
 */
export const BUSINESS_CAPABILITY_UPDATE = {
  max_daily_conversation_per_phone: 250,
  max_daily_conversations_per_business: 250,
  max_phone_numbers_per_business: 2,
  max_phone_numbers_per_waba: 2,
};

/** business_capability_update once the portfolio's messaging is unlimited (-1). */
export const BUSINESS_CAPABILITY_UNLIMITED = {
  ...BUSINESS_CAPABILITY_UPDATE,
  max_daily_conversations_per_business: -1,
};
