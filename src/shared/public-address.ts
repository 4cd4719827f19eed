import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Loopback, private, link-local, carrier-grade NAT and unspecified ranges: never the target of a
 * call-out Parley makes for a workspace (flow webhook nodes, outgoing webhooks).
 */
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

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Whether an IP address is in a private or loopback range (IPv4-mapped IPv6 ones too: BlockList maps them). */
export function isPrivateAddress(address: string): boolean {
  return PRIVATE.check(address, family(address));
}

/** A URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Whether a URL's host is a private IP literal (names are checked when they are resolved). */
export function isPrivateLiteral(url: URL): boolean {
  const host = hostOf(url);
  return isIP(host) !== 0 && isPrivateAddress(host);
}

/** Whether a host is loopback: `localhost` (and its subdomains) or a loopback IP literal. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && LOOPBACK.check(host, family(host));
}

/**
 * Resolves as usual, then refuses private addresses. Given to an HTTP agent as its connect-time
 * lookup, so the address checked is the one connected to (a name that re-resolves to 127.0.0.1 is
 * still refused). IP literals never reach a lookup: check them with isPrivateLiteral.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const blocked = addresses.find((entry) => isPrivateAddress(entry.address));
    if (blocked) return callback(new Error(`${hostname} resolves to a private address (${blocked.address})`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
