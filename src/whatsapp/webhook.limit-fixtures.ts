/**
 * The messaging limit's webhooks, each shaped after its page of Meta's webhook reference,
 * developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/<field>/
 * (values from the pages' lists; ids are the tests').
 */
import { accountWebhook } from './webhook.delivery-fixtures.js';
import { phoneNumberQualityWebhook } from './webhook.fixtures.js';

type Json = Record<string, unknown>;

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

/** A number whose business portfolio Meta writes about: its WABA, and its display number. */
interface PortfolioNumber {
  wabaId: string;
  displayPhoneNumber: string;
}

/**
 * What Meta says of a portfolio's messaging limit: its capabilities at `at` (a business_capability_update
 * value), or a move between tiers (reference/phone_number_quality_update/: `event`, from `oldLimit` to
 * `limit`, Meta's `max_daily_conversations_per_business`).
 */
export type PortfolioLimitNews =
  | { capability: typeof BUSINESS_CAPABILITY_UPDATE; at: Date }
  | { event: 'UPGRADE' | 'DOWNGRADE'; oldLimit: string; limit: string };

/** The webhook in which Meta tells `news` of `number`'s business portfolio. */
export function portfolioLimitWebhook(number: PortfolioNumber, news: PortfolioLimitNews): Json {
  if ('capability' in news) {
    return accountWebhook(number.wabaId, 'business_capability_update', news.capability, news.at);
  }
  return phoneNumberQualityWebhook({
    wabaId: number.wabaId,
    // Meta names the number by its display number, digits only.
    displayPhoneNumber: number.displayPhoneNumber.replace(/\D/g, ''),
    event: news.event,
    oldLimit: news.oldLimit,
    maxDailyConversations: news.limit,
  });
}
