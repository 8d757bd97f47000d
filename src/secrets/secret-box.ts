import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export { DEVELOPMENT_WEBHOOK_KEY_HEX as DEVELOPMENT_KEY_HEX } from '../config/development-keys';

/** A key of the keyring and the id its ciphertexts carry. */
export interface SecretKey {
  id: string;
  hex: string;
}

/** Thrown when no configured key opens a stored secret (unknown key id, another key, or a damaged ciphertext). */
export class UndecryptableSecretError extends Error {
  constructor() {
    super('Signing secret cannot be decrypted with the configured WEBHOOK_SECRET_KEYS');
    this.name = 'UndecryptableSecretError';
  }
}

/**
 * A short fingerprint that names a key inside its ciphertexts: 48 bits of a labelled SHA-256 of the key,
 * enough to tell a few keys apart and nothing towards finding the key.
 */
export function keyIdOf(keyHex: string): string {
  return createHash('sha256').update('lvs webhook secret key id:').update(Buffer.from(keyHex, 'hex')).digest('base64url').slice(0, 8);
}

export function secretKey(keyHex: string): SecretKey {
  return { id: keyIdOf(keyHex), hex: keyHex.toLowerCase() };
}

interface SealedParts {
  /** null for "v1", written before keys could rotate: it names no key */
  keyId: string | null;
  iv: string;
  tag: string;
  sealed: string;
}

/**
 * AES-256-GCM in base64url: "v2.<key id>.<iv>.<tag>.<ciphertext>"; the tag makes tampering fail loudly.
 * "v1.<iv>.<tag>.<ciphertext>" (no key id) is still read.
 */
export function encryptSecret(plain: string, key: SecretKey): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key.hex, 'hex'), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v2', key.id, ...[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'))].join('.');
}

function parseSealed(stored: string): SealedParts | null {
  const parts = stored.split('.');
  if (parts[0] === 'v1' && parts.length === 4) return { keyId: null, iv: parts[1], tag: parts[2], sealed: parts[3] };
  if (parts[0] === 'v2' && parts.length === 5) return { keyId: parts[1], iv: parts[2], tag: parts[3], sealed: parts[4] };
  return null;
}

/** The keys that may open a stored secret, in keyring order: the one its id names, or all of them for v1. */
function candidateKeys(parts: SealedParts, keyring: readonly SecretKey[]): readonly SecretKey[] {
  return parts.keyId === null ? keyring : keyring.filter((key) => key.id === parts.keyId);
}

function openWith(parts: SealedParts, key: SecretKey): string {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key.hex, 'hex'), Buffer.from(parts.iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(parts.tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(parts.sealed, 'base64url')), decipher.final()]).toString('utf8');
}

/** The plain secret; UndecryptableSecretError when no key of the keyring opens it. */
export function decryptSecret(stored: string, keyring: readonly SecretKey[]): string {
  const parts = parseSealed(stored);
  if (parts !== null) {
    for (const key of candidateKeys(parts, keyring)) {
      try {
        return openWith(parts, key);
      } catch {
        // the wrong key for a v1 ciphertext, or a damaged one: try the next key
      }
    }
  }
  throw new UndecryptableSecretError();
}

/** Whether a stored secret is already sealed with `key` (reencryption leaves it alone). */
export function isSealedWith(stored: string, key: SecretKey): boolean {
  return parseSealed(stored)?.keyId === key.id;
}

/** What reencryption does with one stored secret. */
export type Resealed = { kind: 'current' } | { kind: 'resealed'; stored: string } | { kind: 'undecryptable' };

/** Moves a stored secret to the first key of the keyring; one already there stays as it is. */
export function resealWithFirstKey(stored: string, keyring: readonly SecretKey[]): Resealed {
  if (isSealedWith(stored, keyring[0])) return { kind: 'current' };
  try {
    return { kind: 'resealed', stored: encryptSecret(decryptSecret(stored, keyring), keyring[0]) };
  } catch (error) {
    if (error instanceof UndecryptableSecretError) return { kind: 'undecryptable' };
    throw error;
  }
}
