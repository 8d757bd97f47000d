import { BlockList, isIP } from 'node:net';
import { ipv6Groups } from './ipv6';

/**
 * IPv4 addresses a webhook must never reach unless private URLs are allowed: loopback, private,
 * carrier-grade NAT, link-local (which holds cloud metadata at 169.254.169.254), unspecified,
 * multicast and reserved ranges.
 */
const BLOCKED_V4 = new BlockList();
for (const [network, prefix] of [
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
] as const) {
  BLOCKED_V4.addSubnet(network, prefix, 'ipv4');
}

/**
 * IPv6 ranges refused outright: unspecified, loopback, unique local, link-local, site-local,
 * multicast, the AWS metadata prefix, and the discard-only prefix 100::/64.
 */
const BLOCKED_V6 = new BlockList();
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['fd00:ec2::', 32],
  ['100::', 64],
] as const) {
  BLOCKED_V6.addSubnet(network, prefix, 'ipv6');
}

const dottedQuad = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
const zero = (groups: number[]): boolean => groups.every((group) => group === 0);

/**
 * Every IPv4 address an IPv6 address carries, by the translation and tunnelling schemes that would
 * deliver a packet to it: IPv4-mapped ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96,
 * IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16 and Teredo 2001::/32.
 */
export function embeddedIPv4(address: string): string[] {
  const g = ipv6Groups(address);
  const last32 = dottedQuad(g[6], g[7]);
  if (zero(g.slice(0, 5)) && g[5] === 0xffff) return [last32];
  if (zero(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0) return [last32];
  if (zero(g.slice(0, 6))) return [last32];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(g.slice(2, 6))) return [last32];
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) {
    // The local-use NAT64 prefix may be cut at any RFC 6052 length from /48 to /96, and the worker
    // cannot know which one the network's translator uses: every reading must be public.
    const bytes = g.flatMap((group) => [group >> 8, group & 0xff]);
    const at = (...indexes: number[]) => indexes.map((index) => bytes[index]).join('.');
    return [at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12), last32];
  }
  if (g[0] === 0x2002) return [dottedQuad(g[1], g[2])];
  if (g[0] === 0x2001 && g[1] === 0) return [dottedQuad(g[6] ^ 0xffff, g[7] ^ 0xffff)];
  return [];
}

/** true for an address a webhook may not be sent to, including an IPv6 address that carries a blocked IPv4 one. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  if (BLOCKED_V6.check(address.replace(/%.*$/, ''), 'ipv6')) return true;
  return embeddedIPv4(address).some((v4) => BLOCKED_V4.check(v4, 'ipv4'));
}

/**
 * Checks a webhook URL as written: https only, no credentials, and a host that is not a blocked
 * address or a local name. Names are resolved and checked by WebhookUrlCheck when the endpoint is added, and
 * again on every delivery connection, since DNS can change. Returns null when the URL is acceptable.
 */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'scheme';
  if (url.username || url.password) return 'credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return isBlockedAddress(host) ? 'address' : null;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || !host.includes('.')) {
    return 'local name';
  }
  return null;
}
