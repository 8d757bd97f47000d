import {
  decryptSecret,
  DEVELOPMENT_KEY_HEX,
  encryptSecret,
  isSealedWith,
  keyIdOf,
  resealWithFirstKey,
  secretKey,
  UndecryptableSecretError,
} from './secret-box';

const K1 = secretKey('11'.repeat(32));
const K2 = secretKey('22'.repeat(32));
const K3 = secretKey('33'.repeat(32));
const UNDECRYPTABLE = 'Signing secret cannot be decrypted with the configured WEBHOOK_SECRET_KEYS';

// Written by the format before key ids (v1) with the key K1, for the secret below: rows stored then must stay readable.
const V1_UNDER_K1 = 'v1.fvHRvyTjRo6ePkjI._6B8XWP28jMuiZhAmFpijg.3gg1naKsQZKufI_JbxthG86vp0aqdAeJ9Y8MMvDpNtZjBSVDcqE';
const V1_SECRET = 'whsec_bGVnYWN5IHNlY3JldCBmb3IgdGVzdHM=';

describe('secret box', () => {
  it('round-trips a secret under the key it names, and never stores it in the clear', () => {
    const sealed = encryptSecret('whsec_abc', K1);
    expect(sealed).toMatch(new RegExp(`^v2\\.${K1.id}\\.[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    expect(sealed).not.toContain('whsec_abc');
    expect(sealed).not.toContain(K1.hex);
    expect(decryptSecret(sealed, [K1])).toBe('whsec_abc');
  });

  it('opens a secret with any key of the keyring, whatever its place', () => {
    expect(decryptSecret(encryptSecret('whsec_abc', K1), [K2, K1])).toBe('whsec_abc');
    expect(decryptSecret(encryptSecret('whsec_abc', K2), [K2, K1])).toBe('whsec_abc');
  });

  it('uses a fresh IV each time', () => {
    expect(encryptSecret('whsec_abc', K1)).not.toBe(encryptSecret('whsec_abc', K1));
  });

  it('reads a v1 ciphertext (no key id) with whichever key opens it', () => {
    expect(decryptSecret(V1_UNDER_K1, [K1])).toBe(V1_SECRET);
    expect(decryptSecret(V1_UNDER_K1, [K2, K3, K1])).toBe(V1_SECRET);
    expect(() => decryptSecret(V1_UNDER_K1, [K2, K3])).toThrow(UNDECRYPTABLE);
  });

  it('fails with UndecryptableSecretError for an unknown key id, a changed ciphertext or an unknown format', () => {
    const sealed = encryptSecret('whsec_abc', K1);
    expect(() => decryptSecret(sealed, [K2, K3])).toThrow(UndecryptableSecretError);
    const parts = sealed.split('.');
    parts[4] = Buffer.from('whsec_xyz').toString('base64url');
    expect(() => decryptSecret(parts.join('.'), [K1])).toThrow(UNDECRYPTABLE);
    // a ciphertext that claims K2's id but was sealed with K1 fails on K2 and is not tried with K1
    const relabelled = ['v2', K2.id, ...sealed.split('.').slice(2)].join('.');
    expect(() => decryptSecret(relabelled, [K1, K2])).toThrow(UNDECRYPTABLE);
    for (const stored of ['', 'whsec_abc', 'v3.a.b.c.d', 'v1.a.b']) expect(() => decryptSecret(stored, [K1])).toThrow(UNDECRYPTABLE);
  });

  it('names each key by a short fingerprint that is stable and tells keys apart', () => {
    expect(keyIdOf('11'.repeat(32))).toMatch(/^[\w-]{8}$/);
    expect(keyIdOf('11'.repeat(32))).toBe(K1.id);
    expect(keyIdOf('11'.repeat(32).toUpperCase())).toBe(K1.id);
    expect(new Set([K1.id, K2.id, K3.id]).size).toBe(3);
  });

  it('tells whether a secret is sealed with a given key (v1 never is)', () => {
    expect(isSealedWith(encryptSecret('whsec_abc', K1), K1)).toBe(true);
    expect(isSealedWith(encryptSecret('whsec_abc', K1), K2)).toBe(false);
    expect(isSealedWith(V1_UNDER_K1, K1)).toBe(false);
  });

  it('reseals a secret under the first key, leaves one already there alone, and names one no key opens', () => {
    const underK1 = encryptSecret('whsec_abc', K1);
    const moved = resealWithFirstKey(underK1, [K2, K1]);
    expect(moved).toEqual({ kind: 'resealed', stored: expect.stringMatching(new RegExp(`^v2\\.${K2.id}\\.`)) });
    expect(decryptSecret((moved as { stored: string }).stored, [K2])).toBe('whsec_abc');
    expect(resealWithFirstKey((moved as { stored: string }).stored, [K2, K1])).toEqual({ kind: 'current' });
    expect(resealWithFirstKey(V1_UNDER_K1, [K1])).toEqual({ kind: 'resealed', stored: expect.stringMatching(new RegExp(`^v2\\.${K1.id}\\.`)) });
    expect(resealWithFirstKey(underK1, [K3])).toEqual({ kind: 'undecryptable' });
  });

  it('has a 32-byte development key', () => {
    expect(DEVELOPMENT_KEY_HEX).toMatch(/^[0-9a-f]{64}$/);
  });
});
