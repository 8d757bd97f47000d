import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorCode } from '../errors/error-codes';
import { ErrorBody } from '../errors/error-body.dto';
import { errorResponseDocs } from './error-examples';

/** Documents the error answers a route can give, each with the contract's body and its real texts. */
export function ApiErrorResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...errorResponseDocs(codes).map(({ status, description, examples }) =>
      ApiResponse({ status, description, type: ErrorBody, examples }),
    ),
  );
}
