import { createHash } from 'node:crypto';

/**
 * A short name for the register at this URL, the same for every spelling of its origin (letter case,
 * default port, trailing slash). Cached answers are kept under it, so that one register's answer is never
 * served for another's. In a file of its own, reachable as `@lvs/register/register-identity`, so that the
 * API can use it without loading the client and its HTML parser.
 */
export function registerIdentity(registerUrl: string): string {
  return createHash('sha256').update(new URL(registerUrl).origin).digest('hex').slice(0, 12);
}
