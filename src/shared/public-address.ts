import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * IPv4 ranges that are not the public internet: this network, private, carrier-grade NAT,
 * loopback, link-local, IETF protocol assignments, benchmarking, multicast, reserved (with the
 * broadcast address). Never the target of a call-out Parley makes for a workspace (flow webhook
 * nodes, outgoing webhooks).
 */
const PRIVATE_IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** IPv6 ranges that are never public: unspecified, loopback, discard, Teredo, local NAT64, ULA, link- and site-local, multicast. */
const PRIVATE_IPV6: readonly (readonly [string, number])[] = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 32],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

/**
 * IPv6 prefixes that carry an IPv4 address in their bits (IPv4-compatible `::a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`): each private IPv4 range is refused under each, while
 * their public addresses stay reachable (DNS64 networks resolve every IPv4-only host to NAT64).
 * IPv4-mapped `::ffff:a.b.c.d` needs none: BlockList checks it against the IPv4 ranges itself.
 */
const IPV4_CARRIERS: readonly { embed: (high: string, low: string) => string; prefix: number }[] = [
  { embed: (high, low) => `::${high}:${low}`, prefix: 96 },
  { embed: (high, low) => `64:ff9b::${high}:${low}`, prefix: 96 },
  { embed: (high, low) => `2002:${high}:${low}::`, prefix: 16 },
];

const PRIVATE = new BlockList();
for (const [network, prefix] of PRIVATE_IPV4) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
  const [a, b, c, d] = network.split('.').map(Number) as [number, number, number, number];
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  for (const carrier of IPV4_CARRIERS) PRIVATE.addSubnet(carrier.embed(high, low), carrier.prefix + prefix, 'ipv6');
}
for (const [network, prefix] of PRIVATE_IPV6) PRIVATE.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** How a refused target is described, wherever a workspace gives Parley a URL to call. */
export const PRIVATE_TARGET = 'must not point to a loopback or private address';

/** Whether an IP address is in a private or loopback range, or an IPv6 form of one. */
export function isPrivateAddress(address: string): boolean {
  return PRIVATE.check(address, family(address));
}

/** A URL's host without the brackets of an IPv6 literal, or the final dot of a fully qualified name (`localhost.`). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/** Whether a URL's host is a private IP literal (names are checked when they are resolved). */
export function isPrivateLiteral(url: URL): boolean {
  const host = hostOf(url);
  return isIP(host) !== 0 && isPrivateAddress(host);
}

/**
 * Whether a workspace may not call this URL's host: a private IP literal, or a loopback name. Other
 * names are checked when they are resolved (publicOnlyLookup), so this never touches DNS.
 */
export function isPrivateHost(url: URL): boolean {
  return isPrivateLiteral(url) || isLoopbackHost(hostOf(url));
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

/**
 * Whether the internet (Meta's webhooks) could reach this URL: not a private or loopback address,
 * nor a single-label name such as `parley` that only a local network resolves. A hint, not a check:
 * a public name may still be firewalled.
 */
export function looksPubliclyReachable(url: URL): boolean {
  const host = hostOf(url);
  return !isPrivateHost(url) && (isIP(host) !== 0 || host.includes('.'));
}
