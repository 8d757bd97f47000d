import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { DEVELOPMENT_HOLDER_DATA_KEY_HEX } from '../config/development-keys';
import { Keyring, keyring } from './keyring';
import { decryptSecret, SecretKey, secretKey, UndecryptableSecretError } from './secret-box';

/** Used when neither HOLDER_DATA_KEYS nor HOLDER_DATA_KEY is set, with a warning at start-up: refused in production. */
export { DEVELOPMENT_HOLDER_DATA_KEY_HEX };

const TAG_BYTES = 16;

/** The holder data keys: HOLDER_DATA_KEYS when it lists any (the first seals), else HOLDER_DATA_KEY, else the development key. */
export function holderDataKeyring(settings: { HOLDER_DATA_KEYS: readonly string[]; HOLDER_DATA_KEY: string }): Keyring {
  return keyring(settings.HOLDER_DATA_KEYS, settings.HOLDER_DATA_KEY, DEVELOPMENT_HOLDER_DATA_KEY_HEX);
}

/** No key of the ring opens a sealed value, it belongs to another row, or it is damaged. */
export class UnopenableHolderDataError extends Error {
  constructor() {
    super('Holder data cannot be opened with the configured HOLDER_DATA_KEYS');
    this.name = 'UnopenableHolderDataError';
  }
}

/** The identity of each kind of row that holds sealed holder data, bound into its seal. */
export const holderDataRow = {
  watchEntry: (userId: string, licenceNumber: string) => `watch_entries/${userId}/${licenceNumber}`,
  batchItem: (batchId: string, index: number) => `batch_items/${batchId}/${index}`,
  nameSearch: (searchKey: string) => `name_search/${searchKey}`,
};

/** 16 bytes standing for a row's identity: AES-GCM's associated data, carried in the sealed text. */
function bindingOf(row: string): string {
  return createHash('sha256').update('lvs holder data row:').update(row).digest().subarray(0, 16).toString('base64url');
}

interface Sealed {
  keyId: string;
  binding: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/** "v3.<key id>.<binding>.<iv>.<tag>.<ciphertext>"; null for anything else (the older formats included). */
function parseV3(stored: string): Sealed | null {
  const parts = stored.split('.');
  if (parts[0] !== 'v3' || parts.length !== 6) return null;
  const [iv, tag, ciphertext] = parts.slice(3).map((part) => Buffer.from(part, 'base64url'));
  return { keyId: parts[1], binding: parts[2], iv, tag, ciphertext };
}

/**
 * Keeps holder data (dates of birth, the names of a search) out of logs and stores: what is compared or used as a
 * key is an HMAC digest, and what the worker must read back is sealed with AES-256-GCM. The two uses get keys of
 * their own, derived from each configured key, so that a digest never doubles as an encryption key.
 *
 * The keys form a ring (HOLDER_DATA_KEYS): the first digests and seals, every one opens, so a key can be replaced
 * without losing what the old one sealed. A seal binds the identity of the row that holds it as associated data,
 * with a 16-byte tag: a sealed date of birth copied into another row does not open there. Values sealed before
 * (secret-box's "v1"/"v2", without associated data) still open, and `resealed` moves them to the first key.
 */
export class HolderDataProtection {
  private readonly digestKey: Buffer;
  private readonly sealKeys: SecretKey[];

  /** `keyHexes`: the ring, the sealing key first. */
  constructor(keyHexes: readonly string[]) {
    if (keyHexes.length === 0) throw new Error('HolderDataProtection needs at least one key');
    const derive = (keyHex: string, use: string) => createHmac('sha256', Buffer.from(keyHex, 'hex')).update(use).digest();
    this.digestKey = derive(keyHexes[0], 'digest');
    this.sealKeys = keyHexes.map((keyHex) => secretKey(derive(keyHex, 'seal').toString('hex')));
  }

  /** 64 hex digits, the same for the same text under the same first key, and useless without the key. */
  digest(text: string): string {
    return createHmac('sha256', this.digestKey).update(text).digest('hex');
  }

  /** Seals `plain` for the row `row` (holderDataRow) with the first key. */
  seal(plain: string, row: string): string {
    const key = this.sealKeys[0];
    const binding = bindingOf(row);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(key.hex, 'hex'), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(binding, 'base64url'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v3', key.id, binding, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
  }

  /**
   * The plain text; UnopenableHolderDataError when no key opens it or, given `row`, it was sealed for another row.
   * Without `row` the seal's own binding is still authenticated, but not compared with a row.
   */
  open(stored: string, row?: string): string {
    const sealed = parseV3(stored);
    if (sealed === null) return this.openLegacy(stored);
    if (row !== undefined && bindingOf(row) !== sealed.binding) throw new UnopenableHolderDataError();
    const key = this.sealKeys.find((candidate) => candidate.id === sealed.keyId);
    if (key === undefined || sealed.tag.length !== TAG_BYTES) throw new UnopenableHolderDataError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key.hex, 'hex'), sealed.iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(sealed.binding, 'base64url'));
      decipher.setAuthTag(sealed.tag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new UnopenableHolderDataError();
    }
  }

  /** open, or null when it cannot be opened (a key taken out of the ring too early, or a damaged value). */
  openOrNull(stored: string, row: string): string | null {
    try {
      return this.open(stored, row);
    } catch (error) {
      if (error instanceof UnopenableHolderDataError) return null;
      throw error;
    }
  }

  /**
   * The value sealed anew with the first key, bound to `row`; null when it is so already. Throws
   * UnopenableHolderDataError when no key of the ring opens it.
   */
  resealed(stored: string, row: string): string | null {
    const sealed = parseV3(stored);
    if (sealed !== null && sealed.keyId === this.sealKeys[0].id && sealed.binding === bindingOf(row)) return null;
    return this.seal(this.open(stored, sealed === null ? undefined : row), row);
  }

  /** The formats written before rotation and binding, sealed with one derived key and no associated data. */
  private openLegacy(stored: string): string {
    try {
      return decryptSecret(stored, this.sealKeys);
    } catch (error) {
      if (error instanceof UndecryptableSecretError) throw new UnopenableHolderDataError();
      throw error;
    }
  }
}
