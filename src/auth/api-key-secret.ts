import { hash, randomBytes } from 'node:crypto';
import { KeyMode } from './key-mode';

const KEY_PREFIX = 'lvs_';
const TEST_KEY_PREFIX = 'lvs_test_';

/**
 * A new plain API key: 256 random bits, URL-safe, after `lvs_` (live) or `lvs_test_` (test), so that a partner
 * tells a test key at a glance. Shown once, never stored.
 */
export function generateApiKey(mode: KeyMode = 'live'): string {
  return `${mode === 'test' ? TEST_KEY_PREFIX : KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The mode a key's text says. Only for showing a key: the service decides a key's mode from its user's row, so a
 * live key whose random part happens to begin with `test_` still works live.
 */
export function keyModeOf(plainKey: string): KeyMode {
  return plainKey.startsWith(TEST_KEY_PREFIX) ? 'test' : 'live';
}

/**
 * The stored form of a key. Keys are 256-bit random, so a fast hash is enough: there is no
 * dictionary to guess from, and a slow hash would cost every request.
 */
export function hashApiKey(plainKey: string): string {
  return hash('sha256', plainKey, 'hex');
}

/** The part of a key an operator may see in listings, to tell keys apart: its mode prefix and 6 characters. */
export function displayPrefix(plainKey: string): string {
  return plainKey.slice(0, (keyModeOf(plainKey) === 'test' ? TEST_KEY_PREFIX : KEY_PREFIX).length + 6);
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
