import dns from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FieldError } from '../shared/errors.js';
import { hostOf, isLoopbackHost, isPrivateAddress, isPrivateLiteral } from '../shared/public-address.js';
import { webhookProblems } from './webhook.problems.js';

/** How long creating a subscription waits for its host name to resolve. */
const LOOKUP_TIMEOUT_MS = 3_000;

/**
 * Why a webhook URL (the field `url`) is not an acceptable target, or null: https, and not a private IP literal. With
 * PARLEY_ALLOW_PRIVATE_WEBHOOKS, private addresses are allowed, and plain http to loopback (a
 * receiver in a test). Checked before every attempt, whose connection then refuses host names that
 * resolve to private addresses (publicOnlyLookup).
 */
export function targetProblem(raw: string, allowPrivate: boolean): FieldError | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return webhookProblems.problem('url', 'absolute_https_url');
  }
  if (url.username || url.password) return webhookProblems.problem('url', 'credentials_in_url');
  if (url.protocol === 'http:' && allowPrivate && isLoopbackHost(hostOf(url))) return null;
  if (url.protocol !== 'https:') return webhookProblems.problem('url', 'https_required');
  if (!allowPrivate && isPrivateLiteral(url)) return webhookProblems.problem('url', 'private_target');
  return null;
}

/**
 * targetProblem when a subscription is saved, where host names are checked too: `localhost`, and
 * names that resolve to a private address now. A name that does not resolve (yet) is accepted:
 * every attempt resolves it again.
 */
export async function savedTargetProblem(raw: string, allowPrivate: boolean): Promise<FieldError | null> {
  const problem = targetProblem(raw, allowPrivate);
  if (problem || allowPrivate) return problem;
  const host = hostOf(new URL(raw));
  if (isLoopbackHost(host)) return webhookProblems.problem('url', 'private_target');
  if (isIP(host)) return null;
  const blocked = (await resolve(host)).find((address) => isPrivateAddress(address));
  return blocked ? webhookProblems.problem('url', 'resolves_to_private', { host, address: blocked }) : null;
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
