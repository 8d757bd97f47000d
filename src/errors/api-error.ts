import { ERROR_CODES, ErrorCode, ValidationMessage } from './error-codes';

/** The only error our code throws on purpose; the filter turns it into the contract's body. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly publicMessage: string = ERROR_CODES[code].message,
  ) {
    super(`${code}: ${publicMessage}`);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
  }

  static validation(message: ValidationMessage): ApiError {
    return new ApiError('VALIDATION_ERROR', message);
  }
}
