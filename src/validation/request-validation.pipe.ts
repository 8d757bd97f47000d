import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { isOptionalBody, unknownFieldMessage } from './request-dto.decorators';
import { toValidationError } from './validation-exception.factory';
import { CsvText, RejectedBody } from '../http/decode-request-body';

/**
 * Whether an object has a field that would vanish before class-validator looks for unknown fields: Nest's
 * ValidationPipe deletes `__proto__`, `constructor` and `prototype`, and class-transformer never copies a
 * field that names an inherited method (`toString`, `hasOwnProperty`…).
 */
function hasVanishingField(value: object): boolean {
  for (const key in value) if (key === 'prototype' || key in Object.prototype) return true;
  return false;
}

/**
 * The one validation pipe. It runs after the guards, so a bad API key is 401 whatever the body. First the
 * outcome of decoding: a body the reader refused (RejectedBody) is 400 with the reader's text, a CSV body is
 * read into the plain object its route's DTO describes, a missing body is 400 unless the DTO allows none.
 * Then class-validator checks the DTO; every failure is 400 VALIDATION_ERROR with a fixed text.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: true,
      // target: the factory takes the unknown-field text from the DTO the field was found in. value: never
      // kept, so no caller input can reach an answer.
      validationError: { target: true, value: false },
      exceptionFactory: toValidationError,
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const input = value instanceof CsvText ? value.read() : value;
    if (input instanceof RejectedBody) throw new ApiError('VALIDATION_ERROR', input.reason);
    if (metadata.type === 'body' && (input === undefined || input === null) && !isOptionalBody(metadata.metatype)) {
      throw ApiError.validation(VALIDATION_MESSAGES.notJson);
    }
    // Refused like any other field the DTO does not declare, rather than dropped unseen.
    if (metadata.type !== 'custom' && typeof input === 'object' && input !== null && hasVanishingField(input)) {
      throw new ApiError('VALIDATION_ERROR', unknownFieldMessage(metadata.metatype));
    }
    return super.transform(input, metadata);
  }
}
