import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { RejectedBody } from './decode-request-body';

/**
 * The one place a body the reader could not decode becomes its 400 (after the API key guard, so 401 wins).
 * A decoded body goes to the route as it is: each route reads it with a pure function of its feature
 * (readVerifyBody, readRosterJson, ...), which says what is wrong with it.
 */
@Injectable()
export class UndecodableBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (value instanceof RejectedBody) throw ApiError.validation(value.reason);
    if (metadata.type === 'body' && (value === undefined || value === null)) throw ApiError.validation(VALIDATION_MESSAGES.notJson);
    return value;
  }
}
