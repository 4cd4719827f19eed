import assert from 'node:assert/strict';
import { createHash, createPublicKey, randomBytes, randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import type { ChannelTemplate } from '../src/channels/provider.js';
import { templateLibrary } from '../src/templates/template-library.fixtures.js';
import { answerFlowRequest, type StandInFlow } from './graph-stand-in.flows.js';

/**
 * The one stand-in for Meta's Graph API in the test suite: plain HTTP on a random loopback port,
 * answering in Meta's documented formats. Point WHATSAPP_GRAPH_URL at `url`.
 *
 * Like Meta, it answers only the access tokens it knows (its own `accessToken` and those given to
 * `addPhoneNumber` or `grantAccess`; any other gets Meta's code 190), and a phone number or WhatsApp
 * Business Account only to a token that may read its WABA. Sends and media check the token only.
 */

/** The access token of every stand-in unless it is started with another: stand-ins can share numbers. */
const STAND_IN_ACCESS_TOKEN = 'EAAG-stand-in-system-user';

export interface RecordedRequest {
  method: string;
  /** The request target as received, query string included. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body; null when there was none. */
  body: unknown;
  /** When it arrived (Date.now()): rates are counted where Meta would count them. */
  at: number;
}

export interface ScriptedResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface GraphStandIn {
  url: string;
  /** The system user's token the stand-in was started with. */
  accessToken: string;
  /**
   * A business phone number Meta knows, in WABA `wabaId` (a new one unless given), readable with
   * `accessToken` (the stand-in's unless given): what a workspace connects its channel with.
   */
  addPhoneNumber(options?: { wabaId?: string; accessToken?: string; verifiedName?: string }): StandInNumber;
  /** Lets one more token read a WABA and its numbers (another system user's, or a rotated token). */
  grantAccess(wabaId: string, accessToken: string): void;
  /** Every request received, in order, including refused ones. */
  requests: RecordedRequest[];
  /** The next `times` requests of any kind get this response instead of the normal answer. */
  failNext(response: ScriptedResponse, times?: number): void;
  /** The templates `GET /{version}/{wabaId}/message_templates` serves; an unset WABA is unknown to Meta. */
  setTemplates(wabaId: string, templates: ChannelTemplate[]): void;
  /**
   * Templates created (`POST /{wabaId}/message_templates`), edited (`POST /{templateId}`) and not yet
   * deleted (`DELETE /{wabaId}/message_templates?name=…[&hsm_id=…]`), by Meta's id.
   */
  submittedTemplates: Map<string, SubmittedTemplate>;
  /**
   * Media `GET /{version}/{mediaId}` describes and its download URL (on the stand-in) serves;
   * `sha256` overrides the digest reported, which is otherwise the hex SHA-256 of `bytes`.
   */
  setMedia(mediaId: string, media: StandInMedia): void;
  /** Meta deletes media after 30 days: from now on the id is unknown and its download URL serves nothing. */
  forgetMedia(mediaId: string): void;
  /**
   * Answers the next `count` message sends (`POST /{version}/{phoneNumberId}/messages`), then holds
   * every later one: recorded (in `requests` and `held`) but left unanswered, as when Meta stops
   * answering mid-request, until `release()`. Other requests are answered as usual.
   */
  holdMessagesAfter(count: number): void;
  /**
   * Holds every message send of one number from now on (a number whose requests hang at Meta), until
   * `release()`; other numbers' sends are answered as usual.
   */
  holdNumber(phoneNumberId: string): void;
  /** The message sends held so far, in arrival order (one whose client went away stays listed). */
  held: RecordedRequest[];
  /** The held sends whose client is still waiting for the answer. */
  heldOpen(): RecordedRequest[];
  /** The message sends answered with a message id (`messages[0].id`): what Meta accepted, in order. */
  accepted: RecordedRequest[];
  /** Stops holding: held sends whose client is still connected get their normal answer. */
  release(): void;
  /**
   * From now on, reports each message it accepts as Meta does: a `sent` status webhook (Meta's
   * documented "status: sent" example) that echoes the send's `biz_opaque_callback_data`. `deliver`
   * posts the body and says whether it was taken; a report not taken is tried again every 200 ms for a
   * minute, as Meta retries. A held send whose client has gone is then accepted too: Meta got it.
   */
  reportStatuses(deliver: (body: object) => Promise<boolean>): void;
  /**
   * Groups API: creates asked for (`POST /{phoneNumberId}/groups`), in order; Meta answers a `request_id`
   * and confirms later by webhook, which a test posts.
   */
  groupCreates: GroupCreate[];
  /** A group Meta has on a number (its invite link served by `GET /{groupId}/invite_link`; messages may name it). */
  addGroup(phoneNumberId: string): { groupId: string; inviteLink: string };
  /**
   * The business public key a number holds for WhatsApp Flows (`POST /{phoneNumberId}/whatsapp_business_encryption`):
   * what a Flow client encrypts its data requests to. Undefined before one is set.
   */
  businessPublicKey(phoneNumberId: string): string | undefined;
  /** Meta's word on a number's key from now on: MISMATCH once the number is registered again. */
  setBusinessKeyStatus(phoneNumberId: string, status: 'VALID' | 'MISMATCH'): void;
  /** WhatsApp Flows by Meta's id (Meta's Flows API, graph-stand-in.flows.ts): a test may add one made elsewhere. */
  flows: Map<string, StandInFlow>;
  close(): Promise<void>;
}

/** A create group request as received, with the `request_id` answered. */
export interface GroupCreate {
  requestId: string;
  phoneNumberId: string;
  body: Record<string, unknown>;
}

/** A phone number the stand-in serves, and the ids and token that connect it. */
export interface StandInNumber {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  displayPhoneNumber: string;
  verifiedName: string;
}

/** A template translation as submitted, with the WABA it belongs to. */
export interface SubmittedTemplate {
  wabaId: string;
  name: string;
  language: string;
  category: string;
  components: unknown[];
  /** APPROVED for a Template Library template as is; PENDING (under review) when unset. */
  status?: string;
  library_template_name?: string;
}

export interface StandInMedia {
  bytes: Buffer;
  mime_type: string;
  sha256?: string;
}

/** Small pages, so every list is read across several of them. */
const ITEMS_PER_PAGE = 2;
/** The path of Meta's media download host (lookaside.fbsbx.com), served here on the stand-in's own origin. */
const MEDIA_DOWNLOAD_PATH = '/whatsapp_business/attachments/';

interface State {
  apiVersion: string;
  url: string;
  accessToken: string;
  /** Each WhatsApp Business Account's readers: the tokens that may read it and its numbers. */
  wabaReaders: Map<string, Set<string>>;
  numbers: Map<string, StandInNumber>;
  requests: RecordedRequest[];
  failures: { response: ScriptedResponse; remaining: number }[];
  templates: Map<string, ChannelTemplate[]>;
  submitted: Map<string, SubmittedTemplate>;
  media: Map<string, StandInMedia>;
  /** Message sends still to answer before holding starts; null when not holding. */
  hold: { answerFirst: number } | null;
  /** Numbers whose every message send is held. */
  heldNumbers: Set<string>;
  held: RecordedRequest[];
  /** Held sends whose client went away before an answer. */
  abandoned: Set<RecordedRequest>;
  accepted: RecordedRequest[];
  /** Resumes each held request (it answers, unless its client has gone). */
  heldResumers: (() => void)[];
  reportStatus: ((body: object) => Promise<boolean>) | null;
  groupCreates: GroupCreate[];
  /** Groups by id: their number and invite link. */
  groups: Map<string, { phoneNumberId: string; inviteLink: string }>;
  /** Each number's business public key for WhatsApp Flows, and its signature status. */
  businessKeys: Map<string, { publicKey: string; signatureStatus: string }>;
  flows: Map<string, StandInFlow>;
}

/** A send's body with its `biz_opaque_callback_data` checked to be a Parley message id, and set aside. */
export function withCallbackChecked(body: unknown): Record<string, unknown> {
  const { biz_opaque_callback_data: callback, ...rest } = body as Record<string, unknown>;
  assert.match(String(callback), /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/);
  return rest;
}

/** Meta's error envelope, e.g. metaError(131047, 'Re-engagement message', 'More than 24 hours …'). */
export function metaError(code: number, title: string, details?: string) {
  return {
    error: {
      message: `(#${code}) ${title}`,
      type: 'OAuthException',
      code,
      ...(details !== undefined && { error_data: { messaging_product: 'whatsapp', details } }),
      fbtrace_id: fbtraceId(),
    },
  };
}

/** Starts the stand-in; it is closed automatically after the calling file's (or suite's) tests. */
export async function startGraphStandIn(options: { apiVersion: string; accessToken?: string }): Promise<GraphStandIn> {
  const state: State = {
    apiVersion: options.apiVersion,
    url: '',
    accessToken: options.accessToken ?? STAND_IN_ACCESS_TOKEN,
    wabaReaders: new Map(),
    numbers: new Map(),
    requests: [],
    failures: [],
    templates: new Map(),
    submitted: new Map(),
    media: new Map(),
    hold: null,
    heldNumbers: new Set(),
    held: [],
    abandoned: new Set(),
    accepted: [],
    heldResumers: [],
    reportStatus: null,
    groupCreates: [],
    groups: new Map(),
    businessKeys: new Map(),
    flows: new Map(),
  };
  const release = () => {
    state.hold = null;
    state.heldNumbers.clear();
    for (const resume of state.heldResumers.splice(0)) resume();
  };
  const server = http.createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  const close = () => {
    release();
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections(); // clients keep connections alive; close would otherwise wait on them
    });
    return closing;
  };
  after(close);
  return {
    url: state.url,
    accessToken: state.accessToken,
    addPhoneNumber: (numberOptions = {}) => addPhoneNumber(state, numberOptions),
    grantAccess: (wabaId, accessToken) => grantAccess(state, wabaId, accessToken),
    requests: state.requests,
    failNext: (response, times = 1) => state.failures.push({ response, remaining: times }),
    setTemplates: (wabaId, templates) => {
      if (!state.wabaReaders.has(wabaId)) grantAccess(state, wabaId, state.accessToken);
      state.templates.set(wabaId, templates);
    },
    submittedTemplates: state.submitted,
    setMedia: (mediaId, media) => state.media.set(mediaId, media),
    forgetMedia: (mediaId) => state.media.delete(mediaId),
    holdMessagesAfter: (count) => {
      state.hold = { answerFirst: count };
    },
    holdNumber: (phoneNumberId) => state.heldNumbers.add(phoneNumberId),
    held: state.held,
    heldOpen: () => state.held.filter((request) => !state.abandoned.has(request)),
    accepted: state.accepted,
    release,
    reportStatuses: (deliver) => {
      state.reportStatus = deliver;
    },
    groupCreates: state.groupCreates,
    addGroup: (phoneNumberId) => addGroup(state, phoneNumberId),
    businessPublicKey: (phoneNumberId) => state.businessKeys.get(phoneNumberId)?.publicKey,
    setBusinessKeyStatus: (phoneNumberId, status) => {
      const key = state.businessKeys.get(phoneNumberId);
      if (key) key.signatureStatus = status;
    },
    flows: state.flows,
    close,
  };
}

function grantAccess(state: State, wabaId: string, accessToken: string): void {
  const readers = state.wabaReaders.get(wabaId) ?? new Set<string>();
  readers.add(accessToken);
  state.wabaReaders.set(wabaId, readers);
}

/**
 * Meta's Groups API "Create group": `subject` required (at most 128 characters once trimmed), `description`
 * at most 2048, `join_approval_mode` approval_required or auto_approve; answers `{ messaging_product, request_id }`.
 */
function createGroup(state: State, res: http.ServerResponse, phoneNumberId: string, body: unknown): void {
  const group = (body ?? {}) as Record<string, unknown>;
  const subject = typeof group.subject === 'string' ? group.subject.trim() : '';
  const mode = group.join_approval_mode;
  const badMode = mode !== undefined && mode !== 'approval_required' && mode !== 'auto_approve';
  if (group.messaging_product !== 'whatsapp' || subject === '' || subject.length > 128 || badMode) {
    return send(res, 400, metaError(100, 'Invalid parameter', 'subject is required (at most 128 characters)'));
  }
  if (typeof group.description === 'string' && group.description.length > 2048) {
    return send(res, 400, metaError(100, 'Invalid parameter', 'description is at most 2048 characters'));
  }
  const requestId = randomBytes(12).toString('hex');
  state.groupCreates.push({ requestId, phoneNumberId, body: group });
  send(res, 200, { messaging_product: 'whatsapp', request_id: requestId });
}

/**
 * Meta's Business Encryption API for WhatsApp Flows
 * (developers.facebook.com/documentation/business-messaging/whatsapp/reference/whatsapp-business-phone-number/business-encryption-api):
 * POST takes `business_public_key`, an RSA public key in PEM, as multipart form data, signs it, replaces the
 * number's earlier key and answers `{"success": true}`; GET answers `{"data": [{business_public_key,
 * business_public_key_signature_status}]}` (VALID or MISMATCH), and an empty `data` before any key.
 */
function businessEncryption(
  state: State,
  res: http.ServerResponse,
  method: string,
  phoneNumberId: string,
  form: UploadForm | undefined,
): void {
  if (method === 'GET') {
    const key = state.businessKeys.get(phoneNumberId);
    const data = key
      ? [{ business_public_key: key.publicKey, business_public_key_signature_status: key.signatureStatus }]
      : [];
    return send(res, 200, { data });
  }
  const publicKey = form?.fields.business_public_key;
  if (method !== 'POST' || !publicKey || !isRsaPublicKey(publicKey)) {
    return send(res, 400, metaError(100, 'Invalid parameter', 'business_public_key must be an RSA public key in PEM'));
  }
  state.businessKeys.set(phoneNumberId, { publicKey, signatureStatus: 'VALID' });
  send(res, 200, { success: true });
}

function isRsaPublicKey(pem: string): boolean {
  try {
    return createPublicKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

function addGroup(state: State, phoneNumberId: string): { groupId: string; inviteLink: string } {
  const groupId = Buffer.from(`capi_group:${phoneNumberId}:${randomInt(1e9, 9e9)}`).toString('base64url');
  const inviteLink = `https://chat.whatsapp.com/${randomBytes(11).toString('base64url')}`;
  state.groups.set(groupId, { phoneNumberId, inviteLink });
  return { groupId, inviteLink };
}

function addPhoneNumber(
  state: State,
  options: { wabaId?: string; accessToken?: string; verifiedName?: string },
): StandInNumber {
  const phoneNumberId = String(randomInt(100_000_000_000, 999_999_999_999));
  const number = {
    phoneNumberId,
    wabaId: options.wabaId ?? String(randomInt(100_000_000_000, 999_999_999_999)),
    accessToken: options.accessToken ?? state.accessToken,
    displayPhoneNumber: `+1 555-${phoneNumberId.slice(-7, -4)}-${phoneNumberId.slice(-4)}`,
    verifiedName: options.verifiedName ?? `Business ${phoneNumberId.slice(-4)}`,
  };
  grantAccess(state, number.wabaId, number.accessToken);
  state.numbers.set(phoneNumberId, number);
  return number;
}

function knowsToken(state: State, accessToken: string): boolean {
  return (
    accessToken === state.accessToken || [...state.wabaReaders.values()].some((readers) => readers.has(accessToken))
  );
}

function mayRead(state: State, accessToken: string, wabaId: string | undefined): boolean {
  return wabaId !== undefined && (state.wabaReaders.get(wabaId)?.has(accessToken) ?? false);
}

async function handle(state: State, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const at = Date.now();
  const raw = await readBody(req);
  const text = raw.toString('utf8');
  const isForm = (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
  const body = isForm ? await parseForm(raw, req.headers['content-type']!) : parseJson(text);
  const recorded = {
    method: req.method ?? '',
    path: req.url ?? '',
    headers: req.headers,
    body: body ?? null,
    at,
  };
  state.requests.push(recorded);
  if (mustHold(state, req)) {
    let clientGone = false;
    res.on('close', () => {
      clientGone = !res.writableEnded;
      if (clientGone) state.abandoned.add(recorded);
    });
    state.held.push(recorded);
    await new Promise<void>((resume) => state.heldResumers.push(resume));
    if (clientGone && !state.reportStatus) return;
  }
  const scripted = takeScriptedFailure(state);
  if (scripted) return send(res, scripted.status, scripted.body, scripted.headers);
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (token === undefined || !knowsToken(state, token)) return sendInvalidToken(res);
  if (text && body === undefined) return send(res, 400, metaError(100, 'Invalid parameter', 'Body is not valid JSON'));

  const url = new URL(req.url ?? '/', state.url);
  if (req.method === 'GET' && url.pathname === MEDIA_DOWNLOAD_PATH) return sendMediaBytes(state, res, url);
  const [version, objectId, edge, ...rest] = url.pathname.split('/').slice(1);
  const known = version === state.apiVersion && objectId && rest.length === 0;
  const readable = known && mayRead(state, token, state.numbers.get(objectId)?.wabaId ?? objectId);
  if (known && req.method === 'POST' && edge === 'messages') return sendMessage(state, res, recorded, objectId);
  if (known && req.method === 'POST' && edge === 'marketing_messages') {
    return sendMarketingMessage(state, res, recorded, objectId);
  }
  if (known && req.method === 'POST' && edge === 'groups' && state.numbers.has(objectId)) {
    return createGroup(state, res, objectId, body);
  }
  if (known && req.method === 'GET' && edge === 'invite_link' && state.groups.has(objectId)) {
    return send(res, 200, { messaging_product: 'whatsapp', invite_link: state.groups.get(objectId)!.inviteLink });
  }
  if (readable && edge === 'whatsapp_business_encryption' && state.numbers.has(objectId)) {
    return businessEncryption(state, res, req.method ?? '', objectId, body as UploadForm | undefined);
  }
  const flowAnswer = known
    ? answerFlowRequest({
        method: req.method ?? '',
        objectId,
        edge,
        body,
        url,
        flows: state.flows,
        mayRead: (wabaId) => mayRead(state, token, wabaId),
        error: (code, title, userTitle, userMessage) => {
          const { error } = metaError(code, title);
          return { error: { ...error, error_user_title: userTitle, error_user_msg: userMessage } };
        },
      })
    : null;
  if (flowAnswer)
    return 'page' in flowAnswer ? sendPage(res, flowAnswer.page, url) : send(res, flowAnswer.status, flowAnswer.body);
  if (known && req.method === 'POST' && edge === 'media' && state.numbers.has(objectId)) {
    return uploadMedia(state, res, body as UploadForm | undefined);
  }
  if (readable && req.method === 'GET' && edge === 'message_templates' && state.templates.has(objectId)) {
    return sendPage(res, state.templates.get(objectId)!, url);
  }
  if (readable && edge === 'message_templates' && req.method === 'POST')
    return createTemplate(state, res, objectId, body);
  if (readable && edge === 'message_templates' && req.method === 'DELETE')
    return deleteTemplate(state, res, objectId, url);
  const submitted = known && edge === undefined ? state.submitted.get(objectId) : undefined;
  if (submitted && req.method === 'POST' && mayRead(state, token, submitted.wabaId)) {
    return editTemplate(res, submitted, body);
  }
  if (submitted && req.method === 'GET' && mayRead(state, token, submitted.wabaId)) {
    const { name, language, category, components, status, library_template_name } = submitted;
    const template = { name, language, category, components, status: status ?? 'PENDING', library_template_name };
    return send(res, 200, { id: objectId, ...template });
  }
  if (readable && req.method === 'GET' && edge === 'phone_numbers') return sendPhoneNumbers(state, res, objectId, url);
  if (readable && req.method === 'GET' && edge === undefined && state.numbers.has(objectId)) {
    return sendPhoneNumber(res, state.numbers.get(objectId)!, url);
  }
  if (known && req.method === 'GET' && edge === undefined && state.media.has(objectId)) {
    return sendMediaInfo(state, res, objectId);
  }
  return sendUnsupported(res, req.method ?? '', objectId ?? '');
}

/** Counts a message send against the answers left before holding; true when this one is to be held. */
function mustHold(state: State, req: http.IncomingMessage): boolean {
  const send = /^\/[^/?]+\/([^/?]+)\/(marketing_)?messages(\?|$)/.exec(req.url ?? '');
  if (req.method !== 'POST' || !send) return false;
  if (state.heldNumbers.has(send[1]!)) return true;
  if (!state.hold) return false;
  if (state.hold.answerFirst <= 0) return true;
  state.hold.answerFirst -= 1;
  return false;
}

function takeScriptedFailure(state: State): ScriptedResponse | undefined {
  const next = state.failures[0];
  if (!next) return undefined;
  next.remaining -= 1;
  if (next.remaining <= 0) state.failures.shift();
  return next.response;
}

/**
 * Meta's Marketing Messages API: `POST /{phone-number-id}/marketing_messages` takes what /messages takes
 * for a template, marketing templates only, and answers with the message id and `success: true`.
 * References: developers.facebook.com/documentation/business-messaging/whatsapp/reference/whatsapp-business-phone-number/marketing-messages-api-for-whatsapp
 * (the request and answer); the refusals of other messages (code 100) and of a template the WABA has in
 * another category (131055) as 360dialog's "Expected errors" page quotes Meta's answers
 * (docs.360dialog.com/docs/resources/marketing-messages/expected-errors-and-programming-languages).
 */
function sendMarketingMessage(
  state: State,
  res: http.ServerResponse,
  request: RecordedRequest,
  phoneNumberId: string,
): void {
  const message = (request.body ?? {}) as Record<string, unknown>;
  if (message.type !== 'template') {
    return send(res, 400, metaError(100, 'Invalid parameter', 'Message must be a template message.'));
  }
  const name = (message.template as { name?: unknown } | undefined)?.name;
  const category = templateCategory(state, state.numbers.get(phoneNumberId)?.wabaId, name);
  if (category !== undefined && category !== 'MARKETING') {
    return send(res, 400, metaError(131055, 'Method not allowed', 'Only marketing template messages are supported'));
  }
  sendMessage(state, res, request, phoneNumberId, 'marketing_lite');
}

/** The category of a template the WABA has (served or submitted) by name; undefined when the stand-in does not know it. */
function templateCategory(state: State, wabaId: string | undefined, name: unknown): string | undefined {
  const served = state.templates.get(wabaId ?? '')?.find((template) => template.name === name);
  const submitted = [...state.submitted.values()].find((t) => t.wabaId === wabaId && t.name === name);
  return (served?.category ?? submitted?.category)?.toUpperCase();
}

/** Checks what Meta itself checks first, so a malformed payload fails here as it would in production. */
function sendMessage(
  state: State,
  res: http.ServerResponse,
  request: RecordedRequest,
  phoneNumberId: string,
  /** Meta's pricing category of the `sent` report: `marketing_lite` for the Marketing Messages API. */
  pricingCategory = 'marketing',
): void {
  const message = (request.body ?? {}) as Record<string, unknown>;
  if (message.messaging_product !== 'whatsapp') {
    return send(res, 400, metaError(100, 'The parameter messaging_product is required.'));
  }
  // Meta's "mark message as read": `{ messaging_product, status: 'read', message_id }` → `{ success: true }`.
  if (message.status === 'read' && typeof message.message_id === 'string') return send(res, 200, { success: true });
  // A phone number in `to`, or a business-scoped user id in `recipient`.
  const to = typeof message.to === 'string' ? message.to : message.recipient;
  if (typeof to !== 'string' || to === '') {
    return send(res, 400, metaError(100, 'The parameter to is required.'));
  }
  if (message.recipient_type === 'group' && state.groups.get(to)?.phoneNumberId !== phoneNumberId) {
    return send(res, 400, metaError(131009, 'Parameter value is not valid', `No group ${to} on this number`));
  }
  const type = message.type;
  if (typeof type !== 'string' || typeof message[type] !== 'object') {
    return send(res, 400, metaError(100, 'Invalid parameter', `Param ${String(type)} must be a JSON object`));
  }
  const flowRefusal = unsendableFlow(state, phoneNumberId, message);
  if (flowRefusal) return send(res, 400, metaError(131009, 'Parameter value is not valid', flowRefusal));
  const wamid = newWamid();
  state.accepted.push(request);
  const marketingMessages = pricingCategory === 'marketing_lite';
  send(res, 200, {
    messaging_product: 'whatsapp',
    contacts: [{ input: to, wa_id: to.replace(/\D/g, '') }],
    messages: [{ id: wamid, ...(type === 'template' && !marketingMessages && { message_status: 'accepted' }) }],
    ...(marketingMessages && { success: true }),
  });
  const number = state.numbers.get(phoneNumberId);
  if (state.reportStatus && number) {
    const status = sentStatus(number, wamid, to, message.biz_opaque_callback_data, pricingCategory);
    void reportSent(state.reportStatus, status);
  }
}

/**
 * Meta's "Send a Flow": an interactive `flow` message names a Flow of the number's WhatsApp Business
 * Account that is published (a draft only with `mode: draft`, which Parley does not send); why not, or null.
 */
function unsendableFlow(state: State, phoneNumberId: string, message: Record<string, unknown>): string | null {
  const interactive = message.interactive as { type?: unknown; action?: { parameters?: Record<string, unknown> } };
  if (message.type !== 'interactive' || interactive.type !== 'flow') return null;
  const flow = state.flows.get(String(interactive.action?.parameters?.flow_id));
  if (!flow || flow.wabaId !== state.numbers.get(phoneNumberId)?.wabaId) return 'flow_id: no such Flow';
  return flow.status === 'PUBLISHED' ? null : `The Flow is ${flow.status}: only a published Flow is sent`;
}

/** Meta's status webhook for a message it sent, with the send's callback data echoed when it had some. */
function sentStatus(number: StandInNumber, wamid: string, to: string, callbackData: unknown, category: string) {
  const status = {
    id: wamid,
    status: 'sent',
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: to.replace(/\D/g, ''),
    ...(typeof callbackData === 'string' && { biz_opaque_callback_data: callbackData }),
    conversation: { id: randomBytes(16).toString('hex'), origin: { type: category } },
    pricing: { billable: true, pricing_model: 'PMP', category, type: 'regular' },
  };
  const metadata = {
    display_phone_number: number.displayPhoneNumber.replace(/\D/g, ''),
    phone_number_id: number.phoneNumberId,
  };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [{ value: { messaging_product: 'whatsapp', metadata, statuses: [status] }, field: 'messages' }],
      },
    ],
  };
}

/** Posts a report until it is taken, as Meta retries a webhook (here every 200 ms, for a minute). */
async function reportSent(deliver: (body: object) => Promise<boolean>, body: object): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await deliver(body).catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Meta's "Create and manage templates": `{"id": "572279198452421", "status": "PENDING", "category":
 * "MARKETING"}`; a name that already has the language is refused as Meta does (subcode 2388024).
 */
function createTemplate(state: State, res: http.ServerResponse, wabaId: string, body: unknown): void {
  const { name, language, category, library_template_name } = (body ?? {}) as Record<string, unknown>;
  if (typeof name !== 'string' || typeof language !== 'string' || typeof category !== 'string') {
    return send(res, 400, metaError(100, 'Invalid parameter', 'name, language and category are required'));
  }
  const library = typeof library_template_name === 'string';
  const components = library
    ? libraryComponents(body as LibraryRequest)
    : (body as { components?: unknown }).components;
  if (typeof components === 'string') return send(res, 400, metaError(100, 'Invalid parameter', components));
  if (!Array.isArray(components) || !components.some((c) => (c as { type?: unknown }).type === 'BODY')) {
    return send(res, 400, metaError(100, 'Invalid parameter', 'components must include a BODY'));
  }
  const taken = [...state.submitted.values()].some(
    (t) => t.wabaId === wabaId && t.name === name && t.language === language,
  );
  if (taken) {
    return send(
      res,
      400,
      templateError(
        2388024,
        'Content in this language already exists',
        `Content for ${language} already exists for the template ${name}.`,
      ),
    );
  }
  const id = String(randomInt(100_000_000_000_000, 300_000_000_000_000));
  // A library template as is needs no review: Meta approves it at once and lists it.
  const status = library ? 'APPROVED' : 'PENDING';
  const template = { wabaId, name, language, category, components, status };
  state.submitted.set(id, library ? { ...template, library_template_name } : template);
  if (library) {
    const listed = { id, name, language, status, category, components: components as [], library_template_name };
    state.templates.set(wabaId, [...(state.templates.get(wabaId) ?? []), listed]);
  }
  send(res, 200, { id, status, category });
}

interface LibraryRequest {
  library_template_name: string;
  library_template_button_inputs?: { type?: string; url?: { base_url?: string; url_suffix_example?: string } }[];
}

/**
 * Meta's "Template Library": the library template's fixed body and its buttons, each URL button taking
 * the business's `base_url` (and its sample); the reason Meta refuses, as text, when it cannot.
 */
function libraryComponents(request: LibraryRequest): unknown[] | string {
  const template = templateLibrary.find((t) => t.name === request.library_template_name);
  if (!template) return `library_template_name: no library template ${request.library_template_name}`;
  const inputs = request.library_template_button_inputs ?? [];
  const buttons = template.buttons.map((button) => {
    const url = inputs.find((input) => input.type === button.type)?.url;
    if (button.type !== 'URL') return button;
    return url?.base_url && { ...button, url: url.base_url, example: [url.url_suffix_example ?? url.base_url] };
  });
  if (buttons.some((b) => !b)) return 'library_template_button_inputs: a URL button needs its url';
  return [
    { type: 'BODY', text: template.body, example: { body_text: [template.body_params] } },
    { type: 'BUTTONS', buttons },
  ];
}

/** Meta's template edit: `{"success": true}` (Meta reviews the template again). */
function editTemplate(res: http.ServerResponse, template: SubmittedTemplate, body: unknown): void {
  const { category, components } = (body ?? {}) as Record<string, unknown>;
  if (Array.isArray(components)) template.components = components;
  if (typeof category === 'string') template.category = category;
  send(res, 200, { success: true });
}

/** Meta's template deletion by name (every language), or one translation with `hsm_id`: `{"success": true}`. */
function deleteTemplate(state: State, res: http.ServerResponse, wabaId: string, url: URL): void {
  const name = url.searchParams.get('name');
  const hsmId = url.searchParams.get('hsm_id');
  const matches = [...state.submitted.entries()].filter(
    ([id, t]) => t.wabaId === wabaId && t.name === name && (hsmId === null || id === hsmId),
  );
  if (matches.length === 0) {
    return send(res, 400, metaError(100, 'Invalid parameter', `No template named ${name} in this account`));
  }
  for (const [id] of matches) state.submitted.delete(id);
  send(res, 200, { success: true });
}

/** A template management error: Meta adds a title and message for a person (`error_user_title`, `error_user_msg`). */
export function templateError(subcode: number, userTitle: string, userMessage: string) {
  return {
    error: {
      message: 'Invalid parameter',
      type: 'OAuthException',
      code: 100,
      error_subcode: subcode,
      is_transient: false,
      error_user_title: userTitle,
      error_user_msg: userMessage,
      fbtrace_id: fbtraceId(),
    },
  };
}

/** Graph API cursor paging: `after` names the last item seen; `next` is an absolute URL, absent on the last page. */
function sendPage(res: http.ServerResponse, items: unknown[], url: URL): void {
  const after = url.searchParams.get('after');
  const start = after === null ? 0 : decodeCursor(after) + 1;
  if (Number.isNaN(start)) return send(res, 400, metaError(100, 'Invalid parameter', 'after: not a valid cursor'));
  const data = items.slice(start, start + ITEMS_PER_PAGE);
  if (data.length === 0) return send(res, 200, { data });
  const lastIndex = start + data.length - 1;
  const next = new URL(url);
  next.searchParams.set('after', encodeCursor(lastIndex));
  send(res, 200, {
    data,
    paging: {
      cursors: { before: encodeCursor(start), after: encodeCursor(lastIndex) },
      ...(lastIndex < items.length - 1 && { next: next.href }),
    },
  });
}

/** A phone number's fields as Meta names them. */
function phoneNumberFields(number: StandInNumber) {
  return {
    verified_name: number.verifiedName,
    code_verification_status: 'VERIFIED',
    display_phone_number: number.displayPhoneNumber,
    quality_rating: 'GREEN',
    platform_type: 'CLOUD_API',
    throughput: { level: 'STANDARD' },
    id: number.phoneNumberId,
  };
}

/** `GET /{phone-number-id}`: every field, or with `?fields=…` those asked for and the id, as Meta answers. */
function sendPhoneNumber(res: http.ServerResponse, number: StandInNumber, url: URL): void {
  const asked = url.searchParams.get('fields')?.split(',');
  const fields = Object.entries(phoneNumberFields(number));
  send(res, 200, Object.fromEntries(asked ? fields.filter(([name]) => name === 'id' || asked.includes(name)) : fields));
}

/** `GET /{waba-id}/phone_numbers`: the WABA's numbers, paged. */
function sendPhoneNumbers(state: State, res: http.ServerResponse, wabaId: string, url: URL): void {
  const numbers = [...state.numbers.values()].filter((number) => number.wabaId === wabaId);
  sendPage(res, numbers.map(phoneNumberFields), url);
}

/** Meta's "Retrieve Media URL" answer; the URL carries an expiry and a hash, as lookaside URLs do. */
function sendMediaInfo(state: State, res: http.ServerResponse, mediaId: string): void {
  const media = state.media.get(mediaId)!;
  const url = new URL(MEDIA_DOWNLOAD_PATH, state.url);
  url.searchParams.set('mid', mediaId);
  url.searchParams.set('ext', String(Math.floor(Date.now() / 1000) + 300));
  url.searchParams.set('hash', randomBytes(16).toString('base64url'));
  send(res, 200, {
    messaging_product: 'whatsapp',
    url: url.href,
    mime_type: media.mime_type,
    sha256: media.sha256 ?? createHash('sha256').update(media.bytes).digest('hex'),
    file_size: media.bytes.length,
    id: mediaId,
  });
}

/** The media's bytes with its type, for a request that carries a Bearer token (checked before routing). */
function sendMediaBytes(state: State, res: http.ServerResponse, url: URL): void {
  const mediaId = url.searchParams.get('mid') ?? '';
  const media = state.media.get(mediaId);
  if (!media) return sendUnsupported(res, 'GET', mediaId);
  res.writeHead(200, { 'content-type': media.mime_type, 'content-length': String(media.bytes.length) });
  res.end(media.bytes);
}

function encodeCursor(index: number): string {
  return Buffer.from(`index:${index}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^index:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : NaN;
}

/** What Meta answers a missing or unparseable access token with. */
function sendInvalidToken(res: http.ServerResponse): void {
  const body = {
    error: {
      message: 'Invalid OAuth access token - Cannot parse access token',
      type: 'OAuthException',
      code: 190,
      fbtrace_id: fbtraceId(),
    },
  };
  send(res, 401, body, { 'www-authenticate': 'OAuth "Facebook Platform" "invalid_token" "Cannot parse access token"' });
}

/** Meta's answer to an unknown object id, edge or version. */
function sendUnsupported(res: http.ServerResponse, method: string, objectId: string): void {
  const message =
    `Unsupported ${method.toLowerCase()} request. Object with ID '${objectId}' does not exist, ` +
    'cannot be loaded due to missing permissions, or does not support this operation.';
  const error = { message, type: 'GraphMethodException', code: 100, error_subcode: 33, fbtrace_id: fbtraceId() };
  send(res, 400, { error });
}

function fbtraceId(): string {
  return randomBytes(12).toString('base64url');
}

function newWamid(): string {
  return `wamid.${randomBytes(30).toString('base64')}`;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const isText = typeof body === 'string'; // a scripted non-JSON answer, e.g. a proxy's HTML error page
  const contentType = isText ? 'text/html; charset=UTF-8' : 'application/json; charset=UTF-8';
  res.writeHead(status, { 'content-type': contentType, ...headers });
  res.end(isText ? body : JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A media upload as the stand-in records it: the form's fields, and its file part. */
export interface UploadForm {
  fields: Record<string, string>;
  file: { name: string; type: string; bytes: Buffer } | null;
}

/** A multipart/form-data body, parsed as a server would; undefined when it is not valid multipart. */
async function parseForm(raw: Buffer, contentType: string): Promise<UploadForm | undefined> {
  try {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
    const fields: Record<string, string> = {};
    let file: UploadForm['file'] = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else if (name === 'file')
        file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    return { fields, file };
  } catch {
    return undefined;
  }
}

/**
 * Meta's "Upload media": `messaging_product`, the file's MIME `type` and the `file` part are required;
 * the answer is `{ "id": "<MEDIA_ID>" }`. The file is then served like any media Meta keeps.
 */
function uploadMedia(state: State, res: http.ServerResponse, form: UploadForm | undefined): void {
  if (form?.fields.messaging_product !== 'whatsapp') {
    return send(res, 400, metaError(100, 'The parameter messaging_product is required.'));
  }
  if (!form.file || !form.fields.type) {
    return send(res, 400, metaError(100, 'Invalid parameter', 'Param file and type are required'));
  }
  const id = String(randomInt(100_000_000_000_000, 300_000_000_000_000));
  state.media.set(id, { bytes: form.file.bytes, mime_type: form.fields.type });
  send(res, 200, { id });
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
