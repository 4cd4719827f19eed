/**
 * What a channel reports to Parley, in the core's terms: messages received, delivery statuses,
 * template decisions, account events and marketing preferences. The WhatsApp adapter reads Meta's
 * webhooks into these (whatsapp/webhook.payload.ts); the simulator produces the same.
 */

type Json = Record<string, unknown>;

/** Meta's inbound message types; the `message_type` filter accepts these. */
export const MESSAGE_TYPES = [
  'text',
  'image',
  'audio',
  'video',
  'document',
  'sticker',
  'location',
  'contacts',
  'interactive',
  'button',
  'reaction',
  'order',
  'system',
  'unsupported',
] as const;

export type MessageType = (typeof MESSAGE_TYPES)[number];

export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface InboundMessageEvent {
  kind: 'message';
  phoneNumberId: string;
  displayPhoneNumber: string | null;
  /** Meta's `from` (the sender's wa_id digits), or null when Meta names the sender only by user id. */
  from: string | null;
  /** The sender's business-scoped user id (`from_user_id`), when Meta sends one. */
  userId: string | null;
  profileName: string | null;
  wamid: string;
  timestamp: Date;
  type: MessageType;
  /**
   * The type-specific object Meta sent, e.g. `{ body }` for text, `{ button_reply: { id, title } }` for
   * interactive; with Meta's `context` (reply, forward, referred product) and ad `referral` when present.
   */
  content: Json;
  /** An edit or revocation of an earlier message, applied to it rather than stored as a new one. */
  amends: Amendment | null;
}

/** A sender's change to a message they sent earlier (Meta's `edit` and `revoke` message types). */
export type Amendment = { kind: 'edit' | 'revoke'; originalWamid: string };

export interface StatusError {
  code: number;
  title: string;
  message?: string;
  details?: string;
}

export interface StatusEvent {
  kind: 'status';
  phoneNumberId: string;
  wamid: string;
  /** Null for a status Parley does not track (`played`, `deleted`, …): only what it says beyond it is kept. */
  status: DeliveryStatus | null;
  timestamp: Date;
  /** The recipient in E.164, or null when Meta identifies them only by a business-scoped user id. */
  recipient: string | null;
  errors: StatusError[];
  delivery: StatusDelivery;
}

/** What a status says beyond the status itself, as get-message shows it. */
export interface StatusDelivery {
  pricing: {
    billable: boolean | null;
    pricing_model: string | null;
    category: string | null;
    type: string | null;
  } | null;
  conversation: { id: string | null; origin_type: string | null; expires_at: string | null } | null;
  /** Echoed from the send: Parley writes its message id there. */
  biz_opaque_callback_data: string | null;
}

/** A `value.errors` entry or an account update: recorded in the workspace event log. */
export interface AccountEvent {
  kind: 'account_event';
  /** Routes the event: the business number when Meta names one, else every workspace on the account. */
  phoneNumberId: string | null;
  wabaId: string | null;
  /** The webhook field (`account_update`, …) or `errors` for a messages change's `value.errors`. */
  field: string;
  summary: string;
  details: Json;
  occurredAt: Date | null;
}

export interface TemplateStatusEvent {
  kind: 'template_status';
  wabaId: string;
  templateId: string;
  templateName: string;
  language: string;
  /** Meta's `event`: APPROVED, REJECTED, PAUSED, DISABLED, … */
  status: string;
  /** Null when Meta gives none (it writes `NONE` on approval). */
  reason: string | null;
}

/** Meta's message_template_quality_update: a template translation's new quality score. */
export interface TemplateQualityEvent {
  kind: 'template_quality';
  wabaId: string;
  templateId: string;
  templateName: string;
  language: string;
  /** GREEN, YELLOW, RED or UNKNOWN (quality pending). */
  quality: string;
}

/** Meta's `user_preferences`: a WhatsApp user stopped or resumed marketing messages from the business. */
export interface MarketingPreferenceEvent {
  kind: 'marketing_preference';
  phoneNumberId: string;
  /** The user's wa_id with a leading `+`. */
  from: string;
  profileName: string | null;
  value: 'stop' | 'resume';
}

export type ChannelEvent =
  | InboundMessageEvent
  | StatusEvent
  | TemplateStatusEvent
  | TemplateQualityEvent
  | MarketingPreferenceEvent
  | AccountEvent;
