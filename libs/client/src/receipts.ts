import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JSONWebKeySet, jwtVerify } from 'jose';
import type { components } from './generated/openapi.js';

/** A verified receipt's payload: the record as the service answered it, the issuer and when it was signed. */
export type VerifiedReceipt = components['schemas']['VerificationRecordDto'] & { iss: string; iat: number };

export interface VerifyReceiptOptions {
  /** a JWKS the auditor holds; without it, the service's /.well-known/jwks.json (cached, fetched again for a new kid) */
  jwks?: JSONWebKeySet;
  /** the issuer the payload must name; by default the client's baseUrl */
  issuer?: string;
}

/** Receipt verification: the signature (EdDSA) against the service's keys, and the issuer. */
export class Receipts {
  private remoteKeys: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly fetchImplementation: typeof fetch,
  ) {}

  /** The receipt's record, or a jose error (JWSSignatureVerificationFailed, JWTClaimValidationFailed, …) when it does not verify. */
  async verify(jws: string, options: VerifyReceiptOptions = {}): Promise<VerifiedReceipt> {
    const keys = options.jwks === undefined ? this.serviceKeys() : createLocalJWKSet(options.jwks);
    const { payload } = await jwtVerify(jws, keys, { algorithms: ['EdDSA'], issuer: options.issuer ?? this.baseUrl });
    return payload as unknown as VerifiedReceipt;
  }

  private serviceKeys(): ReturnType<typeof createRemoteJWKSet> {
    // jose caches the set and fetches it again when a receipt names a kid it does not hold.
    this.remoteKeys ??= createRemoteJWKSet(new URL(`${this.baseUrl}/.well-known/jwks.json`), {
      [customFetch]: (url: string, init: RequestInit) => this.fetchImplementation(url, init),
    });
    return this.remoteKeys;
  }
}
