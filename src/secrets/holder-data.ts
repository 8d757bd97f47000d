import { createHmac } from 'node:crypto';
import { decryptSecret, encryptSecret, SecretKey, secretKey } from '../signing-secrets/secret-box';

export { DEVELOPMENT_HOLDER_DATA_KEY_HEX } from '../config/development-keys';

/**
 * Keeps holder data (dates of birth, the names of a search) out of logs and stores: what is compared or used as a
 * key is an HMAC digest, and what the worker must read back is sealed with AES-256-GCM. The two uses get keys of
 * their own, derived from the one setting, so that a digest never doubles as an encryption key.
 */
export class HolderDataProtection {
  private readonly digestKey: Buffer;
  private readonly sealKey: SecretKey;

  constructor(keyHex: string) {
    const key = Buffer.from(keyHex, 'hex');
    this.digestKey = createHmac('sha256', key).update('digest').digest();
    this.sealKey = secretKey(createHmac('sha256', key).update('seal').digest('hex'));
  }

  /** 64 hex digits, the same for the same text under the same key, and useless without the key. */
  digest(text: string): string {
    return createHmac('sha256', this.digestKey).update(text).digest('hex');
  }

  seal(plain: string): string {
    return encryptSecret(plain, this.sealKey);
  }

  open(sealed: string): string {
    return decryptSecret(sealed, [this.sealKey]);
  }
}
