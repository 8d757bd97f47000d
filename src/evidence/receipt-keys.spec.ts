import { checkReceipt, jwkThumbprint, newReceiptKey, readReceiptKey, signReceipt } from './receipt-keys';

describe('receipt keys', () => {
  it('reads a new key into an Ed25519 JWK whose kid is its RFC 7638 thumbprint', () => {
    const seed = newReceiptKey();
    expect(seed).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { jwk } = readReceiptKey(seed);
    expect(jwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      kid: jwkThumbprint(jwk.x),
      use: 'sig',
      alg: 'EdDSA',
    });
    expect(readReceiptKey(seed).jwk).toEqual(jwk);
  });

  it("computes RFC 8037's thumbprint example", () => {
    // RFC 8037, appendix A.3
    expect(jwkThumbprint('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo')).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('signs a receipt that verifies with its key, and not once a byte of the payload changes or with another key', () => {
    const key = readReceiptKey(newReceiptKey());
    const receipt = signReceipt({ verificationId: 'v1', iat: 1 }, key);
    expect(checkReceipt(receipt, { keys: [key.jwk] })).toEqual({ valid: true, claims: { verificationId: 'v1', iat: 1 } });
    const [header, payload, signature] = receipt.split('.');
    const changed = Buffer.from(payload, 'base64url').toString().replace('v1', 'v2');
    expect(checkReceipt(`${header}.${Buffer.from(changed).toString('base64url')}.${signature}`, { keys: [key.jwk] })).toEqual({
      valid: false,
      reason: 'the signature does not match the header and payload',
    });
    const other = readReceiptKey(newReceiptKey());
    expect(checkReceipt(receipt, { keys: [other.jwk] })).toEqual({ valid: false, reason: `no Ed25519 key with kid ${key.jwk.kid} in the key set` });
    expect(checkReceipt('abc', { keys: [key.jwk] })).toEqual({ valid: false, reason: 'not a compact JWS (three base64url parts)' });
  });
});
