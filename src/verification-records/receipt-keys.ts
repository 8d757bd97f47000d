import { DEVELOPMENT_RECEIPT_KEY } from '../config/development-keys';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, hkdfSync, KeyObject, sign, verify } from 'node:crypto';

/** RFC 8410's PKCS #8 wrapping of an Ed25519 seed: these 16 bytes, then the 32 of the seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The development signing key when RECEIPT_SIGNING_KEYS is empty (published in the source, so refused in production). */
export { DEVELOPMENT_RECEIPT_KEY };

/** A public key as the JWKS publishes it (RFC 7517, RFC 8037). */
export interface ReceiptJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  use: 'sig';
  alg: 'EdDSA';
}

export interface ReceiptKey {
  privateKey: KeyObject;
  jwk: ReceiptJwk;
}

/** A key of RECEIPT_SIGNING_KEYS: the base64url of a 32-byte Ed25519 seed. */
export function readReceiptKey(seed: string): ReceiptKey {
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed, 'base64url')]), format: 'der', type: 'pkcs8' });
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string };
  return { privateKey, jwk: { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint(x), use: 'sig', alg: 'EdDSA' } };
}

/**
 * The key that signs test-mode receipts for a key of RECEIPT_SIGNING_KEYS: derived from its seed (HKDF-SHA256) so
 * that it needs no setting of its own, yet another key with its own kid, published apart (jwks-test.json). Whoever
 * holds a test key can make any answer in test mode; the receipt of one can never verify as a live receipt.
 */
export function testReceiptKey(seed: string): ReceiptKey {
  const derived = Buffer.from(hkdfSync('sha256', Buffer.from(seed, 'base64url'), Buffer.alloc(0), 'lvs test-mode receipts', 32));
  return readReceiptKey(derived.toString('base64url'));
}

/** RFC 7638: SHA-256 of the required members in lexical order, without spaces. */
export function jwkThumbprint(x: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
}

/** A new key in the form RECEIPT_SIGNING_KEYS takes. */
export function newReceiptKey(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).subarray(ED25519_PKCS8_PREFIX.length).toString('base64url');
}

/** The typ of a live receipt's protected header; a test-mode receipt's differs, so that a live check refuses it. */
export const RECEIPT_TYPE = 'lvs-receipt+jwt';
export const TEST_RECEIPT_TYPE = 'lvs-test-receipt+jwt';

/** A compact JWS (RFC 7515) of `claims`, signed with EdDSA by `key`, its protected header naming `type`. */
export function signReceipt(claims: object, key: ReceiptKey, type: string = RECEIPT_TYPE): string {
  const header = encode({ alg: 'EdDSA', kid: key.jwk.kid, typ: type });
  const payload = encode(claims);
  const signature = sign(null, Buffer.from(`${header}.${payload}`), key.privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

const TEST_RECEIPT_REFUSED = 'a test-mode receipt, which proves no live answer (check it as one with --test)';

/** A receipt checked against a key set: its claims, or why it does not verify. */
export type ReceiptCheck = { valid: true; claims: Record<string, unknown> } | { valid: false; reason: string };

/** What a receipt must be besides well signed: of this typ, and issued (iss) by one of these issuers. */
export interface ReceiptExpectation {
  type: string;
  issuers: readonly string[];
}

/**
 * Checks a compact JWS as signReceipt writes it against the keys of a JWKS the checker trusts, then that it is of
 * the expected typ and that its verified iss is a trusted issuer: a receipt is only as good as the keys and the
 * issuer the checker chose, never the ones it names itself.
 */
export function checkReceipt(receipt: string, jwks: { keys?: unknown }, expected: ReceiptExpectation): ReceiptCheck {
  const parts = receipt.trim().split('.');
  if (parts.length !== 3) return { valid: false, reason: 'not a compact JWS (three base64url parts)' };
  const [header, payload, signature] = parts;
  const protectedHeader = decode(header);
  if (protectedHeader === null || protectedHeader.alg !== 'EdDSA') return { valid: false, reason: 'the protected header is not EdDSA' };
  if (protectedHeader.typ !== expected.type) {
    return protectedHeader.typ === TEST_RECEIPT_TYPE
      ? { valid: false, reason: TEST_RECEIPT_REFUSED }
      : { valid: false, reason: `the receipt's typ is ${String(protectedHeader.typ)}, not ${expected.type}` };
  }
  const jwk = (Array.isArray(jwks.keys) ? (jwks.keys as ReceiptJwk[]) : []).find((key) => key.kid === protectedHeader.kid);
  if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519')
    return { valid: false, reason: `no Ed25519 key with kid ${String(protectedHeader.kid)} in the key set` };
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  if (!verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))) {
    return { valid: false, reason: 'the signature does not match the header and payload' };
  }
  const claims = decode(payload);
  if (claims === null) return { valid: false, reason: 'the payload is not a JSON object' };
  // A test record's receipt signed before test receipts had a key and typ of their own says so only in its payload.
  if (expected.type === RECEIPT_TYPE && claims.mode === 'test') return { valid: false, reason: TEST_RECEIPT_REFUSED };
  return typeof claims.iss === 'string' && expected.issuers.includes(claims.iss)
    ? { valid: true, claims }
    : { valid: false, reason: `issued by ${String(claims.iss)}, not by a trusted issuer (${expected.issuers.join(', ')})` };
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decode(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
