import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorCode, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ErrorBody } from '../errors/error-body.dto';
import { errorResponseDocs, ValidationTexts } from './error-examples';

/**
 * Documents the error answers a route can give, each with the contract's body and its real texts;
 * VALIDATION_ERROR's examples are `validationTexts`, the texts this route really sends.
 */
export function ApiErrorResponsesWith(validationTexts: ValidationTexts, ...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...errorResponseDocs(codes, validationTexts).map(({ status, description, examples, headers }) =>
      ApiResponse({ status, description, type: ErrorBody, examples, headers }),
    ),
  );
}

/** As ApiErrorResponsesWith, for the routes whose VALIDATION_ERROR texts are the verify contract's. */
export function ApiErrorResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  return ApiErrorResponsesWith(VALIDATION_MESSAGES, ...codes);
}
