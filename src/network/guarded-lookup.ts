import { lookup, promises as dns } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isBlockedAddress } from './url-guard';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type GuardedLookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

/** How long the webhook resolver waits for one answer, and how often it asks, before a delivery attempt fails. */
const RESOLVER_TIMEOUT_MS = 2000;
const RESOLVER_TRIES = 2;

/** Every A and AAAA record of `hostname` from the given DNS servers; an error only when neither family has one. */
function resolverLookup(servers: readonly string[]): (hostname: string, family: number) => Promise<LookupAddress[]> {
  const resolver = new dns.Resolver({ timeout: RESOLVER_TIMEOUT_MS, tries: RESOLVER_TRIES });
  resolver.setServers([...servers]);
  return async (hostname, family) => {
    const [v4, v6] = await Promise.allSettled([
      family === 6 ? Promise.resolve([]) : resolver.resolve4(hostname),
      family === 4 ? Promise.resolve([]) : resolver.resolve6(hostname),
    ]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length === 0) throw v4.status === 'rejected' ? v4.reason : v6.status === 'rejected' ? v6.reason : notFound(hostname);
    return addresses;
  };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
  error.code = 'ENOTFOUND';
  return error;
}

/** The system's resolver (dns.lookup: hosts file, then the resolvers the machine is configured with). */
function systemLookup(hostname: string, family: number): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { family, all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/** Every address of a host a partner named (family 4 or 6, or 0 for both): from the DNS servers given (WEBHOOK_DNS_SERVERS), else the system's. */
export function outboundResolver(dnsServers: readonly string[]): (hostname: string, family: number) => Promise<LookupAddress[]> {
  return dnsServers.length > 0 ? resolverLookup(dnsServers) : systemLookup;
}

/**
 * dns.lookup for connections to hosts partners name (webhook endpoints, single sign-on issuers): resolves the host
 * when it connects (outboundResolver) and refuses it when any address it resolves to is blocked (isBlockedAddress,
 * embedded IPv4 included), so a name cannot be pointed at an internal address after it was checked. The connection
 * then uses exactly the addresses checked here.
 */
export function guardedLookup(dnsServers: readonly string[]): GuardedLookup {
  const resolve = outboundResolver(dnsServers);
  return (hostname, options, callback) => {
    resolve(hostname, options.family === 4 || options.family === 6 ? options.family : 0).then(
      (addresses) => {
        if (addresses.some((entry) => isBlockedAddress(entry.address))) {
          const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to a blocked address`);
          refusal.code = 'EBLOCKEDADDRESS';
          return callback(refusal, []);
        }
        if ((options as LookupAllOptions).all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
