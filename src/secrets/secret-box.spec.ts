import { decryptSecret, DEVELOPMENT_KEY_HEX, encryptSecret } from './secret-box';

const KEY = '0f'.repeat(32);

describe('secret box', () => {
  it('round-trips a secret and never stores it in the clear', () => {
    const sealed = encryptSecret('whsec_abc', KEY);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('whsec_abc');
    expect(decryptSecret(sealed, KEY)).toBe('whsec_abc');
  });

  it('uses a fresh IV each time', () => {
    expect(encryptSecret('whsec_abc', KEY)).not.toBe(encryptSecret('whsec_abc', KEY));
  });

  it('fails with another key or a changed ciphertext', () => {
    const sealed = encryptSecret('whsec_abc', KEY);
    expect(() => decryptSecret(sealed, DEVELOPMENT_KEY_HEX)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_xyz').toString('base64url');
    expect(() => decryptSecret(parts.join('.'), KEY)).toThrow();
  });

  it('has a 32-byte development key', () => {
    expect(DEVELOPMENT_KEY_HEX).toMatch(/^[0-9a-f]{64}$/);
  });
});
