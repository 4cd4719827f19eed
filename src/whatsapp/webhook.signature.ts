import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** `sha256=` and 64 hex digits: anything else cannot match, and fixing the length keeps timingSafeEqual from throwing. */
const SIGNATURE_HEADER = /^sha256=([0-9a-f]{64})$/i;

/** Whether `X-Hub-Signature-256` is the HMAC-SHA256 of the raw body under the app secret; never throws. */
export function verifySignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  const hex = header === undefined ? undefined : SIGNATURE_HEADER.exec(header)?.[1];
  // An empty secret would let anyone compute a valid signature.
  if (hex === undefined || appSecret === '') return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/**
 * Whether a request of Meta's (a webhook delivery, a Flows data request) carries the app secret's
 * signature of its raw body; never true without an app secret (WHATSAPP_APP_SECRET).
 */
export function signedByMeta(rawBody: Buffer, headers: IncomingHttpHeaders, appSecret: string | null): boolean {
  const header = headers['x-hub-signature-256'];
  return appSecret !== null && verifySignature(rawBody, typeof header === 'string' ? header : undefined, appSecret);
}

/** Meta's GET subscription handshake: the `hub.challenge` to echo when mode and verify token match, else null. */
export function verifyHandshake(query: Record<string, unknown>, verifyToken: string | null): string | null {
  const challenge = query['hub.challenge'];
  if (!verifyToken || query['hub.mode'] !== 'subscribe') return null;
  if (typeof challenge !== 'string' || challenge === '') return null;
  return sameSecret(query['hub.verify_token'], verifyToken) ? challenge : null;
}

/** Compares digests, so neither the token's content nor its length leaks through timing. */
function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
