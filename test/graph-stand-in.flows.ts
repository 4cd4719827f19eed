import { randomInt, randomUUID } from 'node:crypto';
import type { ChannelFlow, FlowValidationError } from '../src/channels/provider.js';

/**
 * Meta's Flows API, as the Graph API stand-in answers it: create, upload the Flow JSON, publish,
 * deprecate, delete, describe and list a WhatsApp Business Account's Flows. Every answer and error is
 * written from Meta's "Flows API" reference (developers.facebook.com/docs/whatsapp/flows/reference/flowsapi),
 * its "Flow JSON" reference, its "Lifecycle of a Flow" guide and its "Error codes" page (Flows' "Flow
 * Management API error codes": 139001 update, 139002 publish, 139003 deprecate, 139004 delete, each under
 * the description Meta's table gives it).
 */

/** A Flow the stand-in keeps, with its WABA and the Flow JSON last uploaded. */
export interface StandInFlow {
  wabaId: string;
  name: string;
  categories: string[];
  status: string;
  json: string | null;
  validationErrors: FlowValidationError[];
}

/** An answer for the stand-in to send: its status and JSON body, or a list to send in Meta's pages. */
export type FlowAnswer = { status: number; body: unknown } | { page: unknown[] };

/** What a Flows API request carries, as the stand-in routed it. */
export interface FlowRequest {
  method: string;
  objectId: string;
  edge: string | undefined;
  body: unknown;
  url: URL;
  flows: Map<string, StandInFlow>;
  /** Whether the request's token may act on this WABA. */
  mayRead: (wabaId: string) => boolean;
  /** Meta's error envelope (graph-stand-in's metaError) with Meta's words for a person. */
  error: (code: number, title: string, userTitle: string, userMessage: string) => unknown;
}

/** Meta's Flow categories ("Create Flow"). */
const CATEGORIES = new Set([
  'SIGN_UP',
  'SIGN_IN',
  'APPOINTMENT_BOOKING',
  'LEAD_GENERATION',
  'SHOPPING',
  'CONTACT_US',
  'CUSTOMER_SUPPORT',
  'SURVEY',
  'OTHER',
]);

/** The components a Flow JSON screen's layout may hold (Meta's "Flow JSON" components reference). */
const COMPONENTS = new Set([
  'TextHeading',
  'TextSubheading',
  'TextBody',
  'TextCaption',
  'RichText',
  'TextInput',
  'TextArea',
  'CheckboxGroup',
  'RadioButtonsGroup',
  'Dropdown',
  'ChipsSelector',
  'DatePicker',
  'CalendarPicker',
  'OptIn',
  'EmbeddedLink',
  'Footer',
  'Image',
  'If',
  'Switch',
  'NavigationList',
  'PhotoPicker',
  'DocumentPicker',
  'Form',
]);

/** The Flows API's answer to a request, or null when it is not one of its requests. */
export function answerFlowRequest(request: FlowRequest): FlowAnswer | null {
  const { method, objectId, edge, body, flows } = request;
  if (edge === 'flows' && request.mayRead(objectId)) {
    if (method === 'POST') return createFlow(request, objectId, (body ?? {}) as Record<string, unknown>);
    if (method === 'GET') return { page: [...flows].filter(([, f]) => f.wabaId === objectId).map(describe) };
  }
  const flow = flows.get(objectId);
  if (!flow || !request.mayRead(flow.wabaId)) return null;
  if (method === 'POST' && edge === 'assets') return uploadFlowJson(request, flow, body as UploadedForm | undefined);
  if (method === 'POST' && edge === 'publish') return publish(request, flow);
  if (method === 'POST' && edge === 'deprecate') return deprecate(request, flow);
  if (method === 'DELETE' && edge === undefined) return deleteFlow(request, objectId, flow);
  if (method === 'GET' && edge === undefined) return { status: 200, body: withFields(objectId, flow, request.url) };
  return null;
}

interface UploadedForm {
  fields: Record<string, string>;
  file: { name: string; bytes: Buffer } | null;
}

const success = { status: 200, body: { success: true } };

/**
 * "Create Flow": `name` (unique in the WABA) and `categories` required, `clone_flow_id` optional (the
 * clone takes the source's Flow JSON); answers `{ "id": "<Flow-ID>", "success": true }`.
 */
function createFlow(request: FlowRequest, wabaId: string, body: Record<string, unknown>): FlowAnswer {
  const { name, categories, clone_flow_id: cloneId } = body;
  const validCategories =
    Array.isArray(categories) && categories.length > 0 && categories.every((c) => CATEGORIES.has(String(c)));
  if (typeof name !== 'string' || name.trim() === '' || !validCategories) {
    return invalid(request, 'name and categories are required; categories are among Meta’s');
  }
  const taken = [...request.flows.values()].some((flow) => flow.wabaId === wabaId && flow.name === name);
  if (taken) {
    const error = request.error(100, 'Invalid parameter', 'Flow name is not unique', 'Flow name is not unique.');
    return { status: 400, body: error };
  }
  const source = typeof cloneId === 'string' ? request.flows.get(cloneId) : undefined;
  if (cloneId !== undefined && source?.wabaId !== wabaId) return invalid(request, 'clone_flow_id: no such Flow');
  const id = String(randomInt(100_000_000_000_000, 280_000_000_000_000));
  request.flows.set(id, {
    wabaId,
    name,
    categories: categories as string[],
    status: 'DRAFT',
    json: source?.json ?? null,
    validationErrors: source?.validationErrors ?? [],
  });
  return { status: 200, body: { id, success: true } };
}

/**
 * "Update Flow JSON": multipart `file`, `name` flow.json and `asset_type` FLOW_JSON. Meta keeps the
 * document even when invalid and answers `{ "success": true, "validation_errors": [...] }`; only a
 * draft's JSON can be updated (Error codes: 139001 "Flow can't be updated").
 */
function uploadFlowJson(request: FlowRequest, flow: StandInFlow, form: UploadedForm | undefined): FlowAnswer {
  if (!form?.file || form.fields.name !== 'flow.json' || form.fields.asset_type !== 'FLOW_JSON') {
    return invalid(request, 'file, name (flow.json) and asset_type (FLOW_JSON) are required');
  }
  if (flow.status !== 'DRAFT') {
    const message = `Flow is in ${flow.status} status and can't be updated.`;
    return { status: 400, body: request.error(139001, "Flow can't be updated", "Flow can't be updated", message) };
  }
  flow.json = form.file.bytes.toString('utf8');
  flow.validationErrors = validateFlowJson(flow.json);
  return { status: 200, body: { success: true, validation_errors: flow.validationErrors } };
}

/**
 * "Publish": only a draft with a valid Flow JSON (Error codes: 139002 "Publishing Flow in invalid state",
 * "Publishing Flow with validation errors").
 */
function publish(request: FlowRequest, flow: StandInFlow): FlowAnswer {
  const refused = (title: string, why: string) => ({
    status: 400,
    body: request.error(139002, title, "Flow can't be published", why),
  });
  if (flow.status !== 'DRAFT') {
    return refused(
      'Publishing Flow in invalid state',
      `Flow is in ${flow.status} status; only a DRAFT Flow can be published.`,
    );
  }
  if (flow.json === null || flow.validationErrors.length > 0) {
    const why = 'Publishing a Flow with validation errors or without a Flow JSON is not allowed.';
    return refused('Publishing Flow with validation errors', why);
  }
  flow.status = 'PUBLISHED';
  return success;
}

/**
 * "Deprecate": only a published Flow ("Lifecycle of a Flow"; Error codes: 139003 "Can't deprecate
 * unpublished flow", "Flow is already deprecated").
 */
function deprecate(request: FlowRequest, flow: StandInFlow): FlowAnswer {
  if (flow.status !== 'PUBLISHED') {
    const title = flow.status === 'DEPRECATED' ? 'Flow is already deprecated' : "Can't deprecate unpublished flow";
    const message = `Flow is in ${flow.status} status; only a PUBLISHED Flow can be deprecated.`;
    return { status: 400, body: request.error(139003, title, "Flow can't be deprecated", message) };
  }
  flow.status = 'DEPRECATED';
  return success;
}

/** "Delete Flow": only a draft (Error codes: 139004 "Can't delete published Flow"). */
function deleteFlow(request: FlowRequest, id: string, flow: StandInFlow): FlowAnswer {
  if (flow.status !== 'DRAFT') {
    const message = `Flow is in ${flow.status} status; only a DRAFT Flow can be deleted.`;
    return {
      status: 400,
      body: request.error(139004, "Can't delete published Flow", "Flow can't be deleted", message),
    };
  }
  request.flows.delete(id);
  return success;
}

/** A Flow as "Retrieve Flow details" and "List Flows" describe it. */
function describe([id, flow]: [string, StandInFlow]): ChannelFlow {
  return {
    id,
    name: flow.name,
    status: flow.status,
    categories: flow.categories,
    validation_errors: flow.validationErrors,
  };
}

/** "Retrieve Flow details": the fields asked for (`?fields=`), `preview` a fresh link valid for 30 days. */
function withFields(id: string, flow: StandInFlow, url: URL): Record<string, unknown> {
  const asked = new Set((url.searchParams.get('fields') ?? 'id,name').split(','));
  const expires = new Date(Date.now() + 30 * 24 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+0000');
  const all: Record<string, unknown> = {
    ...describe([id, flow]),
    preview: {
      preview_url: `https://business.facebook.com/wa/manage/flows/${id}/preview/?token=${randomUUID()}`,
      expires_at: expires,
    },
  };
  return Object.fromEntries(Object.entries(all).filter(([field]) => asked.has(field) || field === 'id'));
}

function invalid(request: FlowRequest, details: string): FlowAnswer {
  return { status: 400, body: request.error(100, 'Invalid parameter', 'Invalid parameter', details) };
}

/**
 * Some of Meta's checks of a Flow JSON document, each error where Meta puts it: its lines and columns in
 * the document (1-based) and its JSON path (Flow JSON reference: `version` and `screens` required; a
 * screen's `id` of letters and underscores; its `layout` a SingleColumnLayout of known components).
 */
export function validateFlowJson(text: string): FlowValidationError[] {
  const spans = valueSpans(text);
  const document = JSON.parse(text) as Record<string, unknown>;
  const found: FlowValidationError[] = [];
  const missing = (path: string, property: string) =>
    found.push(flowError(text, spans, path, 'MISSING_REQUIRED_PROPERTY', `Missing required property '${property}'.`));
  const wrong = (path: string, property: string) =>
    found.push(
      flowError(text, spans, path, 'INVALID_PROPERTY_VALUE', `Invalid value found for property '${property}'.`),
    );
  if (typeof document.version !== 'string') missing('', 'version');
  if (!Array.isArray(document.screens) || document.screens.length === 0) {
    missing('', 'screens');
    return found;
  }
  (document.screens as Record<string, unknown>[]).forEach((screen, i) => {
    const at = `screens[${i}]`;
    if (typeof screen.id !== 'string') missing(at, 'id');
    else if (!/^[A-Za-z_]+$/.test(screen.id)) wrong(`${at}.id`, 'id');
    const layout = screen.layout as Record<string, unknown> | undefined;
    if (!layout) return missing(at, 'layout');
    if (layout.type !== 'SingleColumnLayout') wrong(`${at}.layout.type`, 'type');
    if (!Array.isArray(layout.children)) return missing(`${at}.layout`, 'children');
    (layout.children as Record<string, unknown>[]).forEach((child, j) => {
      if (!COMPONENTS.has(String(child.type))) wrong(`${at}.layout.children[${j}].type`, 'type');
    });
  });
  return found;
}

function flowError(text: string, spans: Map<string, [number, number]>, path: string, error: string, message: string) {
  const [start, end] = spans.get(path) ?? [0, text.length];
  const [lineStart, columnStart] = lineAndColumn(text, start);
  const [lineEnd, columnEnd] = lineAndColumn(text, end);
  const position = { line_start: lineStart, line_end: lineEnd, column_start: columnStart, column_end: columnEnd };
  return { error, error_type: 'FLOW_JSON_ERROR', message, ...position, pointers: [{ ...position, path }] };
}

function lineAndColumn(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset).split('\n');
  return [before.length, before.at(-1)!.length + 1];
}

/** Where each value of a JSON text starts and ends, by its path (`screens[0].layout.type`; '' the document). */
function valueSpans(text: string): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  let at = 0;
  const skip = () => {
    while (/\s/.test(text[at] ?? '')) at++;
  };
  const string = () => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (path: string): void => {
    skip();
    const start = at;
    if (text[at] === '{') {
      at++;
      for (skip(); text[at] !== '}'; skip()) {
        if (text[at] === ',') at++;
        skip();
        const key = string();
        skip();
        at++; // the colon
        value(path === '' ? key : `${path}.${key}`);
        skip();
      }
      at++;
    } else if (text[at] === '[') {
      at++;
      skip();
      for (let i = 0; text[at] !== ']'; i++) {
        if (text[at] === ',') at++;
        value(`${path}[${i}]`);
        skip();
      }
      at++;
    } else if (text[at] === '"') string();
    else at += /^(-?[\d.eE+-]+|true|false|null)/.exec(text.slice(at))![0].length;
    spans.set(path, [start, at]);
  };
  value('');
  return spans;
}
