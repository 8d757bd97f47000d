import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JSONWebKeySet, jwtVerify } from 'jose';
import type { components } from './generated/openapi.js';

/** A verified receipt's payload: the record as the service answered it, the issuer and when it was signed. */
export type VerifiedReceipt = components['schemas']['VerificationRecordDto'] & { iss: string; iat: number };

export interface VerifyReceiptOptions {
  /** a JWKS the auditor holds; without it, the service's /.well-known/jwks.json (cached, fetched again for a new kid) */
  jwks?: JSONWebKeySet;
  /** the issuer the payload must name; by default the client's baseUrl */
  issuer?: string;
  /** test for a test key's receipt: its own keys (/.well-known/jwks-test.json) and typ; a live check refuses one */
  mode?: 'live' | 'test';
}

const RECEIPT_TYPES = { live: 'lvs-receipt+jwt', test: 'lvs-test-receipt+jwt' } as const;
const KEY_SETS = { live: 'jwks.json', test: 'jwks-test.json' } as const;

/** Receipt verification: the signature (EdDSA) against the service's keys, and the issuer. */
export class Receipts {
  private readonly remoteKeys = new Map<'live' | 'test', ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    private readonly baseUrl: string,
    private readonly fetchImplementation: typeof fetch,
  ) {}

  /** The receipt's record, or a jose error (JWSSignatureVerificationFailed, JWTClaimValidationFailed, …) when it does not verify. */
  async verify(jws: string, options: VerifyReceiptOptions = {}): Promise<VerifiedReceipt> {
    const mode = options.mode ?? 'live';
    const keys = options.jwks === undefined ? this.serviceKeys(mode) : createLocalJWKSet(options.jwks);
    const { payload } = await jwtVerify(jws, keys, { algorithms: ['EdDSA'], issuer: options.issuer ?? this.baseUrl, typ: RECEIPT_TYPES[mode] });
    return payload as unknown as VerifiedReceipt;
  }

  private serviceKeys(mode: 'live' | 'test'): ReturnType<typeof createRemoteJWKSet> {
    // jose caches the set and fetches it again when a receipt names a kid it does not hold.
    let keys = this.remoteKeys.get(mode);
    if (keys === undefined) {
      keys = createRemoteJWKSet(new URL(`${this.baseUrl}/.well-known/${KEY_SETS[mode]}`), {
        [customFetch]: (url: string, init: RequestInit) => this.fetchImplementation(url, init),
      });
      this.remoteKeys.set(mode, keys);
    }
    return keys;
  }
}
