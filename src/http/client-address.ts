import net from 'node:net';

/**
 * The network a client address stands for when its attempts are counted: an IPv4 address itself,
 * an IPv6 address its /64 (a single subscriber commonly holds a whole /64, so counting single
 * addresses would give them endless fresh ones). IPv4-mapped IPv6 addresses count as the IPv4 one.
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
