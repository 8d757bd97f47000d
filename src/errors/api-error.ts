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

/** A pure reading of a request (its value, or the fixed text of what is wrong with it), or 400 with that text. */
export function orReject<T extends object>(reading: T | { problem: string }): Exclude<T, { problem: string }> {
  if ('problem' in reading) throw new ApiError('VALIDATION_ERROR', reading.problem);
  return reading as Exclude<T, { problem: string }>;
}
