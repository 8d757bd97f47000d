import { applyDecorators, Type } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import {
  exampleVerificationAnswer,
  VerificationFoundDto,
  VerificationNotFoundDto,
  VerificationPendingDto,
  VerificationTooManyResultsDto,
} from './dto/verification-result.dto';
import { VerificationStatus } from './outcome-status';

export const ANSWER_HEADERS = {
  'Idempotency-Key': {
    required: true,
    description: 'The effective idempotency key: yours, or the one derived for you',
    schema: { type: 'string' },
  },
  'X-Verification-Source': {
    required: true,
    description: 'cache: a stored result answered; register: the register was asked for this verification',
    schema: { type: 'string', enum: ['cache', 'register'] },
  },
};

export const RETRY_AFTER_HEADER = {
  'Retry-After': { required: true, description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
};

/** One documented answer per verification status: its own schema, its HTTP status and a real example. */
function ApiVerificationAnswer(status: VerificationStatus, type: Type, description: string, headers: Record<string, object> = ANSWER_HEADERS) {
  const { httpStatus, body } = exampleVerificationAnswer(status);
  return ApiResponse({ status: httpStatus, description, type, headers, example: body });
}

/** The four verification answers of POST /v1/licences/verify, as the OpenAPI document shows them. */
export function ApiVerificationAnswers(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiVerificationAnswer('FOUND', VerificationFoundDto, 'FOUND: exactly one licence has the number'),
    ApiVerificationAnswer(
      'PENDING',
      VerificationPendingDto,
      'PENDING: the register has not answered in time (5 s by default); retry the same request with the same Idempotency-Key',
      { ...ANSWER_HEADERS, ...RETRY_AFTER_HEADER },
    ),
    ApiVerificationAnswer('NOT_FOUND', VerificationNotFoundDto, 'NOT_FOUND: no licence has the number (a result, not an error)'),
    ApiVerificationAnswer(
      'TOO_MANY_RESULTS',
      VerificationTooManyResultsDto,
      'TOO_MANY_RESULTS: several licences match the number, a data-quality problem of the register (a result, not an error)',
    ),
  );
}
