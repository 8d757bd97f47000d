import { hash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'lvs_';

/** A new plain API key: 256 random bits, URL-safe. Shown once, never stored. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The stored form of a key. Keys are 256-bit random, so a fast hash is enough: there is no
 * dictionary to guess from, and a slow hash would cost every request.
 */
export function hashApiKey(plainKey: string): string {
  return hash('sha256', plainKey, 'hex');
}

/** The part of a key an operator may see in listings, to tell keys apart. */
export function displayPrefix(plainKey: string): string {
  return plainKey.slice(0, KEY_PREFIX.length + 6);
}

type HeaderValue = string | string[] | undefined;

/** The key a request presents: `X-API-Key: KEY` or `Authorization: Bearer KEY`; null when none. */
export function readApiKey(headers: Record<string, HeaderValue>): string | null {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string' && direct.trim() !== '') return direct.trim();
  const authorization = headers['authorization'];
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return null;
}
