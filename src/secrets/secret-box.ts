import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Used when WEBHOOK_SECRET_KEY is empty, with a warning at start-up: fine for a laptop, not for production. */
export const DEVELOPMENT_KEY_HEX = createHash('sha256').update('lvs development webhook key').digest('hex');

/** AES-256-GCM: "v1.<iv>.<tag>.<ciphertext>" in base64url; the tag makes tampering fail loudly. */
export function encryptSecret(plain: string, keyHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function decryptSecret(stored: string, keyHex: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || sealed === undefined) throw new Error('Unknown webhook secret format');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
