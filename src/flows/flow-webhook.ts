import { Agent, request } from 'undici';
import type { FieldError } from '../shared/errors.js';
import { hostOf, isPrivateHost, publicOnlyLookup } from '../shared/public-address.js';
import { flowProblems } from './flow.problems.js';

export interface CallOut {
  url: string;
  method: 'GET' | 'POST';
  timeoutMs: number;
  body: object;
}

export type CallOutResult = { ok: true; status: number; body: unknown } | { ok: false; error: string };

/** The HTTP client of flow webhook nodes: bounded in time and size, no redirects, public addresses only. */
export function createFlowWebhookClient(options: { allowPrivate: boolean }) {
  const agent = new Agent({
    connect: options.allowPrivate ? {} : { lookup: publicOnlyLookup },
    maxResponseSize: 1_000_000,
  });
  /**
   * Why a node may not call `raw` (the problem of `field`, its url), or null; checked when a flow is
   * saved and again before each call.
   */
  const targetProblem = (raw: string, field = 'url'): FieldError | null => {
    if (!URL.canParse(raw)) return flowProblems.problem(field, 'invalid_url');
    const url = new URL(raw);
    if (options.allowPrivate || !isPrivateHost(url)) return null;
    return flowProblems.problem(field, 'private_address', { host: hostOf(url) });
  };

  return {
    targetProblem,

    async call(callOut: CallOut): Promise<CallOutResult> {
      const problem = targetProblem(callOut.url);
      if (problem) return { ok: false, error: `url ${problem.message}` };
      try {
        const response = await request(callOut.url, {
          dispatcher: agent,
          method: callOut.method,
          headers: { 'content-type': 'application/json', 'user-agent': 'Parley flow webhook' },
          ...(callOut.method === 'POST' && { body: JSON.stringify(callOut.body) }),
          headersTimeout: callOut.timeoutMs,
          bodyTimeout: callOut.timeoutMs,
          signal: AbortSignal.timeout(callOut.timeoutMs),
        });
        const text = await response.body.text();
        if (response.statusCode >= 400) return { ok: false, error: `answered ${response.statusCode}` };
        return { ok: true, status: response.statusCode, body: parseBody(text) };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
    close: () => agent.close(),
  };
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export type FlowWebhookClient = ReturnType<typeof createFlowWebhookClient>;
