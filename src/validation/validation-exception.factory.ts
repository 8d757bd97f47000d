import type { ValidationError } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { ERROR_CODES } from '../errors/error-codes';
import { rowNumbersOf } from './numbered-rows';
import { unknownFieldMessage } from './request-dto.decorators';

const UNKNOWN_FIELD = 'whitelistValidation';

/**
 * The fixed text of the first problem class-validator found: the message on the failed decorator, or the
 * DTO's unknown-field text, after "Row <n>: " when it lies inside a numbered row. class-validator lists
 * unknown fields first, then the properties in the order the DTO declares them, so the first problem is
 * the one a hand-written check in that order would find.
 */
export function validationMessage(errors: readonly ValidationError[]): string {
  let error = errors[0];
  let row: number | undefined;
  while (error && !error.constraints) {
    const child = error.children?.[0];
    if (child) row ??= rowNumbersOf(child.target)?.[Number(child.property)];
    error = child as ValidationError;
  }
  if (!error?.constraints) return ERROR_CODES.VALIDATION_ERROR.message;
  const [kind, text] = Object.entries(error.constraints)[0];
  const message = kind === UNKNOWN_FIELD ? unknownFieldMessage(error.target?.constructor) : text;
  return row === undefined ? message : `Row ${row}: ${message}`;
}

/** The ValidationPipe's exceptionFactory: any failure is 400 VALIDATION_ERROR with one fixed text. */
export function toValidationError(errors: ValidationError[]): ApiError {
  return new ApiError('VALIDATION_ERROR', validationMessage(errors));
}
