/**
 * The network a caller who has proved nothing is counted by (the challenge buckets here, the
 * endpoints' buckets of refused requests): its IPv4 address, or the /64 of its IPv6 address — one
 * host is routinely given a whole /64, so counting single IPv6 addresses would hand it 2^64
 * buckets. An IPv4-mapped IPv6 address is its IPv4 address. The address is the TCP peer's as the
 * HTTP server saw it (no forwarding header is trusted). Pure.
 */
import { isIPv6 } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

export function clientNetwork(address: string | undefined): string {
  if (!address) return '';
  const bare = address.split('%')[0]!;
  const mapped = IPV4_MAPPED.exec(bare);
  if (mapped) return mapped[1]!;
  if (!isIPv6(bare)) return bare;
  // The first four groups: an embedded IPv4 address only ever fills the last two.
  const [head = '', tail] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const rightGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - rightGroups).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
