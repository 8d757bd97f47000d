import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { EXAMPLE_LICENCE_NUMBER, LICENCE_NUMBER_LENGTH, LICENCE_NUMBER_PATTERN } from './licence-number';

/** Documents a licence number, as a request or an answer carries it. */
export function ApiLicenceNumber(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({
    type: String,
    pattern: LICENCE_NUMBER_PATTERN.source,
    maxLength: LICENCE_NUMBER_LENGTH,
    example: EXAMPLE_LICENCE_NUMBER,
    description: 'The 16-digit licence number',
    ...options,
  });
}

/** A licence number in a request: refused with `message`, documented with its pattern. */
export function IsLicenceNumber(message: string = VALIDATION_MESSAGES.licenceNumber): PropertyDecorator {
  return applyDecorators(Matches(LICENCE_NUMBER_PATTERN, { message }), ApiLicenceNumber());
}
