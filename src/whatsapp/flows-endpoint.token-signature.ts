import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta's `flow_token_signature` (data_api_version 4.0, Flow JSON 7.3 and later): a JWT that Meta signs with
 * the app secret (HS256) over the Flow token, so the endpoint knows the token came from the Flow Meta
 * opened. Absent from older versions' requests, which are accepted as before.
 *
 * True when the request carries none, or one whose signature verifies under `appSecret` and whose
 * `flow_token` claim (when it names one) is the request's token.
 */
export function flowTokenSignatureHolds(request: Record<string, unknown>, appSecret: string | null): boolean {
  const token = request.flow_token_signature;
  if (token === undefined) return true;
  if (typeof token !== 'string' || !appSecret) return false;
  const [header, payload, signature, ...rest] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined || rest.length > 0) return false;
  if (jsonOf(header)?.alg !== 'HS256') return false;
  const expected = createHmac('sha256', appSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const claims = jsonOf(payload);
  if (claims === null) return false;
  return claims.flow_token === undefined || claims.flow_token === request.flow_token;
}

function jsonOf(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
