import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';

/** Loopback, private, link-local, carrier-grade NAT and unspecified ranges: not for flow call-outs. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

function isPrivate(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Resolves as usual, then refuses private addresses. It runs at connect time, so the address
 * checked is the one connected to (a name that re-resolves to 127.0.0.1 is still refused).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses;
    const blocked = list.find((entry) => isPrivate(entry.address));
    if (blocked) return callback(new Error(`${hostname} resolves to a private address (${blocked.address})`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};

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
  return {
    async call(callOut: CallOut): Promise<CallOutResult> {
      const host = new URL(callOut.url).hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivate && isIP(host) && isPrivate(host)) {
        return { ok: false, error: `${host} is a private address` };
      }
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
