import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of the HMAC key. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` is `v1,` + base64 of
 * HMAC-SHA256 over `{id}.{timestamp}.{body}` under the secret's decoded key, so a receiver checks
 * both the body and its freshness (the timestamp) and dedupes by `webhook-id`.
 */
export function signatureHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
