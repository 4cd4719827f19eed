import { createHmac, randomUUID } from 'node:crypto';

/** Test builders for webhook bodies in Meta's exact format, and the signature Meta would send with them. */

type Json = Record<string, unknown>;

/** The display number and account id of Meta's documentation examples. */
const EXAMPLE_DISPLAY_PHONE_NUMBER = '15550783881';
const EXAMPLE_WABA_ID = '102290129340398';

export interface BusinessLine {
  phoneNumberId: string;
  displayPhoneNumber?: string;
  wabaId?: string;
}

export interface InboundMessageOptions extends BusinessLine {
  /** The sender, with or without `+`; Meta writes bare digits. */
  from: string;
  name?: string | null;
  wamid?: string;
  timestamp?: Date;
  type: string;
  /** The object Meta puts under the message's type key, e.g. `{ body: 'Hi' }` for text. */
  content: unknown;
  /** The wamid being replied to. */
  replyTo?: string;
}

export interface StatusOptions extends BusinessLine {
  wamid: string;
  status: string;
  recipient: string;
  timestamp?: Date;
  errors?: { code: number; title: string; message?: string; details?: string }[];
}

export interface TemplateStatusOptions {
  wabaId: string;
  templateId: string | number;
  name: string;
  language: string;
  event: string;
  reason?: string;
}

/**
 * A `message_template_quality_update` body, as Meta's webhook reference documents it:
 * `{previous_quality_score, new_quality_score, message_template_id, message_template_name, message_template_language}`.
 */
export function templateQualityWebhook(
  options: Omit<TemplateStatusOptions, 'event' | 'reason'> & { previous: string; quality: string },
): Json {
  const value = {
    previous_quality_score: options.previous,
    new_quality_score: options.quality,
    message_template_id: options.templateId,
    message_template_name: options.name,
    message_template_language: options.language,
  };
  return envelope(options.wabaId, { value, field: 'message_template_quality_update' });
}

/** A webhook body holding one `messages` change with the given value parts (contacts, messages, statuses). */
export function messagesWebhook(line: BusinessLine, parts: Json): Json {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: displayPhoneNumber(line), phone_number_id: line.phoneNumberId },
    ...parts,
  };
  return envelope(line.wabaId, { value, field: 'messages' });
}

/** One inbound message of any type, as Meta delivers it. */
export function inboundMessageWebhook(options: InboundMessageOptions): Json {
  const waId = options.from.replace(/^\+/, '');
  const message: Json = {
    ...(options.replyTo !== undefined && { context: { from: displayPhoneNumber(options), id: options.replyTo } }),
    from: waId,
    id: options.wamid ?? newWamid(),
    timestamp: unixSeconds(options.timestamp ?? new Date()),
    type: options.type,
    [options.type]: options.content,
  };
  const contacts = [{ ...(options.name ? { profile: { name: options.name } } : {}), wa_id: waId }];
  return messagesWebhook(options, { contacts, messages: [message] });
}

/** One inbound text message, as Meta delivers it. */
export function inboundTextWebhook(options: Omit<InboundMessageOptions, 'type' | 'content'> & { text: string }): Json {
  const { text, ...rest } = options;
  return inboundMessageWebhook({ ...rest, type: 'text', content: { body: text } });
}

/** One status update for a message Parley sent; `errors` in Meta's shape when given. */
export function statusWebhook(options: StatusOptions): Json {
  const status = {
    id: options.wamid,
    status: options.status,
    timestamp: unixSeconds(options.timestamp ?? new Date()),
    recipient_id: options.recipient.replace(/^\+/, ''),
    ...(options.errors && { errors: options.errors.map(metaError) }),
  };
  return messagesWebhook(options, { statuses: [status] });
}

/** A `message_template_status_update` body. */
export function templateStatusWebhook(options: TemplateStatusOptions): Json {
  const value = {
    event: options.event,
    message_template_id: options.templateId,
    message_template_name: options.name,
    message_template_language: options.language,
    reason: options.reason ?? 'NONE',
  };
  return envelope(options.wabaId, { value, field: 'message_template_status_update' });
}

/**
 * A `template_category_update` body, in the two forms of Meta's webhook reference
 * (reference/template_category_update/): the notice a day ahead (`correct_category` the category the
 * template will get at `category_update_timestamp`; `new_category` is then its current one) and the
 * change done (`previous_category`, `new_category`).
 */
export function templateCategoryWebhook(
  options: { wabaId: string; templateId: number; name: string; language: string } & (
    { notice: { current: string; correct: string; at: Date } } | { done: { previous: string; now: string } }
  ),
): Json {
  const template = {
    message_template_id: options.templateId,
    message_template_name: options.name,
    message_template_language: options.language,
  };
  const value =
    'notice' in options
      ? {
          ...template,
          correct_category: options.notice.correct,
          new_category: options.notice.current,
          category_update_timestamp: Math.floor(options.notice.at.getTime() / 1000),
        }
      : { ...template, previous_category: options.done.previous, new_category: options.done.now };
  return envelope(options.wabaId, { value, field: 'template_category_update' });
}

/**
 * A `phone_number_quality_update` body, as Meta's webhook reference shows it (its example: event
 * THROUGHPUT_UPGRADE, current_limit TIER_UNLIMITED; `old_limit` only for messaging limit changes,
 * `max_daily_conversations_per_business` replacing `current_limit` from 2026). The number is named by display number.
 */
export function phoneNumberQualityWebhook(options: {
  wabaId: string;
  displayPhoneNumber: string;
  event: string;
  currentLimit?: string;
  oldLimit?: string;
  maxDailyConversations?: string;
}): Json {
  const value = {
    display_phone_number: options.displayPhoneNumber,
    event: options.event,
    ...(options.oldLimit !== undefined && { old_limit: options.oldLimit }),
    ...(options.currentLimit !== undefined && { current_limit: options.currentLimit }),
    ...(options.maxDailyConversations !== undefined && {
      max_daily_conversations_per_business: options.maxDailyConversations,
    }),
  };
  return envelope(options.wabaId, { value, field: 'phone_number_quality_update' });
}

/** The `X-Hub-Signature-256` value Meta sends with this exact body. */
export function signBody(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function envelope(wabaId: string | undefined, change: Json): Json {
  return { object: 'whatsapp_business_account', entry: [{ id: wabaId ?? EXAMPLE_WABA_ID, changes: [change] }] };
}

function displayPhoneNumber(line: BusinessLine): string {
  return line.displayPhoneNumber ?? EXAMPLE_DISPLAY_PHONE_NUMBER;
}

function metaError(error: NonNullable<StatusOptions['errors']>[number]): Json {
  return {
    code: error.code,
    title: error.title,
    ...(error.message !== undefined && { message: error.message }),
    ...(error.details !== undefined && { error_data: { details: error.details } }),
  };
}

function newWamid(): string {
  return `wamid.${Buffer.from(randomUUID()).toString('base64')}`;
}

function unixSeconds(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}

/**
 * Inbound messages in the shapes of Meta's "messages" webhook reference pages
 * (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/…),
 * with the example values those pages use. Each builder names the page it follows; `from` is a
 * WhatsApp user's wa_id (digits), `wamid` the new message's id.
 */
export const documented = {
  /** …/messages/text: a reply (`context` with the quoted message's wamid and the business number). */
  reply: (from: string, wamid: string, quoted: string, body: string): Json => ({
    context: { from: EXAMPLE_DISPLAY_PHONE_NUMBER, id: quoted },
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'text',
    text: { body },
  }),

  /** …/messages/text: a forwarded text (`context.forwarded`; `frequently_forwarded` past 5 hops). */
  forwarded: (from: string, wamid: string, frequently = false): Json => ({
    context: frequently ? { frequently_forwarded: true } : { forwarded: true },
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'text',
    text: { body: 'Check out this deal!' },
  }),

  /** …/messages/text: the "Message business" button of a product message (`context.referred_product`). */
  productEnquiry: (from: string, wamid: string, quoted: string): Json => ({
    context: {
      from: EXAMPLE_DISPLAY_PHONE_NUMBER,
      id: quoted,
      referred_product: { catalog_id: '194836987003835', product_retailer_id: 'di9ozbzfi4' },
    },
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'text',
    text: { body: 'Is this in stock?' },
  }),

  /** …/messages/text: a first message sent from a click-to-WhatsApp ad (`referral`). */
  fromAd: (from: string, wamid: string): Json => ({
    referral: {
      source_url: 'https://fb.me/3cr4Wqqkv',
      source_id: '120226305854810726',
      source_type: 'ad',
      body: 'Chat with us',
      headline: 'Chat with Lucky Shrub!',
      media_type: 'image',
      image_url: 'https://scontent.xx.fbcdn.net/v/t45.1600-4/407953217_n.png',
      ctwa_clid:
        'Aff-n8ZTODiE79d22KtAwQKj9e_mIEOOj27vDVwFjN80dp4_0NiNhEgpGo0AHemvuSoifXaytfTzcchptiErTKCqTrJ5nW1h7IHYeYymGb5K5J5iVROpBhWAGaIAeUzHL50',
      welcome_message: { text: 'Hi there! Let us know how we can help!' },
    },
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'text',
    text: { body: 'Can I get more info about this?' },
  }),

  /**
   * A completed WhatsApp Flow, as Meta's "Receiving Flow Response" page
   * (developers.facebook.com/documentation/business-messaging/whatsapp/flows/guides/receiveflowresponse)
   * shows it: an interactive `nfm_reply` named "flow", body "Sent", its `response_json` a string holding the
   * send's `flow_token` and the fields, in reply (`context`) to the Flow message.
   */
  flowResponse: (from: string, wamid: string, quoted: string, responseJson: Json): Json => ({
    context: { from: EXAMPLE_DISPLAY_PHONE_NUMBER, id: quoted },
    from,
    id: wamid,
    type: 'interactive',
    interactive: {
      type: 'nfm_reply',
      nfm_reply: { name: 'flow', body: 'Sent', response_json: JSON.stringify(responseJson) },
    },
    timestamp: unixSeconds(new Date()),
  }),

  /** …/messages/reaction: a reaction to a message (an empty `emoji` removes it). */
  reaction: (from: string, wamid: string, reactedTo: string, emoji: string): Json => ({
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'reaction',
    reaction: { message_id: reactedTo, emoji },
  }),

  /** …/messages/edit: the new version of a message, whole, under `edit.message`. */
  edit: (from: string, wamid: string, original: string, body: string): Json => ({
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'edit',
    edit: { original_message_id: original, message: { type: 'text', text: { body } } },
  }),

  /** …/messages/revoke: the user deleted a message for everyone. */
  revoke: (from: string, wamid: string, original: string): Json => ({
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'revoke',
    revoke: { original_message_id: original },
  }),

  /** …/messages/system: `user_changed_number` (sent without a `contacts` array). */
  changedNumber: (from: string, wamid: string, newWaId: string): Json => ({
    from,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'system',
    system: {
      body: `User Sheena Nelson changed from ${from} to ${newWaId}`,
      wa_id: newWaId,
      type: 'user_changed_number',
    },
  }),

  /**
   * …/messages/system: `user_changed_user_id` (changelog of Aug 11, 2026): the user's BSUID changed and no
   * phone number is shared; the previous id is reported beside the new one.
   */
  changedUserId: (previousUserId: string, userId: string, wamid: string): Json => ({
    from_user_id: userId,
    id: wamid,
    timestamp: unixSeconds(new Date()),
    type: 'system',
    system: {
      body: 'User Sheena Nelson changed their user ID',
      type: 'user_changed_user_id',
      previous_user_id: previousUserId,
      user_id: userId,
    },
  }),

  /**
   * …/business-scoped-user-ids: a message from a user known by business-scoped user id only (no
   * `from`, `from_user_id` instead; the contact has `user_id` and a username, no wa_id).
   */
  fromUserIdOnly: (userId: string, wamid: string, body: string): { contacts: Json[]; messages: Json[] } => ({
    contacts: [{ profile: { name: 'Sheena Nelson', username: '@sheena.nelson' }, user_id: userId }],
    messages: [{ from_user_id: userId, id: wamid, timestamp: unixSeconds(new Date()), type: 'text', text: { body } }],
  }),

  /**
   * …/business-scoped-user-ids: the sender named only in `contacts[]` (no `from`, no `from_user_id`), with
   * the parent user id of a managed business's portfolios and the user's country code.
   */
  contactUserIdOnly: (userId: string, wamid: string, body: string): { contacts: Json[]; messages: Json[] } => ({
    contacts: [
      {
        profile: { name: 'Sheena Nelson', username: '@sheena.nelson' },
        user_id: userId,
        parent_user_id: 'US.ENT.11815799212886844830',
        country_code: 'US',
      },
    ],
    messages: [{ id: wamid, timestamp: unixSeconds(new Date()), type: 'text', text: { body } }],
  }),
};

/** A `messages` change holding one documented message from `from`, with their profile unless `contacts` is given. */
export function documentedWebhook(line: BusinessLine, message: Json, contacts?: Json[]): Json {
  const waId = message.from;
  return messagesWebhook(line, {
    contacts: contacts ?? [{ profile: { name: 'Sheena Nelson' }, wa_id: waId }],
    messages: [message],
  });
}
