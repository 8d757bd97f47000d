import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '../errors/error-codes';
import { ErrorBody } from '../errors/error-body.dto';

/** Documents the error answers a route can give, each with the contract's body and fixed text. */
export function ApiErrorResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...codes.map((code) =>
      ApiResponse({
        status: ERROR_CODES[code].status,
        description: code,
        type: ErrorBody,
        example: { code, message: ERROR_CODES[code].message },
      }),
    ),
  );
}
