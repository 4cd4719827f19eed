import { makeStorable } from '../shared/storable-json.js';
import {
  MESSAGE_TYPES,
  type MessageType,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  type InboundMessageEvent,
  type Amendment,
  type StatusError,
  type StatusEvent,
  type StatusDelivery,
  type AccountEvent,
  type TemplateStatusEvent,
  type TemplateCategoryEvent,
  type TemplateQualityEvent,
  type MarketingPreferenceEvent,
  type ChannelEvent,
  type ContactBookEvent,
  type EchoEvent,
  type HistoryEvent,
  type HistoryMessage,
  type GroupEvent,
  type GroupParticipant,
  type CallEvent,
} from '../channels/index.js';

/**
 * Meta's webhook body (`object: whatsapp_business_account`, `entry[].changes[]`) read into plain events.
 * Tolerant of fields Meta adds; an item lacking what Parley needs (wamid, sender, timestamp) is skipped,
 * never thrown, so one odd item cannot make Meta retry a whole batch.
 */

type Json = Record<string, unknown>;

/**
 * A delivery's JSON (its signature already checked), every string made storable: an unstorable
 * character becomes U+FFFD, so the customer's message is kept, and stored alike by SQLite and
 * PostgreSQL. Undefined when the bytes are not JSON.
 */
export function readWebhookJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'), (_key, value: unknown) =>
      typeof value === 'string' ? makeStorable(value) : value,
    );
  } catch {
    return undefined;
  }
}

/** The events in a webhook body, in body order; null when the body is not a WhatsApp Business Account webhook. */
export function parseWebhook(body: unknown): ChannelEvent[] | null {
  if (!isRecord(body) || body.object !== 'whatsapp_business_account') return null;
  return records(body.entry).flatMap((entry) => records(entry.changes).flatMap((change) => parseChange(entry, change)));
}

function parseChange(entry: Json, change: Json): ChannelEvent[] {
  const value = record(change.value);
  switch (change.field) {
    case 'messages':
    case 'user_preferences': // same value shape, with `user_preferences[]` instead of `messages[]`
      return parseMessagesChange(value);
    case 'message_template_status_update':
      return compact([templateStatus(entry, value)]);
    case 'message_template_quality_update':
      return compact([templateQuality(entry, value)]);
    case 'template_category_update':
      // Applied to the template, and kept in the event log as Meta sent it.
      return compact([templateCategory(entry, value), accountEvent(entry, change.field, value)]);
    case 'group_lifecycle_update':
    case 'group_participants_update':
    case 'group_settings_update':
    case 'group_status_update':
      // Applied to the group, and kept in the event log as Meta sent it.
      return [...parseGroupChanges(value), ...compact([accountEvent(entry, change.field, value)])];
    case 'smb_message_echoes':
      return parseEchoes(value);
    case 'history':
      return parseHistory(value);
    case 'calls':
      // Each call is kept in its conversation, and the change recorded as Meta sent it.
      return [...parseCalls(value), ...compact([accountEvent(entry, change.field, value)])];
    case 'smb_app_state_sync':
      // The contact book is applied, and each change recorded as Meta sent it (a removal deletes no contact).
      return [...parseContactBook(value), ...compact([accountEvent(entry, change.field, value)])];
    default:
      // Nothing is dropped silently: a field Parley does not model is recorded with Meta's raw value.
      return compact([accountEvent(entry, change.field, value)]);
  }
}

interface BusinessLine {
  phoneNumberId: string;
  displayPhoneNumber: string | null;
}

function parseMessagesChange(value: Json): ChannelEvent[] {
  const metadata = record(value.metadata);
  const phoneNumberId = idText(metadata.phone_number_id);
  // Without it the change cannot be routed to a workspace.
  if (phoneNumberId === null) return [];
  const line = { phoneNumberId, displayPhoneNumber: text(metadata.display_phone_number) };
  const contacts = records(value.contacts);
  return compact([
    ...records(value.messages).map((message) => inboundMessage(message, line, contacts)),
    ...records(value.statuses).map((status) => deliveryStatus(status, phoneNumberId)),
    ...records(value.user_preferences).map((preference) => marketingPreference(preference, phoneNumberId, contacts)),
    ...valueErrors(value, phoneNumberId),
    ...userActions(value, phoneNumberId),
  ]);
}

/**
 * Meta's Marketing Messages API click reports, `value.user_actions[]` (action_type
 * `marketing_messages_link_click`: the click's component, id and tracking token). Meta names neither the
 * message nor the customer, so each is kept in the event log as Meta sent it, under its action type.
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/marketing-messages/track-click-events
 */
function userActions(value: Json, phoneNumberId: string): AccountEvent[] {
  return records(value.user_actions).flatMap((raw) => {
    const field = text(raw.action_type);
    if (field === null) return [];
    const component = text(record(raw[`${field}_data`]).click_component);
    const summary = [field.replaceAll('_', ' '), component].filter((part) => part !== null).join(': ');
    return [
      {
        kind: 'account_event',
        phoneNumberId,
        wabaId: null,
        field,
        summary,
        details: raw,
        occurredAt: unixTime(raw.timestamp),
      },
    ];
  });
}

function inboundMessage(raw: Json, line: BusinessLine, contacts: Json[]): InboundMessageEvent | null {
  const wamid = text(raw.id);
  const from = waId(raw.from);
  const sender = senderOf(contacts, raw);
  // Meta may name a sender who has a username only by their business-scoped user id, in `contacts[]`.
  const userId = text(raw.from_user_id) ?? (from === null ? text(sender?.user_id) : null);
  const timestamp = unixTime(raw.timestamp);
  if (wamid === null || (from === null && userId === null) || timestamp === null) return null;
  const amends = amendment(raw);
  // An edit carries the new version of the message, whole, under `edit.message`.
  const message = amends?.kind === 'edit' ? record(record(raw.edit).message) : raw;
  const { type, content } = messageContent(message);
  const identity = senderIdentity(sender);
  return {
    kind: 'message',
    ...line,
    from,
    userId,
    profileName: text(record(sender?.profile).name),
    wamid,
    timestamp,
    type,
    content: identity === null ? content : { ...content, sender: identity },
    amends,
    groupId: text(raw.group_id),
  };
}

/**
 * What Meta says of the sender beyond their number (business-scoped user ids, since 2026): their
 * `user_id`, `parent_user_id` (shared across a managed business's portfolios), `username` and
 * `country_code`, kept on the message; null when Meta names none of them.
 */
function senderIdentity(sender: Json | undefined): Json | null {
  const profile = record(sender?.profile);
  const identity = Object.fromEntries(
    (
      [
        ['user_id', text(sender?.user_id)],
        ['parent_user_id', text(sender?.parent_user_id)],
        ['username', text(profile.username)],
        ['country_code', text(sender?.country_code)],
      ] as const
    ).filter(([, value]) => value !== null),
  );
  return Object.keys(identity).length > 0 ? identity : null;
}

/**
 * Meta's smb_message_echoes: what the business sent from the WhatsApp Business app. Each echo reads
 * like an inbound message of that type (`from` is the business's own number, `to` the customer).
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/smb_message_echoes
 */
function parseEchoes(value: Json): EchoEvent[] {
  const phoneNumberId = businessNumberOf(value);
  if (phoneNumberId === null) return [];
  return compact(
    records(value.message_echoes).map((raw) => {
      const wamid = text(raw.id);
      const to = waId(raw.to);
      const toUserId = text(raw.to_user_id);
      const timestamp = unixTime(raw.timestamp);
      if (wamid === null || (to === null && toUserId === null) || timestamp === null) return null;
      const amends = amendment(raw);
      const { type, content } = messageContent(amends?.kind === 'edit' ? record(record(raw.edit).message) : raw);
      return { kind: 'echo', phoneNumberId, to, toUserId, wamid, timestamp, type, content, amends } as const;
    }),
  );
}

/**
 * Meta's group webhooks: `value.groups[]`, each a change to one group (created or deleted, people joined
 * or left, subject or description changed, suspended or cleared). Settings changes name each setting
 * with `update_successful`; one Meta refused changes nothing.
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/groups/webhooks
 */
function parseGroupChanges(value: Json): GroupEvent[] {
  const phoneNumberId = businessNumberOf(value);
  if (phoneNumberId === null) return [];
  return compact(
    records(value.groups).map((raw): GroupEvent | null => {
      const type = text(raw.type);
      if (type === null) return null;
      return {
        kind: 'group',
        phoneNumberId,
        groupId: text(raw.group_id),
        type,
        requestId: text(raw.request_id),
        subject: groupSetting(raw, 'subject'),
        description: groupSetting(raw, 'description'),
        inviteLink: text(raw.invite_link),
        joined: groupParticipants(raw.added_participants),
        left: groupParticipants(raw.removed_participants),
        failed: records(raw.errors).length > 0,
        occurredAt: unixTime(raw.timestamp),
      };
    }),
  );
}

/** A subject or description: given plainly on a create, as `group_<name>: { text, update_successful }` on a change. */
function groupSetting(raw: Json, name: 'subject' | 'description'): string | null {
  const setting = record(raw[`group_${name}`]);
  if (setting.update_successful === false) return null;
  return text(setting.text) ?? text(raw[name]);
}

function groupParticipants(value: unknown): GroupParticipant[] {
  return compact(
    records(value).map((raw) => {
      const participant = { wa_id: waId(raw.wa_id), user_id: text(raw.user_id) };
      return participant.wa_id === null && participant.user_id === null ? null : participant;
    }),
  );
}

/** history_context.status of a message the business sent, in Parley's delivery statuses. */
const HISTORY_STATUSES: Record<string, DeliveryStatus> = {
  PENDING: 'sent',
  SENT: 'sent',
  DELIVERED: 'delivered',
  READ: 'read',
  PLAYED: 'read',
  ERROR: 'failed',
};

/**
 * Meta's history: chunks of the chat history the business had in the WhatsApp Business app, each
 * thread named by the customer's number; a message `from` that number is theirs, else the business's.
 * A declined share arrives as `errors` instead of threads.
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/history
 */
function parseHistory(value: Json): HistoryEvent[] {
  const phoneNumberId = businessNumberOf(value);
  if (phoneNumberId === null) return [];
  return records(value.history).map((chunk) => {
    const metadata = record(chunk.metadata);
    const declined = records(chunk.errors)
      .map(statusError)
      .find((error) => error !== null);
    return {
      kind: 'history',
      phoneNumberId,
      phase: wholeNumber(metadata.phase),
      chunkOrder: wholeNumber(metadata.chunk_order),
      progress: wholeNumber(metadata.progress),
      threads: compact(records(chunk.threads).map(historyThread)),
      declined: declined ? (declined.details ?? declined.title) : null,
    };
  });
}

function historyThread(thread: Json): HistoryEvent['threads'][number] | null {
  const customer = waId(thread.id);
  if (customer === null) return null;
  const messages = compact(
    records(thread.messages).map((raw): HistoryMessage | null => {
      const wamid = text(raw.id);
      const timestamp = unixTime(raw.timestamp);
      if (wamid === null || timestamp === null) return null;
      const inbound = waId(raw.from) === customer;
      const status = text(record(raw.history_context).status) ?? '';
      return {
        direction: inbound ? 'inbound' : 'outbound',
        wamid,
        timestamp,
        ...messageContent(raw),
        status: inbound ? 'received' : (HISTORY_STATUSES[status] ?? 'sent'),
      };
    }),
  );
  return { customer, messages };
}

/**
 * Meta's smb_app_state_sync: the WhatsApp Business app's contact book, entry by entry.
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/smb_app_state_sync
 */
function parseContactBook(value: Json): ContactBookEvent[] {
  const phoneNumberId = businessNumberOf(value);
  if (phoneNumberId === null) return [];
  return compact(
    records(value.state_sync).map((raw) => {
      const contact = record(raw.contact);
      const phone = waId(contact.phone_number);
      const action = raw.action;
      if (raw.type !== 'contact' || phone === null || (action !== 'add' && action !== 'remove')) return null;
      const fullName = action === 'add' ? (text(contact.full_name) ?? text(contact.first_name)) : null;
      return { kind: 'contact_book', phoneNumberId, phone, fullName, action } as const;
    }),
  );
}

/**
 * Meta's calls: a call's connect and terminate (`calls[]`) and a business-initiated call's status
 * (`statuses[]` of type `call`). The customer is the caller of a user-initiated call, else the callee.
 * References: developers.facebook.com/documentation/business-messaging/whatsapp/calling/user-initiated-calls,
 * …/calling/business-initiated-calls
 */
function parseCalls(value: Json): CallEvent[] {
  const phoneNumberId = businessNumberOf(value);
  if (phoneNumberId === null) return [];
  const business = waId(record(value.metadata).display_phone_number);
  const contacts = records(value.contacts);
  const errors = compact(records(value.errors).map(statusError));
  const calls = records(value.calls).map((raw) => callEvent(raw, phoneNumberId, business, contacts, errors));
  const statuses = records(value.statuses)
    .filter((raw) => raw.type === 'call')
    .map((raw) => callStatus(raw, phoneNumberId, contacts, errors));
  return compact([...calls, ...statuses]);
}

function callEvent(
  raw: Json,
  phoneNumberId: string,
  business: string | null,
  contacts: Json[],
  errors: StatusError[],
): CallEvent | null {
  const callId = text(raw.id);
  const event = raw.event;
  const timestamp = unixTime(raw.timestamp);
  if (callId === null || (event !== 'connect' && event !== 'terminate') || timestamp === null) return null;
  const direction = callDirection(raw, business);
  const [customer, customerUserId] =
    direction === 'inbound' ? [waId(raw.from), text(raw.from_user_id)] : [waId(raw.to), text(raw.to_user_id)];
  if (customer === null && customerUserId === null) return null;
  return {
    kind: 'call',
    phoneNumberId,
    callId,
    event,
    direction,
    customer,
    customerUserId,
    profileName: text(record(senderOf(contacts, { from: customer ?? undefined })?.profile).name),
    timestamp,
    status: text(raw.status)?.toUpperCase() ?? null,
    startedAt: unixTime(raw.start_time),
    endedAt: unixTime(raw.end_time),
    duration: wholeNumber(raw.duration),
    errors: [...compact(records(raw.errors).map(statusError)), ...errors],
    raw: withoutKeys(raw, ['session', 'connection']),
  };
}

/** Meta's `direction`; a connect without one is the customer's when it does not come from the business number. */
function callDirection(raw: Json, business: string | null): 'inbound' | 'outbound' {
  if (raw.direction === 'USER_INITIATED') return 'inbound';
  if (raw.direction === 'BUSINESS_INITIATED') return 'outbound';
  return business !== null && waId(raw.from) === business ? 'outbound' : 'inbound';
}

/** A business-initiated call's RINGING, ACCEPTED or REJECTED, named by its call id. */
function callStatus(raw: Json, phoneNumberId: string, contacts: Json[], errors: StatusError[]): CallEvent | null {
  const callId = text(raw.id);
  const timestamp = unixTime(raw.timestamp);
  const customer = waId(raw.recipient_id);
  const customerUserId = text(raw.recipient_user_id);
  const status = text(raw.status);
  if (callId === null || timestamp === null || status === null || (customer === null && customerUserId === null)) {
    return null;
  }
  return {
    kind: 'call',
    phoneNumberId,
    callId,
    event: 'status',
    direction: 'outbound',
    customer,
    customerUserId,
    profileName: text(record(senderOf(contacts, { from: customer ?? undefined })?.profile).name),
    timestamp,
    status: status.toUpperCase(),
    startedAt: null,
    endedAt: null,
    duration: null,
    errors: [...compact(records(raw.errors).map(statusError)), ...errors],
    raw,
  };
}

function amendment(raw: Json): Amendment | null {
  const kind = raw.type;
  if (kind !== 'edit' && kind !== 'revoke') return null;
  const originalWamid = text(record(raw[kind]).original_message_id);
  return originalWamid === null ? null : { kind, originalWamid };
}

/**
 * The sender's `contacts[]` entry: the one with their wa_id or user id, or the only one, as wa_id and
 * `from` may differ (Mexico, Argentina).
 */
function senderOf(contacts: Json[], raw: Json): Json | undefined {
  return (
    contacts.find(
      (contact) =>
        (raw.from !== undefined && contact.wa_id === raw.from) ||
        (raw.from_user_id !== undefined && contact.user_id === raw.from_user_id),
    ) ?? (contacts.length === 1 ? contacts[0] : undefined)
  );
}

function messageContent(raw: Json): { type: MessageType; content: Json } {
  const { type, content } = typeContent(raw);
  return { type, content: { ...content, ...envelope(raw) } };
}

/** What Meta sends beside the type object: reply/forward `context`, ad `referral`, `identity`. */
function envelope(raw: Json): Json {
  return Object.fromEntries(
    (['context', 'referral', 'identity'] as const).filter((key) => isRecord(raw[key])).map((key) => [key, raw[key]]),
  );
}

function typeContent(raw: Json): { type: MessageType; content: Json } {
  const metaType = text(raw.type) ?? 'unknown';
  switch (metaType) {
    case 'contacts':
      return { type: 'contacts', content: { contacts: records(raw.contacts) } };
    case 'interactive':
      // `{ type: 'list_reply', list_reply: {…} }` → `{ list_reply: {…} }`: the key already names the reply kind.
      return { type: 'interactive', content: withoutKey(record(raw.interactive), 'type') };
    case 'unsupported':
    case 'unknown':
      return { type: 'unsupported', content: withErrors(record(raw.unsupported), raw) };
  }
  if (isMessageType(metaType)) return { type: metaType, content: record(raw[metaType]) };
  // A type newer than this code is kept, under its own name, as an unsupported message rather than dropped.
  return { type: 'unsupported', content: withErrors({ ...record(raw[metaType]), type: metaType }, raw) };
}

function withErrors(content: Json, raw: Json): Json {
  return Array.isArray(raw.errors) ? { ...content, errors: raw.errors } : content;
}

function deliveryStatus(raw: Json, phoneNumberId: string): StatusEvent | null {
  const wamid = text(raw.id);
  const status = raw.status;
  const timestamp = unixTime(raw.timestamp);
  if (wamid === null || timestamp === null || text(status) === null) return null;
  return {
    kind: 'status',
    phoneNumberId,
    wamid,
    // Other statuses (`played`, `deleted`, `warning`, …) change no status; their pricing is still kept.
    status: isDeliveryStatus(status) ? status : null,
    timestamp,
    recipient: e164(raw.recipient_id),
    errors: compact(records(raw.errors).map(statusError)),
    delivery: statusDelivery(raw),
  };
}

function statusDelivery(raw: Json): StatusDelivery {
  const pricing = isRecord(raw.pricing) ? raw.pricing : null;
  const conversation = isRecord(raw.conversation) ? raw.conversation : null;
  const expiration = conversation && unixTime(conversation.expiration_timestamp);
  return {
    pricing: pricing && {
      billable: typeof pricing.billable === 'boolean' ? pricing.billable : null,
      pricing_model: text(pricing.pricing_model),
      category: text(pricing.category),
      type: text(pricing.type),
    },
    conversation: conversation && {
      id: text(conversation.id),
      origin_type: text(record(conversation.origin).type),
      expires_at: expiration ? expiration.toISOString() : null,
    },
    biz_opaque_callback_data: text(raw.biz_opaque_callback_data),
  };
}

function statusError(raw: Json): StatusError | null {
  const code = raw.code;
  if (typeof code !== 'number') return null;
  const message = text(raw.message);
  const details = text(record(raw.error_data).details);
  return {
    code,
    title: text(raw.title) ?? message ?? 'Unknown error',
    ...(message !== null && { message }),
    ...(details !== null && { details }),
  };
}

/** One `user_preferences` item; other categories than `marketing_messages` change nothing Parley tracks. */
function marketingPreference(raw: Json, phoneNumberId: string, contacts: Json[]): MarketingPreferenceEvent | null {
  const from = e164(raw.wa_id);
  const value = raw.value;
  if (from === null || raw.category !== 'marketing_messages' || (value !== 'stop' && value !== 'resume')) return null;
  return {
    kind: 'marketing_preference',
    phoneNumberId,
    from,
    profileName: text(record(senderOf(contacts, { from: raw.wa_id })?.profile).name),
    value,
  };
}

/** A template webhook's template: Meta's id, name and language, on its account; null when one is missing. */
type NamedTemplate = Pick<TemplateStatusEvent, 'wabaId' | 'templateId' | 'templateName' | 'language'>;

function namedTemplate(entry: Json, value: Json): NamedTemplate | null {
  const wabaId = idText(entry.id);
  const templateId = idText(value.message_template_id);
  const templateName = text(value.message_template_name);
  const language = text(value.message_template_language);
  if (wabaId === null || templateId === null || templateName === null || language === null) return null;
  return { wabaId, templateId, templateName, language };
}

function templateStatus(entry: Json, value: Json): TemplateStatusEvent | null {
  const template = namedTemplate(entry, value);
  const status = text(value.event);
  if (template === null || status === null) return null;
  const reason = text(value.reason);
  return { kind: 'template_status', ...template, status, reason: reason === 'NONE' ? null : reason };
}

/** Meta's documented message_template_quality_update value: `new_quality_score` for the template id, name and language. */
function templateQuality(entry: Json, value: Json): TemplateQualityEvent | null {
  const template = namedTemplate(entry, value);
  const quality = text(value.new_quality_score);
  return template === null || quality === null ? null : { kind: 'template_quality', ...template, quality };
}

/**
 * Meta's template_category_update, in its two documented forms: the notice a day ahead
 * (`correct_category` the category it will get at `category_update_timestamp`, `new_category` the current
 * one) and the change done (`previous_category`, `new_category`).
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/template_category_update
 */
function templateCategory(entry: Json, value: Json): TemplateCategoryEvent | null {
  const template = namedTemplate(entry, value);
  const category = text(value.new_category);
  if (template === null || category === null) return null;
  const correct = text(value.correct_category);
  const at = unixTime(value.category_update_timestamp);
  const upcoming = correct !== null && at !== null ? { category: correct.toUpperCase(), at } : null;
  return { kind: 'template_category', ...template, category: category.toUpperCase(), upcoming };
}

/**
 * A change of a field other than messages and templates: the fields the event log names (META_EVENT_LOG_FIELDS)
 * and any other, recorded whole. Routed by the business number it names (`metadata.phone_number_id`,
 * as calls, echoes and history carry), else by the account.
 */
function accountEvent(entry: Json, field: unknown, value: Json): AccountEvent | null {
  if (typeof field !== 'string' || field === '') return null;
  const wabaId = idText(entry.id);
  const phoneNumberId = businessNumberOf(value);
  if (wabaId === null && phoneNumberId === null) return null;
  const event = text(value.event) ?? text(value.decision) ?? text(record(value.alert_info).alert_type);
  return {
    kind: 'account_event',
    phoneNumberId,
    wabaId,
    field,
    summary: [field.replaceAll('_', ' '), event, text(value.display_phone_number) ?? text(value.phone_number)]
      .filter((part) => part !== null)
      .join(': '),
    details: value,
    occurredAt: unixTime(entry.time),
  };
}

/** A messages change's `value.errors`: Meta could not deliver something to the business (e.g. 130429). */
function valueErrors(value: Json, phoneNumberId: string): AccountEvent[] {
  return records(value.errors).flatMap((raw) => {
    const error = statusError(raw);
    if (error === null) return [];
    const summary = `error ${error.code}: ${error.title}`;
    return [
      { kind: 'account_event', phoneNumberId, wabaId: null, field: 'errors', summary, details: raw, occurredAt: null },
    ];
  });
}

function isMessageType(value: string): value is MessageType {
  return (MESSAGE_TYPES as readonly string[]).includes(value);
}

function isDeliveryStatus(value: unknown): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly unknown[]).includes(value);
}

/**
 * A wa_id as Meta wrote it (international digits, no `+`), kept raw: whether it is a valid phone
 * number (Mexico's `521…` is not) is decided where the sender is stored, so no message is dropped here.
 */
function waId(value: unknown): string | null {
  const digits = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  return typeof digits === 'string' && /^\+?\d{1,20}$/.test(digits) ? digits.replace(/^\+/, '') : null;
}

/** Meta writes WhatsApp ids as international digits without `+`. */
function e164(value: unknown): string | null {
  return typeof value === 'string' && /^\d{6,15}$/.test(value) ? `+${value}` : null;
}

/** Meta sends unix seconds as a string; a number is accepted too. */
function unixTime(value: unknown): Date | null {
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? new Date(seconds * 1000) : null;
}

/** The business number a change names (`metadata.phone_number_id`), which routes it to a workspace. */
function businessNumberOf(value: Json): string | null {
  return idText(record(value.metadata).phone_number_id);
}

function wholeNumber(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

/** Graph ids are usually strings but some (message_template_id) arrive as JSON numbers. */
function idText(value: unknown): string | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : text(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function withoutKey(value: Json, key: string): Json {
  return withoutKeys(value, [key]);
}

function withoutKeys(value: Json, keys: string[]): Json {
  return Object.fromEntries(Object.entries(value).filter(([name]) => !keys.includes(name)));
}

function compact<T>(items: (T | null)[]): T[] {
  return items.filter((item): item is T => item !== null);
}
