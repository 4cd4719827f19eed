import { Agent, request, type Dispatcher } from 'undici';
import { publicOnlyLookup } from '../shared/public-address.js';
import { signatureHeaders } from './webhook.signature.js';

/** A POST Parley signs for a workspace's endpoint: an outgoing webhook's attempt, a WhatsApp Flows screen relayed. */
export interface SignedPost {
  url: string;
  /** The endpoint's signing secret (`whsec_…`). */
  secret: string;
  /** `webhook-id`: what the receiver dedupes by. */
  id: string;
  /** `webhook-timestamp`, Unix seconds. */
  timestamp: number;
  body: string;
  /** Bounds connecting, the answer's headers and its body. */
  timeoutMs: number;
}

/**
 * The connection pool of signed posts: connecting bounded, and (unless PARLEY_ALLOW_PRIVATE_WEBHOOKS) a
 * connect-time lookup that refuses private addresses, so the address checked is the one connected to.
 */
export function signedPostAgent(options: { allowPrivate: boolean; timeoutMs: number; maxResponseBytes?: number }) {
  return new Agent({
    connect: { timeout: options.timeoutMs, ...(!options.allowPrivate && { lookup: publicOnlyLookup }) },
    ...(options.maxResponseBytes !== undefined && { maxResponseSize: options.maxResponseBytes }),
  });
}

/** POSTs the JSON body signed per Standard Webhooks (webhook.signature.ts); throws when no answer came in time. */
export function postSigned(dispatcher: Dispatcher, post: SignedPost): Promise<Dispatcher.ResponseData> {
  return request(post.url, {
    dispatcher,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Parley-Webhooks/1',
      ...signatureHeaders(post.secret, post.id, post.timestamp, post.body),
    },
    body: post.body,
    headersTimeout: post.timeoutMs,
    bodyTimeout: post.timeoutMs,
    signal: AbortSignal.timeout(post.timeoutMs),
  });
}
