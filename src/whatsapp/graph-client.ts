import { Agent, FormData, request, type Dispatcher } from 'undici';
import { systemClock, type Clock } from '../shared/clock.js';
import {
  ChannelError,
  type ChannelFlow,
  type ChannelTemplate,
  type CloudNumber,
  type FlowValidationError,
  type LibraryTemplateSubmission,
  type MediaFile,
  type NumberDescription,
  type TemplateComponent,
} from '../channels/index.js';

/**
 * The outbound side of the WhatsApp Cloud API: a keep-alive client for Meta's Graph API, the
 * classified error it raises, and builders for Meta's documented message payloads.
 */

export interface GraphClientOptions {
  /** `WHATSAPP_GRAPH_URL`, e.g. https://graph.facebook.com */
  graphUrl: string;
  /** `WHATSAPP_API_VERSION`, e.g. v23.0 */
  apiVersion: string;
  /** Applies to connecting, to the response headers and to the body, so a hung call cannot stall a worker. */
  timeoutMs?: number;
  clock?: Clock;
  /** The largest media download accepted; default 100 MB, Meta's largest media (documents). */
  maxMediaBytes?: number;
}

/**
 * Where a message is sent: Cloud API's `/{phone-number-id}/messages`, or Meta's Marketing Messages API
 * (`/marketing_messages`: the same request, for marketing templates only).
 */
export type SendEndpoint = 'messages' | 'marketing_messages';

export interface GraphClient {
  /** Sends one message; resolves with Meta's message id (`wamid.…`), or throws a GraphError. */
  sendMessage(
    phoneNumberId: string,
    accessToken: string,
    payload: object,
    endpoint?: SendEndpoint,
  ): Promise<{ wamid: string }>;
  /**
   * Marks a received message read (Meta shows the customer blue ticks), with Meta's typing indicator
   * when `typing` (shown until the reply, or 25 s); throws a GraphError.
   */
  markRead(phoneNumberId: string, accessToken: string, wamid: string, typing?: boolean): Promise<void>;
  /** Meta's "Upload media": the file as multipart form data; resolves with Meta's media id. */
  uploadMedia(phoneNumberId: string, accessToken: string, file: MediaFile): Promise<{ id: string }>;
  /** Every template of a WhatsApp Business Account, fetching Meta's pages as they are consumed. */
  listTemplates(wabaId: string, accessToken: string): AsyncIterable<ChannelTemplate>;
  /** Submits one template translation for review: `POST /{waba_id}/message_templates`. */
  createTemplate(
    wabaId: string,
    accessToken: string,
    template: NewMetaTemplate | LibraryTemplateSubmission,
  ): Promise<CreatedMetaTemplate>;
  /** One template translation with its components: `GET /{template_id}`. */
  getTemplate(metaTemplateId: string, accessToken: string): Promise<ChannelTemplate>;
  /** Edits a submitted translation (Meta reviews it again): `POST /{template_id}`. */
  editTemplate(metaTemplateId: string, accessToken: string, edit: MetaTemplateEdit): Promise<void>;
  /** Deletes a template by name (every language), or one translation with its id as `hsm_id`. */
  deleteTemplate(wabaId: string, accessToken: string, name: string, metaTemplateId?: string): Promise<void>;
  /**
   * What Meta says, asked with `accessToken`, about connecting a business phone number: the number as
   * the token reads it, if WhatsApp Business Account `wabaId` lists it among its numbers. Throws a
   * (retryable) GraphError only when Meta could not be asked; a refusal is an answer.
   */
  describeNumber(phoneNumberId: string, wabaId: string, accessToken: string): Promise<NumberDescription>;
  /** Meta's Groups API "Create group": `POST /{phone-number-id}/groups`; resolves with its `request_id`. */
  createGroup(phoneNumberId: string, accessToken: string, group: object): Promise<{ request_id: string }>;
  /** Meta's Groups API "Get group invite link": `GET /{group-id}/invite_link`. */
  groupInviteLink(groupId: string, accessToken: string): Promise<{ invite_link: string }>;
  /**
   * Meta's "Set business public key" for WhatsApp Flows: `POST /{phone-number-id}/whatsapp_business_encryption`
   * with `business_public_key` (PEM) as multipart form data; Meta signs it and it replaces any earlier one.
   */
  setBusinessPublicKey(phoneNumberId: string, accessToken: string, publicKeyPem: string): Promise<void>;
  /** Meta's "Get business public key": the number's key and its signature status; null when it has none. */
  businessPublicKey(phoneNumberId: string, accessToken: string): Promise<BusinessPublicKey | null>;
  /** Meta's Flows API "Create Flow": `POST /{waba-id}/flows`; resolves with the new Flow's id. */
  createFlow(wabaId: string, accessToken: string, flow: object): Promise<{ id: string }>;
  /** Meta's "Update Flow JSON": the document as the `flow.json` asset; resolves with its validation errors. */
  uploadFlowJson(flowId: string, accessToken: string, flowJson: string): Promise<FlowValidationError[]>;
  /** `POST /{flow-id}/publish` or `/deprecate`. */
  changeFlowStatus(flowId: string, accessToken: string, change: 'publish' | 'deprecate'): Promise<void>;
  /** `DELETE /{flow-id}`: only a DRAFT Flow. */
  deleteFlow(flowId: string, accessToken: string): Promise<void>;
  /** `GET /{flow-id}` with its status, categories, validation errors and preview link. */
  getFlow(flowId: string, accessToken: string): Promise<ChannelFlow>;
  /** Every Flow of a WhatsApp Business Account, fetching Meta's pages as they are consumed. */
  listFlows(wabaId: string, accessToken: string): AsyncIterable<ChannelFlow>;
  /** Meta's "Retrieve Media URL": a short-lived (5 min) download URL and the file's type, hash and size. */
  getMediaInfo(mediaId: string, accessToken: string): Promise<MediaInfo>;
  /** The bytes behind a media URL, sent the token; redirects stay on the URL's origin, size is capped. */
  downloadMedia(url: string, accessToken: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** `GET /{media-id}` as Meta answers it (`file_size` normalised to a number; Meta may send a string). */
export interface MediaInfo {
  url: string;
  mime_type: string;
  /** Hex SHA-256 of the file (webhooks carry the same digest in base64). */
  sha256: string;
  file_size: number;
}

/** One item of `GET /{phone-number-id}/whatsapp_business_encryption`'s `data` (Meta omits the key when it is VALID). */
export interface BusinessPublicKey {
  business_public_key: string | null;
  /** VALID or MISMATCH. */
  business_public_key_signature_status: string;
}

/** Meta's largest media: documents of up to 100 MB. */
export const MAX_MEDIA_BYTES = 100 * 1024 * 1024;
const MAX_MEDIA_REDIRECTS = 3;

/** The fields of a template Parley reads (Meta answers only `id` unless asked). */
const TEMPLATE_FIELDS = 'id,name,language,status,category,parameter_format,components,library_template_name';

/** The fields of a Flow Parley reads (Meta's Flows API "Retrieve Flow details"). */
const FLOW_FIELDS = 'id,name,status,categories,validation_errors,preview';

/** The body of `POST /{waba_id}/message_templates`. */
export interface NewMetaTemplate {
  name: string;
  language: string;
  category: string;
  /** NAMED for `{{first_name}}` placeholders; Meta's default is POSITIONAL. */
  parameter_format?: 'NAMED';
  components: TemplateComponent[];
  message_send_ttl_seconds?: number;
}

/** Meta's answer to a template creation: its id, e.g. `{"id": "572279198452421", "status": "PENDING", "category": "MARKETING"}`. */
export interface CreatedMetaTemplate {
  id: string;
  status: string;
  category: string;
}

/** The body of `POST /{template_id}`: what an edit may change. */
export interface MetaTemplateEdit {
  category: string;
  components: TemplateComponent[];
  /** Meta changes a template's time-to-live with an edit too (its "Configure message time-to-live" page). */
  message_send_ttl_seconds?: number;
}

export interface GraphErrorFields {
  /** null when no response arrived (connection failure or timeout). */
  httpStatus: number | null;
  /** Meta's error `code`, which Meta advises building error handling on (not the HTTP status). */
  code: number | null;
  /** The code's title, e.g. "Re-engagement message". */
  title: string;
  /** Meta's `error_data.details`: the likely cause and how to fix it. */
  details: string | null;
  retryable: boolean;
  retryAfterMs?: number;
  fbtraceId?: string;
  /** The request may have reached Meta and been acted on (the answer was lost): a send may have gone out. */
  outcomeUnknown?: boolean;
  /** Meta's words for a person (`error_user_title: error_user_msg`), which template management errors carry. */
  userMessage?: string;
}

/** A failed Graph API call, classified so the caller knows whether retrying can succeed. */
export class GraphError extends ChannelError implements GraphErrorFields {
  readonly httpStatus: number | null;
  readonly title: string;
  readonly details: string | null;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly fbtraceId?: string;
  readonly outcomeUnknown: boolean;
  readonly userMessage?: string;

  constructor(fields: GraphErrorFields, options?: ErrorOptions) {
    const prefix = fields.code === null ? '' : `(#${fields.code}) `;
    super(`${prefix}${fields.title}${fields.details ? `: ${fields.details}` : ''}`, fields.code, options);
    this.name = 'GraphError';
    this.httpStatus = fields.httpStatus;
    this.title = fields.title;
    this.details = fields.details;
    this.retryable = fields.retryable;
    this.retryAfterMs = fields.retryAfterMs;
    this.fbtraceId = fields.fbtraceId;
    this.outcomeUnknown = fields.outcomeUnknown ?? false;
    this.userMessage = fields.userMessage;
  }
}

// Meta's Cloud API error codes reference. A known code decides; otherwise the HTTP status does.
const RETRYABLE_CODES = new Set([
  1, // API Unknown: possible server error
  2, // API Service: temporary downtime or overload
  4, // API Too Many Calls: app rate limit
  80007, // WhatsApp Business Account rate limit
  130429, // Cloud API throughput reached
  131016, // Service unavailable
  131056, // (business, consumer) pair rate limit
  133004, // Server temporarily unavailable
]);

const PERMANENT_CODES = new Set([
  0, // AuthException
  3, // API Method: missing capability or permission (answered with HTTP 500)
  10, // Permission denied
  100, // Invalid parameter
  190, // Access token expired or invalid
  131008, // Required parameter is missing
  131009, // Parameter value is not valid
  131026, // Message undeliverable
  131047, // Re-engagement message: more than 24 hours since the customer last wrote
  131051, // Unsupported message type
  132000, // Template parameter count mismatch
  132001, // Template does not exist
  132012, // Template parameter format mismatch
]);

function isRetryable(httpStatus: number, code: number | null): boolean {
  if (code !== null && RETRYABLE_CODES.has(code)) return true;
  if (code !== null && PERMANENT_CODES.has(code)) return false;
  return httpStatus === 429 || httpStatus >= 500;
}

type HttpMethod = 'GET' | 'POST' | 'DELETE';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Creates a client holding one keep-alive connection pool; `close()` releases it. */
export function createGraphClient(options: GraphClientOptions): GraphClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxMediaBytes = options.maxMediaBytes ?? MAX_MEDIA_BYTES;
  const clock = options.clock ?? systemClock;
  const base = `${options.graphUrl.replace(/\/+$/, '')}/${options.apiVersion}`;
  const origin = new URL(base).origin;
  // undici never follows redirects unless told to, so the token cannot leak through one.
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });

  async function exchange(
    method: HttpMethod,
    url: string,
    accessToken: string,
    payload?: object,
  ): Promise<RawResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
    // Form data sets its own multipart content type, with the boundary.
    const isForm = payload instanceof FormData;
    if (payload && !isForm) headers['content-type'] = 'application/json';
    try {
      const response = await request(url, {
        method,
        headers,
        body: isForm ? payload : payload && JSON.stringify(payload),
        dispatcher: agent,
      });
      return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
    } catch (error) {
      // The request may or may not have reached Meta; retrying a send can then deliver it twice.
      throw unreachable(error);
    }
  }

  async function call(method: HttpMethod, url: string, accessToken: string, payload?: object): Promise<unknown> {
    const response = await exchange(method, url, accessToken, payload);
    if (response.status < 200 || response.status >= 300) throw errorFromResponse(response, clock.now());
    return parseJson(response.text);
  }

  /** Every item of a Graph API list, fetching its pages as they are consumed. */
  async function* listItems<T>(firstPage: string, accessToken: string): AsyncIterable<T> {
    let url: string | undefined = firstPage;
    while (url) {
      const page = (await call('GET', url, accessToken)) as Page<T> | undefined;
      yield* page?.data ?? [];
      url = nextPageUrl(page?.paging?.next);
    }
  }

  /** Follows `paging.next` only on the Graph API's own origin: the access token must go nowhere else. */
  function nextPageUrl(next: unknown): string | undefined {
    if (typeof next !== 'string') return undefined;
    if (URL.canParse(next) && new URL(next).origin === origin) return next;
    throw unexpectedResponse(200, `paging.next leaves the Graph API origin: ${next}`);
  }

  /** The token travels only over https, or to the configured Graph origin itself (a local stand-in). */
  function mediaUrl(url: string): URL {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (parsed && (parsed.protocol === 'https:' || parsed.origin === origin)) return parsed;
    throw unexpectedResponse(200, `the media URL is not https: ${url}`);
  }

  /** GETs a media URL, following redirects only within its origin: the access token must go nowhere else. */
  async function downloadMedia(url: string, accessToken: string): Promise<Buffer> {
    let target = mediaUrl(url);
    for (let hops = 0; ; hops++) {
      const response = await request(target, {
        method: 'GET',
        headers: { authorization: `Bearer ${accessToken}` },
        dispatcher: agent,
      }).catch((error: unknown) => Promise.reject(unreachable(error)));
      const location = headerValue(response.headers.location);
      if (response.statusCode < 300 || response.statusCode >= 400 || !location) {
        return mediaBody(response, clock.now(), maxMediaBytes);
      }
      await response.body.dump();
      const next = new URL(location, target);
      if (next.origin !== target.origin) {
        throw unexpectedResponse(response.statusCode, `the media redirect leaves ${target.origin}: ${next.origin}`);
      }
      if (hops >= MAX_MEDIA_REDIRECTS) throw unexpectedResponse(response.statusCode, 'too many media redirects');
      target = next;
    }
  }

  return {
    async sendMessage(phoneNumberId, accessToken, payload, endpoint = 'messages') {
      const url = `${base}/${encodeURIComponent(phoneNumberId)}/${endpoint}`;
      const body = await call('POST', url, accessToken, payload);
      const wamid = (body as SendResponse | undefined)?.messages?.[0]?.id;
      // Meta answered 2xx, so the message may well have been accepted: its outcome is unknown.
      if (typeof wamid !== 'string') {
        throw new GraphError({
          httpStatus: 200,
          code: null,
          title: 'Unexpected Graph API response',
          details: 'no messages[0].id in the send response',
          retryable: false,
          outcomeUnknown: true,
        });
      }
      return { wamid };
    },

    async markRead(phoneNumberId, accessToken, wamid, typing = false) {
      // Meta's "Typing indicators": the read receipt with `typing_indicator: { type: 'text' }`.
      const payload = {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: wamid,
        ...(typing && { typing_indicator: { type: 'text' } }),
      };
      await call('POST', `${base}/${encodeURIComponent(phoneNumberId)}/messages`, accessToken, payload);
    },

    async uploadMedia(phoneNumberId, accessToken, file) {
      // Meta's "Upload media" request: `messaging_product`, the MIME `type` and the `file` part.
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', file.mimeType);
      form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.filename);
      const body = await call('POST', `${base}/${encodeURIComponent(phoneNumberId)}/media`, accessToken, form);
      const id = (body as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string') throw unexpectedResponse(200, 'no id in the media upload response');
      return { id };
    },

    listTemplates: (wabaId, accessToken) =>
      listItems<ChannelTemplate>(`${base}/${encodeURIComponent(wabaId)}/message_templates?limit=100`, accessToken),

    async createGroup(phoneNumberId, accessToken, group) {
      const body = await call('POST', `${base}/${encodeURIComponent(phoneNumberId)}/groups`, accessToken, group);
      return { request_id: requiredText(body, 'request_id', 'the group create response') };
    },

    async groupInviteLink(groupId, accessToken) {
      const body = await call('GET', `${base}/${encodeURIComponent(groupId)}/invite_link`, accessToken);
      return { invite_link: requiredText(body, 'invite_link', 'the invite link response') };
    },

    async createFlow(wabaId, accessToken, flow) {
      const body = await call('POST', `${base}/${encodeURIComponent(wabaId)}/flows`, accessToken, flow);
      return { id: requiredText(body, 'id', 'the Flow create response') };
    },

    async uploadFlowJson(flowId, accessToken, flowJson) {
      // Meta's "Update Flow JSON": multipart `file` (flow.json), `name` flow.json, `asset_type` FLOW_JSON.
      const form = new FormData();
      form.append('name', 'flow.json');
      form.append('asset_type', 'FLOW_JSON');
      form.append('file', new Blob([flowJson], { type: 'application/json' }), 'flow.json');
      const body = await call('POST', `${base}/${encodeURIComponent(flowId)}/assets`, accessToken, form);
      const errors = (body as { validation_errors?: unknown } | undefined)?.validation_errors;
      return Array.isArray(errors) ? (errors as FlowValidationError[]) : [];
    },

    async changeFlowStatus(flowId, accessToken, change) {
      await call('POST', `${base}/${encodeURIComponent(flowId)}/${change}`, accessToken);
    },

    async deleteFlow(flowId, accessToken) {
      await call('DELETE', `${base}/${encodeURIComponent(flowId)}`, accessToken);
    },

    async getFlow(flowId, accessToken) {
      const body = await call('GET', `${base}/${encodeURIComponent(flowId)}?fields=${FLOW_FIELDS}`, accessToken);
      return flowOf(body);
    },

    async *listFlows(wabaId, accessToken) {
      const first = `${base}/${encodeURIComponent(wabaId)}/flows?fields=${FLOW_FIELDS}`;
      for await (const flow of listItems<unknown>(first, accessToken)) yield flowOf(flow);
    },

    async createTemplate(wabaId, accessToken, template) {
      const url = `${base}/${encodeURIComponent(wabaId)}/message_templates`;
      return createdTemplateOf(await call('POST', url, accessToken, template));
    },

    async getTemplate(metaTemplateId, accessToken) {
      const url = `${base}/${encodeURIComponent(metaTemplateId)}?fields=${TEMPLATE_FIELDS}`;
      const body = await call('GET', url, accessToken);
      requiredText(body, 'id', 'the template');
      return body as ChannelTemplate;
    },

    async editTemplate(metaTemplateId, accessToken, edit) {
      await call('POST', `${base}/${encodeURIComponent(metaTemplateId)}`, accessToken, edit);
    },

    async deleteTemplate(wabaId, accessToken, name, metaTemplateId) {
      const query = new URLSearchParams({ name, ...(metaTemplateId !== undefined && { hsm_id: metaTemplateId }) });
      await call('DELETE', `${base}/${encodeURIComponent(wabaId)}/message_templates?${query}`, accessToken);
    },

    async describeNumber(phoneNumberId, wabaId, accessToken) {
      let number: CloudNumber;
      try {
        const url = `${base}/${encodeURIComponent(phoneNumberId)}?fields=${PHONE_NUMBER_FIELDS}`;
        number = phoneNumberOf(await call('GET', url, accessToken));
      } catch (error) {
        return refusal(error, 'phone_number');
      }
      try {
        const listing = `${base}/${encodeURIComponent(wabaId)}/phone_numbers`;
        for await (const listed of listItems<{ id?: unknown }>(listing, accessToken)) {
          if (listed.id === phoneNumberId) return { connectable: true, number };
        }
      } catch (error) {
        return refusal(error, 'waba');
      }
      return { connectable: false, refused: 'not_in_waba', metaMessage: null };
    },

    async setBusinessPublicKey(phoneNumberId, accessToken, publicKeyPem) {
      const form = new FormData();
      form.append('business_public_key', publicKeyPem);
      const url = `${base}/${encodeURIComponent(phoneNumberId)}/whatsapp_business_encryption`;
      const body = await call('POST', url, accessToken, form);
      if ((body as { success?: unknown } | undefined)?.success !== true) {
        throw unexpectedResponse(200, 'no success in the business public key response');
      }
    },

    async businessPublicKey(phoneNumberId, accessToken) {
      const url = `${base}/${encodeURIComponent(phoneNumberId)}/whatsapp_business_encryption`;
      const item = ((await call('GET', url, accessToken)) as Page<Record<string, unknown>> | undefined)?.data?.[0];
      if (!item) return null;
      const status = requiredText(item, 'business_public_key_signature_status', 'the business public key');
      const key = item.business_public_key;
      // Meta's MISMATCH example shows the key as a blank string.
      const publicKey = typeof key === 'string' && key.trim() !== '' ? key : null;
      return { business_public_key: publicKey, business_public_key_signature_status: status };
    },

    async getMediaInfo(mediaId, accessToken) {
      return mediaInfoOf(await call('GET', `${base}/${encodeURIComponent(mediaId)}`, accessToken));
    },

    downloadMedia,

    close: () => agent.close(),
  };
}

/** Connection failures that happen before a request is written: Meta cannot have seen it. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function unreachable(error: unknown): GraphError {
  const details = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const outcomeUnknown = !(typeof code === 'string' && NOT_CONNECTED.has(code));
  return new GraphError(
    { httpStatus: null, code: null, title: 'Graph API unreachable', details, retryable: true, outcomeUnknown },
    { cause: error },
  );
}

const PHONE_NUMBER_FIELDS = 'display_phone_number,verified_name,quality_rating';
/** Meta's "access token expired or invalid". */
const INVALID_TOKEN_CODE = 190;

/** A Graph API refusal as describeNumber's answer; Meta being unreachable or overloaded is thrown on. */
function refusal(error: unknown, asking: 'phone_number' | 'waba'): NumberDescription {
  if (!(error instanceof GraphError) || error.retryable) throw error;
  const refused = error.code === INVALID_TOKEN_CODE ? 'access_token' : asking;
  return { connectable: false, refused, metaMessage: error.title };
}

function phoneNumberOf(body: unknown): CloudNumber {
  const { id, display_phone_number, verified_name, quality_rating } = (body ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || typeof display_phone_number !== 'string' || typeof verified_name !== 'string') {
    throw unexpectedResponse(200, 'no id, display_phone_number or verified_name in the phone number response');
  }
  const rating = typeof quality_rating === 'string' ? quality_rating : null;
  return { id, display_phone_number, verified_name, quality_rating: rating };
}

/** A Flow as Meta describes it; lists Meta leaves out are empty. */
function flowOf(body: unknown): ChannelFlow {
  const flow = (body ?? {}) as Record<string, unknown>;
  const { name, status, preview } = flow;
  if (typeof name !== 'string' || typeof status !== 'string') {
    throw unexpectedResponse(200, 'no name or status in the Flow');
  }
  const link = preview as ChannelFlow['preview'] | undefined;
  return {
    id: requiredText(flow, 'id', 'the Flow'),
    name,
    status,
    categories: Array.isArray(flow.categories) ? (flow.categories as string[]) : [],
    validation_errors: Array.isArray(flow.validation_errors) ? (flow.validation_errors as FlowValidationError[]) : [],
    ...(typeof link?.preview_url === 'string' && { preview: link }),
  };
}

function createdTemplateOf(body: unknown): CreatedMetaTemplate {
  const { id, status, category } = (body ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || typeof status !== 'string') {
    throw unexpectedResponse(200, 'no id or status in the template creation response');
  }
  return { id, status, category: typeof category === 'string' ? category : '' };
}

/** A string field Meta's answer must carry. */
function requiredText(body: unknown, field: string, what: string): string {
  const value = ((body ?? {}) as Record<string, unknown>)[field];
  if (typeof value !== 'string' || value === '') throw unexpectedResponse(200, `no ${field} in ${what}`);
  return value;
}

function headerValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

function mediaInfoOf(body: unknown): MediaInfo {
  const info = (body ?? {}) as Record<string, unknown>;
  const size =
    typeof info.file_size === 'string' && /^\d+$/.test(info.file_size) ? Number(info.file_size) : info.file_size;
  const { url, mime_type, sha256 } = info;
  if (typeof url !== 'string' || typeof mime_type !== 'string' || typeof sha256 !== 'string') {
    throw unexpectedResponse(200, 'no url, mime_type or sha256 in the media response');
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size)) {
    throw unexpectedResponse(200, 'no file_size in the media response');
  }
  return { url, mime_type, sha256, file_size: size };
}

/** A 2xx media body read up to `limit` bytes; anything else is Meta's error. */
async function mediaBody(response: Dispatcher.ResponseData, now: Date, limit: number): Promise<Buffer> {
  const { statusCode: status, headers, body } = response;
  if (status < 200 || status >= 300) {
    const text = await body.text().catch(() => '');
    throw errorFromResponse({ status, headers, text }, now);
  }
  const tooLarge = () =>
    new GraphError({
      httpStatus: status,
      code: null,
      title: 'Media too large',
      details: `over ${limit} bytes`,
      retryable: false,
    });
  if (Number(headerValue(headers['content-length']) ?? 0) > limit) {
    await body.dump({ limit: 1 }); // drops the connection instead of reading what is refused
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge(); // leaving the loop destroys the stream
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw error instanceof GraphError ? error : unreachable(error);
  }
  return Buffer.concat(chunks, size);
}

interface SendResponse {
  messages?: { id?: unknown }[];
}

/** A page of a Graph API list: `{"data": [...], "paging": {"cursors": {...}, "next": "…"}}`. */
interface Page<T> {
  data?: T[];
  paging?: { next?: unknown };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function unexpectedResponse(httpStatus: number, details: string): GraphError {
  return new GraphError({ httpStatus, code: null, title: 'Unexpected Graph API response', details, retryable: false });
}

/** Reads Meta's `{"error": {message, type, code, error_data: {details}, fbtrace_id}}` envelope. */
function errorFromResponse(response: RawResponse, now: Date): GraphError {
  const error = (parseJson(response.text) as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error !== 'object') {
    const details = response.text.slice(0, 200) || null;
    return new GraphError({
      httpStatus: response.status,
      code: null,
      title: `HTTP ${response.status}`,
      details,
      retryable: isRetryable(response.status, null),
      retryAfterMs: retryAfterMs(response.headers['retry-after'], now),
    });
  }
  const code = typeof error.code === 'number' ? error.code : null;
  const message = typeof error.message === 'string' ? error.message : `HTTP ${response.status}`;
  return new GraphError({
    httpStatus: response.status,
    code,
    title: message.replace(/^\(#\d+\)\s*/, ''), // Meta puts the code's title in `message` after "(#code)"
    details: detailsOf(error.error_data),
    retryable: isRetryable(response.status, code),
    retryAfterMs: retryAfterMs(response.headers['retry-after'], now),
    fbtraceId: typeof error.fbtrace_id === 'string' ? error.fbtrace_id : undefined,
    userMessage: userMessageOf(error),
  });
}

function userMessageOf(error: Record<string, unknown>): string | undefined {
  const parts = [error.error_user_title, error.error_user_msg].filter((p) => typeof p === 'string' && p !== '');
  return parts.length > 0 ? parts.join(': ') : undefined;
}

/** Messaging errors carry `{details}`; template management errors may carry a bare string. */
function detailsOf(errorData: unknown): string | null {
  if (typeof errorData === 'string') return errorData;
  const details = (errorData as { details?: unknown } | undefined)?.details;
  return typeof details === 'string' ? details : null;
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | string[] | undefined, now: Date): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
