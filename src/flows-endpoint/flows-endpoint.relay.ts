import { postSigned, signedPostAgent, targetProblem } from '../outgoing/index.js';
import type { Clock } from '../shared/clock.js';

/**
 * How long a screen waits for the business's endpoint. Meta fails an endpoint request after 10 s (its
 * `timeout_error`); stopping earlier leaves Parley time to answer Meta itself.
 */
export const RELAY_TIMEOUT_MS = 8_000;
/** A screen's data is a few kilobytes; this bounds what a business endpoint can make Parley read. */
const MAX_ANSWER_BYTES = 1_000_000;
/** Meta's "The Flow token is no longer valid", which the business may answer to close the Flow. */
const TOKEN_NO_LONGER_VALID = 427;

/** The business's HTTPS endpoint and its signing secret, opened for one request. */
export interface BusinessEndpoint {
  url: string;
  secret: string;
}

/**
 * What the business's endpoint made of a screen's request: the answer for Meta (a JSON object), the
 * Flow token refused (Meta's 427, with the `error_msg` the person sees), or no usable answer in time.
 */
export type RelayOutcome =
  | { outcome: 'answered'; answer: Record<string, unknown> }
  | { outcome: 'token_invalid'; errorMessage: string | null }
  | { outcome: 'failed'; reason: string };

/**
 * Relays a decrypted Flows request to the business's endpoint as an outgoing webhook is sent: signed per
 * Standard Webhooks, to public addresses only (unless PARLEY_ALLOW_PRIVATE_WEBHOOKS), bounded in time and size.
 */
export function createFlowsRelay(options: { allowPrivate: boolean; clock: Clock; newId: () => string }) {
  const agent = signedPostAgent({
    allowPrivate: options.allowPrivate,
    timeoutMs: RELAY_TIMEOUT_MS,
    maxResponseBytes: MAX_ANSWER_BYTES,
  });

  return {
    /** Never throws: a failure is an outcome with its reason. */
    async relay(target: BusinessEndpoint, request: object): Promise<RelayOutcome> {
      const problem = targetProblem(target.url, options.allowPrivate);
      if (problem) return { outcome: 'failed', reason: `url ${problem.message}` };
      try {
        const response = await postSigned(agent, {
          ...target,
          id: options.newId(),
          timestamp: Math.floor(options.clock.now().getTime() / 1000),
          body: JSON.stringify(request),
          timeoutMs: RELAY_TIMEOUT_MS,
        });
        return outcomeOf(response.statusCode, await response.body.text());
      } catch (error) {
        return { outcome: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
    },

    close: () => agent.close(),
  };
}

function outcomeOf(status: number, text: string): RelayOutcome {
  const body = objectOf(text);
  if (status === TOKEN_NO_LONGER_VALID) {
    return { outcome: 'token_invalid', errorMessage: typeof body?.error_msg === 'string' ? body.error_msg : null };
  }
  if (status < 200 || status >= 300) return { outcome: 'failed', reason: `answered ${status}` };
  if (!body) return { outcome: 'failed', reason: 'answered no JSON object' };
  return { outcome: 'answered', answer: body };
}

function objectOf(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
