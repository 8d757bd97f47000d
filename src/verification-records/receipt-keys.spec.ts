import { checkReceipt, jwkThumbprint, newReceiptKey, readReceiptKey, RECEIPT_TYPE, signReceipt, TEST_RECEIPT_TYPE, testReceiptKey } from './receipt-keys';

const ISSUER = 'https://lvs.example.com';
const LIVE = { type: RECEIPT_TYPE, issuers: [ISSUER] };

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
    const receipt = signReceipt({ verificationId: 'v1', iss: ISSUER, iat: 1 }, key);
    expect(checkReceipt(receipt, { keys: [key.jwk] }, LIVE)).toEqual({ valid: true, claims: { verificationId: 'v1', iss: ISSUER, iat: 1 } });
    const [header, payload, signature] = receipt.split('.');
    const changed = Buffer.from(payload, 'base64url').toString().replace('v1', 'v2');
    expect(checkReceipt(`${header}.${Buffer.from(changed).toString('base64url')}.${signature}`, { keys: [key.jwk] }, LIVE)).toEqual({
      valid: false,
      reason: 'the signature does not match the header and payload',
    });
    const other = readReceiptKey(newReceiptKey());
    expect(checkReceipt(receipt, { keys: [other.jwk] }, LIVE)).toEqual({ valid: false, reason: `no Ed25519 key with kid ${key.jwk.kid} in the key set` });
    expect(checkReceipt('abc', { keys: [key.jwk] }, LIVE)).toEqual({ valid: false, reason: 'not a compact JWS (three base64url parts)' });
  });

  it('refuses a well-signed receipt whose iss is not a trusted issuer, or that names none', () => {
    const key = readReceiptKey(newReceiptKey());
    const foreign = signReceipt({ verificationId: 'v1', iss: 'https://forger.example', iat: 1 }, key);
    expect(checkReceipt(foreign, { keys: [key.jwk] }, LIVE)).toEqual({
      valid: false,
      reason: `issued by https://forger.example, not by a trusted issuer (${ISSUER})`,
    });
    expect(checkReceipt(signReceipt({ verificationId: 'v1' }, key), { keys: [key.jwk] }, LIVE)).toEqual({
      valid: false,
      reason: `issued by undefined, not by a trusted issuer (${ISSUER})`,
    });
    expect(checkReceipt(foreign, { keys: [key.jwk] }, { ...LIVE, issuers: [ISSUER, 'https://forger.example'] })).toMatchObject({ valid: true });
  });

  it('signs test-mode receipts with a key of their own, derived from the live one, that a live check refuses', () => {
    const seed = newReceiptKey();
    const live = readReceiptKey(seed);
    const test = testReceiptKey(seed);
    expect(test.jwk.kid).not.toBe(live.jwk.kid);
    expect(testReceiptKey(seed).jwk).toEqual(test.jwk);
    const receipt = signReceipt({ verificationId: 'v1', iss: ISSUER, mode: 'test' }, test, TEST_RECEIPT_TYPE);
    const both = { keys: [live.jwk, test.jwk] };
    expect(checkReceipt(receipt, both, LIVE)).toEqual({
      valid: false,
      reason: 'a test-mode receipt, which proves no live answer (check it as one with --test)',
    });
    expect(checkReceipt(receipt, { keys: [test.jwk] }, { ...LIVE, type: TEST_RECEIPT_TYPE })).toMatchObject({ valid: true });
    // A live receipt is not a test one either, and the test key never verifies a live receipt.
    const liveReceipt = signReceipt({ verificationId: 'v1', iss: ISSUER }, live);
    expect(checkReceipt(liveReceipt, both, { ...LIVE, type: TEST_RECEIPT_TYPE })).toEqual({
      valid: false,
      reason: `the receipt's typ is ${RECEIPT_TYPE}, not ${TEST_RECEIPT_TYPE}`,
    });
    // A test record's receipt signed with the live key and typ, as before test keys had their own, is refused too.
    expect(checkReceipt(signReceipt({ verificationId: 'v1', iss: ISSUER, mode: 'test' }, live), both, LIVE)).toEqual({
      valid: false,
      reason: 'a test-mode receipt, which proves no live answer (check it as one with --test)',
    });
    const forged = signReceipt({ verificationId: 'v1', iss: ISSUER }, test);
    expect(checkReceipt(forged, { keys: [live.jwk] }, LIVE)).toEqual({ valid: false, reason: `no Ed25519 key with kid ${test.jwk.kid} in the key set` });
  });
});
