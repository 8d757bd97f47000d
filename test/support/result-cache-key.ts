import { registerIdentity } from '@lvs/register/register-identity';

/** Where the result cache keeps the answer of the register at registerUrl for a number. */
export function resultCacheKey(redisPrefix: string, registerUrl: string, licenceNumber: string): string {
  return `${redisPrefix}:result:${registerIdentity(registerUrl)}:${licenceNumber}`;
}
