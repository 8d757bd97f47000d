import { createHmac } from 'node:crypto';
import { encryptSecret, secretKey } from './secret-box';
import { DEVELOPMENT_HOLDER_DATA_KEY_HEX, HolderDataProtection, holderDataRow, UnopenableHolderDataError } from './holder-data';

const KEY = '1f'.repeat(32);
const NEW_KEY = '2e'.repeat(32);
const ROW = holderDataRow.watchEntry('5b3c6f1e-1111-4a4a-8b8b-000000000001', '1234567890123456');
const OTHER_ROW = holderDataRow.watchEntry('5b3c6f1e-1111-4a4a-8b8b-000000000001', '1234567890123457');

/** A value as the service sealed it before rotation: secret-box's v2 with the derived key, no associated data. */
function legacySeal(plain: string, keyHex: string): string {
  return encryptSecret(plain, secretKey(createHmac('sha256', Buffer.from(keyHex, 'hex')).update('seal').digest('hex')));
}

describe('HolderDataProtection', () => {
  const protection = new HolderDataProtection([KEY]);

  it('digests the same text to the same 64 hex digits, without the text in them', () => {
    expect(protection.digest('1990-04-12')).toMatch(/^[0-9a-f]{64}$/);
    expect(protection.digest('1990-04-12')).toBe(protection.digest('1990-04-12'));
    expect(protection.digest('1990-04-12')).not.toContain('1990');
  });

  it('digests differently under another key and for another text; the first key of a ring digests', () => {
    expect(new HolderDataProtection([DEVELOPMENT_HOLDER_DATA_KEY_HEX]).digest('1990-04-12')).not.toBe(protection.digest('1990-04-12'));
    expect(protection.digest('1990-04-13')).not.toBe(protection.digest('1990-04-12'));
    expect(new HolderDataProtection([KEY, NEW_KEY]).digest('1990-04-12')).toBe(protection.digest('1990-04-12'));
  });

  it('seals text, in the v3 format with a 16-byte tag, that only the same key opens', () => {
    const sealed = protection.seal('1990-04-12', ROW);
    expect(sealed).not.toContain('1990');
    const [version, , binding, iv, tag] = sealed.split('.');
    expect([version, Buffer.from(binding, 'base64url').length, Buffer.from(iv, 'base64url').length, Buffer.from(tag, 'base64url').length]).toEqual([
      'v3',
      16,
      12,
      16,
    ]);
    expect(protection.open(sealed, ROW)).toBe('1990-04-12');
    expect(() => new HolderDataProtection([DEVELOPMENT_HOLDER_DATA_KEY_HEX]).open(sealed, ROW)).toThrow(UnopenableHolderDataError);
  });

  it('binds the row: a value copied to another row does not open there', () => {
    const sealed = protection.seal('1990-04-12', ROW);
    expect(() => protection.open(sealed, OTHER_ROW)).toThrow(UnopenableHolderDataError);
    expect(protection.openOrNull(sealed, OTHER_ROW)).toBeNull();
    // The binding is authenticated: rewriting it to the other row's breaks the tag.
    const parts = sealed.split('.');
    const forged = protection.seal('x', OTHER_ROW).split('.')[2];
    expect(() => protection.open([parts[0], parts[1], forged, ...parts.slice(3)].join('.'), OTHER_ROW)).toThrow(UnopenableHolderDataError);
  });

  it('refuses a shortened tag and a damaged ciphertext', () => {
    const parts = protection.seal('1990-04-12', ROW).split('.');
    const shortTag = Buffer.from(parts[4], 'base64url').subarray(0, 12).toString('base64url');
    expect(() => protection.open([...parts.slice(0, 4), shortTag, parts[5]].join('.'), ROW)).toThrow(UnopenableHolderDataError);
    const flipped = Buffer.from(parts[5], 'base64url');
    flipped[0] ^= 1;
    expect(() => protection.open([...parts.slice(0, 5), flipped.toString('base64url')].join('.'), ROW)).toThrow(UnopenableHolderDataError);
    expect(() => protection.open('not sealed', ROW)).toThrow(UnopenableHolderDataError);
  });

  it('opens with any key of the ring and seals with the first', () => {
    const old = protection.seal('1990-04-12', ROW);
    const ring = new HolderDataProtection([NEW_KEY, KEY]);
    expect(ring.open(old, ROW)).toBe('1990-04-12');
    expect(protection.openOrNull(ring.seal('1990-04-12', ROW), ROW)).toBeNull();
    expect(new HolderDataProtection([NEW_KEY]).openOrNull(old, ROW)).toBeNull();
  });

  it('opens values sealed before the v3 format, for any row', () => {
    const legacy = legacySeal('1990-04-12', KEY);
    expect(legacy.startsWith('v2.')).toBe(true);
    expect(protection.open(legacy, ROW)).toBe('1990-04-12');
    expect(new HolderDataProtection([NEW_KEY, KEY]).open(legacy)).toBe('1990-04-12');
  });

  it('reseals old formats and other keys with the first key, bound to the row, and leaves current ones alone', () => {
    const ring = new HolderDataProtection([NEW_KEY, KEY]);
    for (const stored of [legacySeal('1990-04-12', KEY), protection.seal('1990-04-12', ROW)]) {
      const resealed = ring.resealed(stored, ROW)!;
      expect(resealed.startsWith('v3.')).toBe(true);
      expect(new HolderDataProtection([NEW_KEY]).open(resealed, ROW)).toBe('1990-04-12');
      expect(ring.resealed(resealed, ROW)).toBeNull();
    }
    expect(() => ring.resealed(protection.seal('1990-04-12', ROW), OTHER_ROW)).toThrow(UnopenableHolderDataError);
    expect(() => new HolderDataProtection([NEW_KEY]).resealed(legacySeal('1990-04-12', KEY), ROW)).toThrow(UnopenableHolderDataError);
  });
});
