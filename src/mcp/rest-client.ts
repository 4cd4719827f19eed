import type { Api } from '../http/types.js';
import type { RestMethod } from './operations.js';

/** A REST response: its status and parsed JSON body (a problem document when status ≥ 400). */
export interface RestResponse {
  status: number;
  body: unknown;
}

/** Calls the REST API as one token. */
export interface RestClient {
  request(
    method: RestMethod,
    url: string,
    input?: { query?: Record<string, string>; body?: unknown },
  ): Promise<RestResponse>;
}

/**
 * Calls the REST API in-process (Fastify's inject) with the caller's bearer token, so a tool call
 * goes through exactly what an HTTPS request does: authentication, scopes, rate limits,
 * validation, workspace isolation and the problem shape. The caller's own request has already
 * passed the HTTPS check, so the injected one is marked as forwarded over https.
 */
export function inProcessRestClient(app: Api, token: string): RestClient {
  return {
    async request(method, url, { query, body } = {}) {
      const response = await app.inject({
        method,
        url,
        ...(query && { query }),
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https' },
        ...(method !== 'GET' && { payload: body ?? {} }),
      });
      return { status: response.statusCode, body: response.body ? (JSON.parse(response.body) as unknown) : null };
    },
  };
}
