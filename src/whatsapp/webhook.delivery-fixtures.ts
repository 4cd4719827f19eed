import { messagesWebhook, type BusinessLine } from './webhook.fixtures.js';

/**
 * Webhook bodies for delivery truth and the workspace event log, written from Meta's WhatsApp Cloud API
 * webhook reference (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference):
 * the "Status messages webhook reference" syntax and examples, the "Error" (value.errors) example, and the
 * account_update, phone_number_quality_update and account_alerts references. Ids are the tests' own.
 */

type Json = Record<string, unknown>;

export interface DocumentedStatusOptions extends BusinessLine {
  wamid: string;
  /** `played`: a voice message the user played (a status Parley does not track, but whose pricing it keeps). */
  status: 'sent' | 'delivered' | 'read' | 'failed' | 'played';
  recipient: string;
  timestamp: Date;
  /** What the send put in biz_opaque_callback_data (Parley: its message id). */
  callbackData?: string;
  /**
   * The `pricing` object in place of the example's (on any status): per-message pricing has `type`
   * (`regular`, `free_customer_service`, `free_entry_point`) and may omit the deprecated `billable`.
   */
  pricing?: Json;
}

/**
 * A status as the reference's example shows it: `sent` and `delivered` carry the `pricing` object
 * (per-message pricing: PMP, category, type) and `conversation` (only `sent` has its expiration);
 * `failed` carries `errors[]` with code, title, message, error_data.details and href.
 */
export function documentedStatusWebhook(options: DocumentedStatusOptions): Json {
  const seconds = Math.floor(options.timestamp.getTime() / 1000);
  const billed = options.status === 'sent' || options.status === 'delivered';
  const status: Json = {
    id: options.wamid,
    status: options.status,
    timestamp: String(seconds),
    recipient_id: options.recipient.replace(/^\+/, ''),
    ...(options.callbackData !== undefined && { biz_opaque_callback_data: options.callbackData }),
    ...(billed && {
      conversation: {
        id: 'CONVERSATION_ID_9fd1c1a4',
        ...(options.status === 'sent' && { expiration_timestamp: String(seconds + 24 * 3600) }),
        origin: { type: 'marketing' },
      },
      pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
    }),
    ...(options.pricing !== undefined && { pricing: options.pricing }),
    ...(options.status === 'failed' && {
      errors: [
        {
          code: 131050,
          title:
            'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
          message:
            'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
          error_data: {
            details:
              'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business',
          },
          href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
        },
      ],
    }),
  };
  return messagesWebhook(options, { statuses: [status] });
}

/** The reference's `value.errors` example: Meta could not deliver a webhook's content (throughput, 130429). */
export const RATE_LIMIT_ERROR = {
  code: 130429,
  title: 'Rate limit hit',
  message: 'Rate limit hit',
  error_data: {
    details:
      'Message failed to send because there were too many messages sent from this phone number in a short period of time',
  },
};

/** A messages change carrying only `value.errors`. */
export function valueErrorsWebhook(line: BusinessLine): Json {
  return messagesWebhook(line, { errors: [RATE_LIMIT_ERROR] });
}

/** One account-level change (`account_update`, `phone_number_quality_update`, `account_alerts`, …). */
export function accountWebhook(wabaId: string, field: string, value: Json, time: Date): Json {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, time: Math.floor(time.getTime() / 1000), changes: [{ value, field }] }],
  };
}

/**
 * account_update's offboarding (reference/account_update/): the business took its account from the partner.
 * Meta's `disconnection_info` is kept whole; the fields here are the test's own.
 */
export const PARTNER_REMOVED = {
  event: 'PARTNER_REMOVED',
  disconnection_info: { reason: 'Removed by the business in Meta Business Suite' },
};

/** The account_update reference's policy-violation example. */
export const ACCOUNT_VIOLATION = {
  phone_number: '15550783881',
  event: 'ACCOUNT_VIOLATION',
  violation_info: { violation_type: 'ADULT' },
};

/** The phone_number_quality_update reference's example: the messaging limit moved down a tier. */
export const QUALITY_DOWNGRADE = {
  display_phone_number: '15550783881',
  event: 'DOWNGRADE',
  current_limit: 'TIER_1K',
  old_limit: 'TIER_10K',
};

/** The account_alerts reference's example. */
export const ACCOUNT_ALERT = {
  entity_type: 'WABA',
  entity_id: '102290129340398',
  alert_info: {
    alert_severity: 'CRITICAL',
    alert_status: 'ACTIVE',
    alert_type: 'OBA_REJECTED',
    alert_description: 'Your Official Business Account request was rejected.',
  },
};
