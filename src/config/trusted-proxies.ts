import { isIP } from 'node:net';

/** The address ranges proxy-addr (Fastify's trustProxy) knows by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * One entry of TRUST_PROXY: a named range, an address, or an address with a prefix length. Only a peer in these
 * ranges may name the client's address in X-Forwarded-For; any other peer is the client itself, so a caller that
 * reaches the API directly cannot pick the address that its failed sign-ins and authentications count against.
 */
export function isTrustedProxyEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
