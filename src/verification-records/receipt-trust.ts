/** What the auditor told `receipts verify` to trust. */
export interface TrustOptions {
  /** a key set, a file (offline) or a URL */
  jwks?: string;
  /** the services whose receipts are accepted, by their PUBLIC_BASE_URL; one or more */
  issuers: readonly string[];
  /** check a test-mode receipt (its own typ and key set) instead of a live one */
  test: boolean;
}

/** Where to read the keys, and which issuers a receipt checked with them may name; or why nothing is trusted. */
export type Trust = { jwks: string; issuers: readonly string[] } | { refused: string };

const SERVED_JWKS = /^(https?:\/\/.+)\/\.well-known\/jwks(-test)?\.json$/;

/** The key set a service publishes at its address: the live one, or the test-mode one. */
export function servedJwks(issuer: string, test: boolean): string {
  return `${issuer}/.well-known/${test ? 'jwks-test.json' : 'jwks.json'}`;
}

/**
 * What a receipt is checked against: only keys and issuers the auditor named. A key set's URL at a service's
 * /.well-known names that service as the issuer; a key set from a file needs --issuer. With issuers alone, their
 * own key sets; the receipt's unverified iss only picks which of them to fetch, and a receipt naming none of them
 * is then refused by the iss check.
 */
export function trustOf(options: TrustOptions, unverifiedIssuer: string | null): Trust {
  if (options.jwks !== undefined) {
    const served = SERVED_JWKS.exec(options.jwks);
    const issuers = options.issuers.length > 0 ? options.issuers : served ? [served[1]] : [];
    if (issuers.length === 0) return { refused: 'a key set from a file needs --issuer URL: the address of the service it belongs to' };
    return { jwks: options.jwks, issuers };
  }
  if (options.issuers.length === 0) {
    return { refused: "name what you trust: --issuer URL (the service's address), or --jwks FILE|URL with it" };
  }
  const issuer = options.issuers.find((trusted) => trusted === unverifiedIssuer) ?? options.issuers[0];
  return { jwks: servedJwks(issuer, options.test), issuers: options.issuers };
}
