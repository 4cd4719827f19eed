import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export { poll, type PollOptions, type Trigger, type TriggerFilter, type TriggerRecords } from './poll.js';
export { ParleyApiError, type Sleep } from './retry.js';
export { fileStore, memoryStore, type CursorStore } from './store.js';

/** A client for Parley's REST API, typed by the generated OpenAPI paths: `client.POST('/v1/actions/…', { body })`. */
export type ParleyClient = Client<paths>;

export interface ParleyClientOptions {
  /** The server's address, e.g. `https://parley.example.com` (the API is served under `/api`). */
  baseUrl: string;
  /** An API token (dashboard → Settings → API Tokens, or `parley token create`). */
  token: string;
  /** A fetch to use instead of the global one, e.g. one whose dispatcher trusts a private CA. */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * A typed API client that sends the token as a bearer header. Redirects are refused rather than
 * followed, so the token is never replayed to another address.
 */
export function createParleyClient({ baseUrl, token, fetch }: ParleyClientOptions): ParleyClient {
  return createClient<paths>({
    baseUrl: `${baseUrl.replace(/\/+$/, '')}/api`,
    headers: { authorization: `Bearer ${token}` },
    redirect: 'error',
    ...(fetch && { fetch }),
  });
}

type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];
export type Me = Schemas['Me'];
export type Contact = Schemas['Contact'];
export type Tag = Schemas['Tag'];
export type Template = Schemas['Template'];
export type Message = Schemas['Message'];
export type Sequence = Schemas['Sequence'];
export type Flow = Schemas['Flow'];
export type Campaign = Schemas['Campaign'];
export type MessageReceivedRecord = Schemas['MessageReceivedRecord'];
export type CampaignSentRecord = Schemas['CampaignSentRecord'];
export type FlowTriggeredRecord = Schemas['FlowTriggeredRecord'];
export type SequenceTriggeredRecord = Schemas['SequenceTriggeredRecord'];
