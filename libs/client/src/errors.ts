import type { components } from './generated/openapi.js';

/** Every code of the service's error table, as its OpenAPI document lists them. */
export type ErrorCode = components['schemas']['ErrorBody']['code'];

/**
 * Every error the service answers (a `{"code","message"}` body), after any automatic retries. Results are never
 * errors: NOT_FOUND and TOO_MANY_RESULTS come back from verify() as results.
 */
export class LicenceVerificationError extends Error {
  override readonly name = 'LicenceVerificationError';

  constructor(
    /** the HTTP status */
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** the service's X-Request-Id, to quote to support */
    readonly requestId: string | undefined,
    /** Retry-After in seconds, when the service sent one (429, 503) */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
  }
}
