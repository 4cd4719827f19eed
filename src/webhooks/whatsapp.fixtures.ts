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
