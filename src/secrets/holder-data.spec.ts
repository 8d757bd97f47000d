import { DEVELOPMENT_HOLDER_DATA_KEY_HEX, HolderDataProtection } from './holder-data';

const KEY = '1f'.repeat(32);

describe('HolderDataProtection', () => {
  const protection = new HolderDataProtection(KEY);

  it('digests the same text to the same 64 hex digits, without the text in them', () => {
    expect(protection.digest('1990-04-12')).toMatch(/^[0-9a-f]{64}$/);
    expect(protection.digest('1990-04-12')).toBe(protection.digest('1990-04-12'));
    expect(protection.digest('1990-04-12')).not.toContain('1990');
  });

  it('digests differently under another key and for another text', () => {
    expect(new HolderDataProtection(DEVELOPMENT_HOLDER_DATA_KEY_HEX).digest('1990-04-12')).not.toBe(protection.digest('1990-04-12'));
    expect(protection.digest('1990-04-13')).not.toBe(protection.digest('1990-04-12'));
  });

  it('seals text that only the same key opens', () => {
    const sealed = protection.seal('{"dateOfBirth":"1990-04-12"}');
    expect(sealed).not.toContain('1990');
    expect(protection.open(sealed)).toBe('{"dateOfBirth":"1990-04-12"}');
    expect(() => new HolderDataProtection(DEVELOPMENT_HOLDER_DATA_KEY_HEX).open(sealed)).toThrow();
  });
});
