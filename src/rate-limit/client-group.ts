import { isIP } from 'node:net';
import { ipv6Groups } from '../network/ipv6';

/**
 * What a per-address limit counts a client as: an IPv4 address itself (also when written IPv4-mapped), an IPv6
 * address by its /64. One subscriber usually holds a whole /64, so counting single IPv6 addresses would give
 * each client 2^64 fresh counters.
 */
export function clientGroup(address: string): string {
  const family = isIP(address);
  if (family !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
