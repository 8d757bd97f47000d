import { ERROR_CODES, ErrorCode, ValidationMessage } from './error-codes';

/** The only error our code throws on purpose; the filter turns it into the contract's body. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly publicMessage: string = ERROR_CODES[code].message,
    /** sent with the answer, e.g. Retry-After */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${code}: ${publicMessage}`);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
  }

  static validation(message: ValidationMessage): ApiError {
    return new ApiError('VALIDATION_ERROR', message);
  }

  /** RATE_LIMITED, telling the caller when to try again. */
  static rateLimited(retryAfterSeconds: number): ApiError {
    return new ApiError('RATE_LIMITED', ERROR_CODES.RATE_LIMITED.message, { 'Retry-After': String(retryAfterSeconds) });
  }
}
