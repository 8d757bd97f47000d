import { lookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isBlockedAddress } from './url-guard';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup for webhook connections: resolves the host at delivery time and refuses it when any
 * address it resolves to is blocked, so a name cannot be pointed at an internal address after the
 * endpoint was created. The connection then uses exactly the addresses checked here.
 */
export function guardedLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
    if (blocked) {
      const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to a blocked address`);
      refusal.code = 'EBLOCKEDADDRESS';
      return callback(refusal, []);
    }
    if ((options as LookupAllOptions).all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
