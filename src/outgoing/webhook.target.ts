import dns from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  hostOf,
  isLoopbackHost,
  isPrivateAddress,
  isPrivateLiteral,
  PRIVATE_TARGET,
} from '../shared/public-address.js';

/** How long creating a subscription waits for its host name to resolve. */
const LOOKUP_TIMEOUT_MS = 3_000;

/**
 * Why a webhook URL is not an acceptable target, or null: https, and not a private IP literal. With
 * PARLEY_ALLOW_PRIVATE_WEBHOOKS, private addresses are allowed, and plain http to loopback (a
 * receiver in a test). Checked before every attempt, whose connection then refuses host names that
 * resolve to private addresses (publicOnlyLookup).
 */
export function targetProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'http:' && allowPrivate && isLoopbackHost(hostOf(url))) return null;
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (!allowPrivate && isPrivateLiteral(url)) return PRIVATE_TARGET;
  return null;
}

/**
 * targetProblem when a subscription is saved, where host names are checked too: `localhost`, and
 * names that resolve to a private address now. A name that does not resolve (yet) is accepted:
 * every attempt resolves it again.
 */
export async function savedTargetProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  const problem = targetProblem(raw, allowPrivate);
  if (problem || allowPrivate) return problem;
  const host = hostOf(new URL(raw));
  if (isLoopbackHost(host)) return PRIVATE_TARGET;
  if (isIP(host)) return null;
  const blocked = (await resolve(host)).find((address) => isPrivateAddress(address));
  return blocked ? `${PRIVATE_TARGET} (${host} resolves to ${blocked})` : null;
}

async function resolve(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<[]>((done) => (timer = setTimeout(() => done([]), LOOKUP_TIMEOUT_MS)));
  const lookup = dns.lookup(host, { all: true }).then(
    (entries) => entries.map((entry) => entry.address),
    () => [],
  );
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
