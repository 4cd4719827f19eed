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
  /** Meta's `group_id` when the message was written in a WhatsApp group: it belongs to the group's conversation. */
  groupId: string | null;
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

/**
 * Meta's template_category_update: a template's category changed, or (a day ahead) will change. Meta
 * names the template by id, name and language; Parley keeps one category per template name.
 */
export interface TemplateCategoryEvent {
  kind: 'template_category';
  wabaId: string;
  templateId: string;
  templateName: string;
  language: string;
  /** The category it has now (after a change, the new one). */
  category: string;
  /** An announced change: the category it will get, and when; null once a change is done. */
  upcoming: { category: string; at: Date } | null;
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

/**
 * A message the business sent from the WhatsApp Business app on a number Parley also sends from
 * (coexistence; Meta's `smb_message_echoes`), or its edit or deletion there.
 */
export interface EchoEvent {
  kind: 'echo';
  phoneNumberId: string;
  /** The customer: their wa_id digits, or null when Meta names them only by user id. */
  to: string | null;
  toUserId: string | null;
  wamid: string;
  timestamp: Date;
  type: MessageType;
  content: Json;
  amends: Amendment | null;
}

/** One message of the WhatsApp Business app's chat history, as Meta backfills it after onboarding. */
export interface HistoryMessage {
  direction: 'inbound' | 'outbound';
  wamid: string;
  timestamp: Date;
  type: MessageType;
  content: Json;
  /** What the app knew of it: Parley's `received` for the customer's, else sent, delivered, read or failed. */
  status: 'received' | DeliveryStatus;
}

/** One chunk of Meta's `history` webhook: some threads' messages, and how far the whole import is. */
export interface HistoryEvent {
  kind: 'history';
  phoneNumberId: string;
  /** 0, 1 or 2: the last day, the 90 days before it, the 90 before those. */
  phase: number | null;
  chunkOrder: number | null;
  /** Meta's overall progress, 0–100 (100: the import is complete). */
  progress: number | null;
  threads: { customer: string; messages: HistoryMessage[] }[];
  /** Meta's reason when the business declined to share its history (then no thread follows). */
  declined: string | null;
}

/** A contact added, changed or removed in the WhatsApp Business app's contact book (`smb_app_state_sync`). */
export interface ContactBookEvent {
  kind: 'contact_book';
  phoneNumberId: string;
  /** The person's phone digits, as Meta writes them. */
  phone: string;
  /** The name the business typed in the app; null on a removal. */
  fullName: string | null;
  action: 'add' | 'remove';
}

/** Someone in a WhatsApp group, as Meta's group webhooks name them. */
export interface GroupParticipant {
  wa_id: string | null;
  user_id: string | null;
}

/**
 * A change to a WhatsApp group (Meta's `group_lifecycle_update`, `group_participants_update`,
 * `group_settings_update`, `group_status_update`): what it says of the group's state.
 */
export interface GroupEvent {
  kind: 'group';
  phoneNumberId: string;
  /** Meta's group id; null when a create failed before Meta made a group. */
  groupId: string | null;
  /** Meta's `type`: group_create, group_delete, group_participants_add, group_suspend, … */
  type: string;
  /** The id of Parley's request (create, settings) the change answers. */
  requestId: string | null;
  subject: string | null;
  description: string | null;
  inviteLink: string | null;
  joined: GroupParticipant[];
  left: GroupParticipant[];
  /** Meta refused what was asked (its `errors`): nothing changed. */
  failed: boolean;
  occurredAt: Date | null;
}

/**
 * One event of a WhatsApp call (Meta's `calls` field): its connect or terminate, or a business-initiated
 * call's status (ringing, accepted, rejected). Only what the call is, never its audio.
 */
export interface CallEvent {
  kind: 'call';
  phoneNumberId: string;
  /** Meta's call id (`wacid.…`): every event of one call carries it. */
  callId: string;
  /** `connect`, `terminate`, or `status` (a status's own value is `status`). */
  event: 'connect' | 'terminate' | 'status';
  /** Who called: the customer (inbound) or the business (outbound; a status is always of such a call). */
  direction: 'inbound' | 'outbound';
  /** The customer: their wa_id digits, or null when Meta names them only by user id. */
  customer: string | null;
  customerUserId: string | null;
  profileName: string | null;
  timestamp: Date;
  /** A terminate's `status` (COMPLETED, FAILED) or a status's (RINGING, ACCEPTED, REJECTED), upper-cased. */
  status: string | null;
  startedAt: Date | null;
  endedAt: Date | null;
  /** Seconds, as Meta counts them. */
  duration: number | null;
  errors: StatusError[];
  /** The event as Meta sent it, without the SDP session (media negotiation Parley has no part in). */
  raw: Json;
}

export type ChannelEvent =
  | InboundMessageEvent
  | GroupEvent
  | CallEvent
  | EchoEvent
  | HistoryEvent
  | ContactBookEvent
  | StatusEvent
  | TemplateStatusEvent
  | TemplateQualityEvent
  | TemplateCategoryEvent
  | MarketingPreferenceEvent
  | AccountEvent;
